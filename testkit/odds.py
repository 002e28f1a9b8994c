"""Açık poker's odds marked with the process that worked them out, for the tests of where the
core computes them: a top-level function, so the odds' worker processes can be handed it."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from games.poker.odds import Odds, estimate


def estimate_marked(view: Mapping[str, Any]) -> Odds:
    """`games.poker.odds.estimate(view)` with `deals` replaced by this process's id."""
    return replace(estimate(view), deals=os.getpid())
