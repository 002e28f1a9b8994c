"""`Sketch`: a picture the core describes while it holds a table's lock and draws later.

It lives apart from `bot.core.table.pictures` (which draws sketches into the outgoing items of
`bot.core.messages`) so that `messages` can name it without importing the drawing code back.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from bot.render.pictures import PictureStyle


@dataclasses.dataclass(frozen=True)
class Sketch:
    """A picture still to draw: the renderer, its scene and its style (all hashable)."""

    draw: Callable[[Any, PictureStyle], bytes]
    scene: Any
    style: PictureStyle
