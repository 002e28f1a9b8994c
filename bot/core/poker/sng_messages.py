"""What a sit-and-go table says on top of any poker table: the ante level and the next one,
forfeited seats, the eliminated, and the sit-and-go's terms in its rules.

`SitAndGoMessages` is mixed into `bot.core.poker.sng_table.SitAndGoSession`, whose state it
reads.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from bot.core.poker.messages import PokerMessages
from bot.core.table.session import Msg, msg


class SitAndGoMessages(PokerMessages):
    """The sit-and-go table's lines (mixed into `SitAndGoSession`, before `PokerSession`)."""

    # the state of `SitAndGoSession` these are built from
    started: datetime | None
    level: int
    out: list[dict[str, Any]]
    forfeit_ids: list[int]

    if TYPE_CHECKING:  # provided by `SitAndGoSession`

        def _clock_level(self) -> int: ...

        def _ante(self, level: int) -> int: ...

    def table_lines(self) -> list[Msg]:
        """The poker table with the ante level and the next one, forfeited seats marked and
        the eliminated listed (no buy-in line: nobody buys in)."""
        lines = [line for line in super().table_lines() if line.key != "poker.idle"]
        seat_lines = [i for i, line in enumerate(lines) if line.key == "poker.seat"]
        for i, seat in zip(seat_lines, self.seats, strict=True):
            if seat.player_id in self.forfeit_ids:
                notes = [n for n in lines[i].params["notes"] if n.key != "seat.away"]
                lines[i] = msg(
                    "poker.seat", **{**lines[i].params, "notes": [*notes, msg("seat.forfeit")]}
                )
        level = self._level_line()
        if level is not None:
            lines.insert(1, level)
        if self.out:
            entries = [
                msg("sng.out_entry", name=o["name"], place=msg(f"ord.{o['place']}"))
                for o in reversed(self.out)
            ]
            lines.append(msg("sng.out_list", players=entries))
        return lines

    def _level_line(self) -> Msg | None:
        """`Level 2: ante 15 · next 25 in 3 min` (or from the next hand, once it is due)."""
        if self.started is None or self.phase == "closed":
            return None
        now = self._clock_level()
        ante = self.options["ante"]
        if now > self.level:
            return msg("sng.levels_due", level=self.level + 1, ante=ante, next=self._ante(now))
        seconds = self.options["level_seconds"]
        wait = (now + 1) * seconds - (self.now - self.started).total_seconds()
        return msg(
            "sng.levels",
            level=self.level + 1,
            ante=ante,
            next=self._ante(now + 1),
            wait=_duration(wait),
        )

    def rules_lines(self) -> list[Msg]:
        """The sit-and-go's terms (chips, level length, the first antes), then the game's rules
        and house rules as at any poker table."""
        schedule = ", ".join(str(self._ante(level)) for level in range(6))
        terms = msg(
            "sng.rules",
            game=msg(f"game.{self.game}"),
            chips=self.options["chips"],
            wait=_duration(self.options["level_seconds"]),
            schedule=schedule,
            structure=msg(f"structure.{self.options['structure']}"),
            players=len(self.seats) + len(self.out),
        )
        return [terms, *super().rules_lines()[1:]]


def _duration(seconds: float) -> Msg:
    """A wait in words: whole minutes (rounded up) from a minute on, else seconds."""
    whole = max(0, int(-(-seconds // 1)))
    if whole >= 60:
        return msg("sng.minutes", n=-(-whole // 60))
    return msg("sng.seconds", n=whole)
