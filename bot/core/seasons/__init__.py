"""Seasons per community (docs/seasons.md): `/season [n]`, `/season length ...` for
moderators, and the end of each season from the timer (`Seasons.tick`)."""

from bot.core.seasons.service import Seasons

__all__ = ["Seasons"]
