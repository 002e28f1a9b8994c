"""What a picture shows, as small explicit dataclasses independent of any engine.

Builders in `views.py` map an engine's `view()` dict to these scenes; renderers in `poker.py` and
`okey.py` turn a scene into PNG bytes. A scene checks itself when built: a bad card or tile name,
a seat number out of range or a negative amount raises ValueError (NotationError for names) with
a message that says which field is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.render.pictures.notation import parse_card, parse_tile

MAX_HAND_CARDS = 10
MAX_POKER_SEATS = 10
MAX_OKEY_SEATS = 4
PokerGame = Literal["turkish", "acik"]


def _check_cards(cards: tuple[str, ...]) -> None:
    for card in cards:
        parse_card(card)


def _check_tiles(tiles: tuple[str, ...]) -> None:
    for tile in tiles:
        parse_tile(tile)


def _check_seat(value: int | None, count: int, what: str) -> None:
    if value is not None and not 0 <= value < count:
        raise ValueError(f"{what} must be a seat number 0-{count - 1} or None, got {value}")


@dataclass(frozen=True)
class HandScene:
    """One player's private cards, left to right, with an optional caption (e.g. the hand name).

    The first `hole` cards are the ones only this player sees (Açık poker's down card); they get
    a blue frame so the player knows which card the table cannot see.
    """

    cards: tuple[str, ...]
    label: str | None = None
    hole: int = 0

    def __post_init__(self) -> None:
        if not 1 <= len(self.cards) <= MAX_HAND_CARDS:
            raise ValueError(f"a hand shows 1-{MAX_HAND_CARDS} cards, got {len(self.cards)}")
        if not 0 <= self.hole <= len(self.cards):
            raise ValueError(f"hole must be 0-{len(self.cards)}, got {self.hole}")
        _check_cards(self.cards)


@dataclass(frozen=True)
class PokerSeat:
    """One seat at a poker table as everyone may see it.

    `cards_up` are face-up cards (Açık poker's up cards, or a hand shown at showdown);
    `cards_down_count` face-down cards are drawn as backs before them. `stake` is the chips put in
    during this betting round; `hand_label` names the hand shown at showdown. `odds` is the
    seat's live chance of winning as a whole percentage (Açık poker's public odds, computed by
    the core from the public view), or None when the table shows no odds for the seat.
    """

    name: str
    stack: int
    stake: int = 0
    cards_up: tuple[str, ...] = ()
    cards_down_count: int = 0
    folded: bool = False
    all_in: bool = False
    winner: bool = False
    hand_label: str | None = None
    odds: int | None = None

    def __post_init__(self) -> None:
        if self.stack < 0 or self.stake < 0:
            raise ValueError(f"seat {self.name!r}: stack and stake must be >= 0")
        if self.cards_down_count < 0:
            raise ValueError(f"seat {self.name!r}: cards_down_count must be >= 0")
        if len(self.cards_up) + self.cards_down_count > MAX_HAND_CARDS:
            raise ValueError(f"seat {self.name!r}: at most {MAX_HAND_CARDS} cards")
        _check_cards(self.cards_up)
        if self.odds is not None and not 0 <= self.odds <= 100:
            raise ValueError(
                f"seat {self.name!r}: odds must be a percentage 0-100, got {self.odds}"
            )


@dataclass(frozen=True)
class PokerTableScene:
    """The public poker table: seats in seat order, the pot, whose turn, the dealer button and,
    at showdown, a caption such as the winning hand's name."""

    game: PokerGame
    seats: tuple[PokerSeat, ...]
    pot: int
    to_act: int | None = None
    dealer: int | None = None
    showdown_label: str | None = None

    def __post_init__(self) -> None:
        if self.game not in ("turkish", "acik"):
            raise ValueError(f"game must be 'turkish' or 'acik', got {self.game!r}")
        if not 1 <= len(self.seats) <= MAX_POKER_SEATS:
            raise ValueError(f"a poker table has 1-{MAX_POKER_SEATS} seats, got {len(self.seats)}")
        if self.pot < 0:
            raise ValueError("pot must be >= 0")
        _check_seat(self.to_act, len(self.seats), "to_act")
        _check_seat(self.dealer, len(self.seats), "dealer")


@dataclass(frozen=True)
class OkeyRackScene:
    """One player's rack: melds kept apart in order, then the loose tiles; `indicator` is the
    face-up tile and `okey` the wild tile's name (both copies are marked with a star)."""

    melds: tuple[tuple[str, ...], ...]
    loose: tuple[str, ...] = ()
    indicator: str | None = None
    okey: str | None = None

    def __post_init__(self) -> None:
        for meld in self.melds:
            if not meld:
                raise ValueError("a meld holds at least one tile")
            _check_tiles(meld)
        _check_tiles(self.loose)
        if self.indicator is not None:
            _check_tiles((self.indicator,))
        if self.okey is not None:
            _check_tiles((self.okey,))

    @property
    def tiles(self) -> tuple[str, ...]:
        """Every tile on the rack, in drawing order."""
        return tuple(t for meld in self.melds for t in meld) + self.loose


@dataclass(frozen=True)
class OkeyTableScene:
    """The public Okey table: seat names in play order, the top of each seat's discard pile (None
    for an empty pile), the stock count, the indicator, whose turn, score totals and tile counts.

    `score_word` names the totals: "penalty" (the penalty preset, lowest wins) or "points" (the
    classic preset, counting down from 20).
    """

    names: tuple[str, ...]
    discard_tops: tuple[str | None, ...]
    stock_count: int
    indicator: str | None = None
    to_act: int | None = None
    penalties: tuple[int, ...] | None = None
    hand_counts: tuple[int, ...] | None = None
    okey: str | None = None
    winner: int | None = None
    score_word: Literal["penalty", "points"] = "penalty"

    def __post_init__(self) -> None:
        n = len(self.names)
        if self.score_word not in ("penalty", "points"):
            raise ValueError(f"score_word must be 'penalty' or 'points', got {self.score_word!r}")
        if not 2 <= n <= MAX_OKEY_SEATS:
            raise ValueError(f"an Okey table has 2-{MAX_OKEY_SEATS} seats, got {n}")
        if len(self.discard_tops) != n:
            raise ValueError(
                f"discard_tops needs one entry per seat ({n}), got {len(self.discard_tops)}"
            )
        for name, values in (("penalties", self.penalties), ("hand_counts", self.hand_counts)):
            if values is not None and len(values) != n:
                raise ValueError(f"{name} needs one entry per seat ({n}), got {len(values)}")
        if self.hand_counts is not None and min(self.hand_counts) < 0:
            raise ValueError("hand_counts must be >= 0")
        if self.stock_count < 0:
            raise ValueError("stock_count must be >= 0")
        _check_tiles(tuple(t for t in self.discard_tops if t is not None))
        for tile in (self.indicator, self.okey):
            if tile is not None:
                _check_tiles((tile,))
        _check_seat(self.to_act, n, "to_act")
        _check_seat(self.winner, n, "winner")
