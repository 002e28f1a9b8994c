"""The words a 101 player types: move words, tile names (`r5`), melds separated by `/`, and the
meld numbers the table message shows, turned into a `Request` the session resolves into the
engine's `Action` (a request such as "open with my best melds" needs the rack, which the session
holds). What is refused says why, in the player's language.

    /okey take                      draw from the stock
    /okey take discard [melds]      take the previous discard with the move that uses it
    /okey lay                       open (or lay) with the best melds the solver finds
    /okey lay pairs                 open (or lay) with pairs
    /okey lay R9 R10 R11 / K7 B7 Y7 open or lay these melds (`open` is a word for it too)
    /okey add R5 3                  add R5 to meld 3 of the table (`/okey add K4 R4 3`: a wild as R4)
    /okey swap R5 3                 put R5 in the place of meld 3's okey, the okey to the rack
    /okey discard R5 [confirm]      discard; `confirm` accepts the +101 a warned discard costs
    /okey finish R5                 discard the last tile

`Okey101Words` is mixed into `bot.core.okey101.session.Okey101Session`.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.commands import TAKE_SOURCES, fold, lookup, parse_int
from bot.core.errors import Refusal
from bot.core.okey.words import tile_word
from bot.core.table.session import TableSession
from games.okey101.round import SEPARATOR

OKEY101_SUBS = ("take", "lay", "add", "swap", "discard", "finish", "show")
BEST_WORDS = ("best", "eniyi", "otomatik", "auto")
PAIR_WORDS = ("pairs", "pair", "çift", "çiftler", "cift", "ciftler")
CONFIRM_WORDS = ("confirm", "yes", "onay", "onayla", "evet", "!")


@dataclass(frozen=True)
class Request:
    """A move as typed: `kind` is `take`, `lay` (open or lay), `add`, `swap`, `discard` or
    `finish`; `how` for `lay`: `best`, `pairs` or `given` (the `tiles`, melds split by "/");
    `source` `discard` when the previous discard is taken with the move; `meld` the table's
    meld index (0-based) for `add`/`swap`; `confirm` for a discard the player accepts to pay
    +101 for."""

    kind: str
    tiles: tuple[str, ...] = ()
    how: str = "given"
    source: str | None = None
    meld: int | None = None
    confirm: bool = False


def split_melds(args: tuple[str, ...]) -> tuple[str, ...]:
    """Typed tiles with "/" between melds (attached or not) as tile names and separators."""
    spaced = " ".join(args).replace(SEPARATOR, f" {SEPARATOR} ")
    return tuple(w if w == SEPARATOR else tile_word(w) for w in spaced.split())


def _meld_number(word: str) -> int:
    """A meld's number as the table shows it (1, 2, ...) -> its index; a refusal otherwise."""
    number = parse_int(word)
    if number is None or number < 1:
        raise Refusal("err.okey101_meld_number", word=word[:10])
    return number - 1


def _lay_request(args: tuple[str, ...], source: str | None) -> Request:
    if not args or (len(args) == 1 and fold(args[0]) in BEST_WORDS):
        return Request("lay", how="best", source=source)
    if len(args) == 1 and fold(args[0]) in PAIR_WORDS:
        return Request("lay", how="pairs", source=source)
    return Request("lay", tiles=split_melds(args), source=source)


class Okey101Words(TableSession):
    """A 101 move from its words (mixed into `Okey101Session`)."""

    def _request(self, sub: str, args: tuple[str, ...]) -> Request:
        if sub == "show":
            raise Refusal("err.okey101_no_show")
        if sub == "take":
            source = lookup(TAKE_SOURCES, args[0]) if args else "stock"
            if source is None or (source == "stock" and len(args) > 1):
                raise Refusal("err.okey101_take_usage")
            if source == "stock":
                return Request("take")
            return _lay_request(args[1:], "discard")
        if sub in ("lay", "start"):
            return _lay_request(args, None)
        if sub in ("add", "swap"):
            if len(args) not in ((2, 3) if sub == "add" else (2,)):
                raise Refusal(f"err.okey101_{sub}_usage")
            tiles = tuple(tile_word(w) for w in args[:-1])
            return Request(sub, tiles=tiles, meld=_meld_number(args[-1]))
        if sub == "discard" and len(args) == 2 and fold(args[1]) in CONFIRM_WORDS:
            return Request("discard", tiles=(tile_word(args[0]),), confirm=True)
        if len(args) != 1:
            raise Refusal("err.tile_usage", action=sub)
        return Request(sub, tiles=(tile_word(args[0]),))
