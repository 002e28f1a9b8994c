"""What classic Okey and 101 Okey share on the engine protocol: the seating checks, the dealt
state, the snapshot and view fields, the move dispatch (`TileRound`), and a match's plumbing that
passes moves to its current round (`TileMatch`).

Both rounds hold players, options, the seed, the starter and the start draw, the indicator, the
racks, the stock, the discard piles, the seat to act and a phase ending in "over"; their own
fields and moves stay in `games/okey/round.py` and `games/okey101/round.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from copy import deepcopy
from typing import Any, ClassVar, Generic, Self, TypeVar

from games.base import Action, ActionSpec, Event, IllegalAction, private, public, seed_hash
from games.okey.tiles import okey_of

MIN_PLAYERS, MAX_PLAYERS = 2, 4
OVER = "over"
Handler = Callable[[int, Action], list[Event]]


def check_seating(players: Sequence[str], seed: object, game: str) -> tuple[list[str], bytes]:
    """The players (2-4, all different) and the 32-byte seed of a new round of `game` ("Okey",
    "101"); ValueError says what is wrong."""
    players = list(players)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"{game} is for {MIN_PLAYERS}-{MAX_PLAYERS} players, got {len(players)}")
    if len(set(players)) != len(players):
        raise ValueError(f"a player cannot sit twice at one {game} table")
    if not isinstance(seed, bytes | bytearray) or len(seed) != 32:
        raise ValueError("the seed must be 32 bytes")
    return players, bytes(seed)


def dealt_state(
    players: list[str],
    options: dict[str, Any],
    seed: bytes,
    deal: tuple[int, list[list[str]], list[list[str]], str, list[str]],
) -> dict[str, Any]:
    """The shared fields of a freshly dealt round (`deal` is `games.okey.round.deal`'s answer):
    empty discard piles, the starter to act."""
    starter, start_draw, racks, indicator, stock = deal
    return {
        "players": players,
        "options": options,
        "seed": seed.hex(),
        "starter": starter,
        "start_draw": start_draw,
        "indicator": indicator,
        "racks": racks,
        "stock": stock,
        "piles": [[] for _ in players],
        "turn": starter,
    }


class TileRound:
    """The state and protocol plumbing both Okey rounds share; subclasses add their own fields,
    moves and view, and set `GAME` (the snapshot's name) and `MOVES` (how a refusal names a move
    of the game)."""

    GAME: ClassVar[str]
    MOVES: ClassVar[str]

    def __init__(self, data: Mapping[str, Any]) -> None:
        """Load the shared fields from `to_dict` output."""
        self.players: list[str] = list(data["players"])
        self.options: dict[str, Any] = dict(data["options"])
        self.seed: bytes = bytes.fromhex(data["seed"])
        self.starter: int = data["starter"]
        self.start_draw: list[list[str]] = [list(d) for d in data["start_draw"]]
        self.indicator: str = data["indicator"]
        self.racks: list[list[str]] = [list(r) for r in data["racks"]]
        self.stock: list[str] = list(data["stock"])
        self.piles: list[list[str]] = [list(p) for p in data["piles"]]
        self.turn: int = data["turn"]
        self.phase: str = data["phase"]
        self.result: dict[str, Any] | None = deepcopy(data["result"])

    # --- the protocol's moves: each game's own -------------------------------------------------

    @classmethod
    def new(
        cls, players: Sequence[str], seed: bytes, options: Mapping[str, Any] | None = None
    ) -> Self:
        """Deal a round (each game deals its own)."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe snapshot (each game adds its own fields)."""
        raise NotImplementedError

    def legal_actions(self, seat: int) -> list[ActionSpec]:
        """The moves `seat` may make now."""
        raise NotImplementedError

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Make a move; IllegalAction leaves the round untouched."""
        raise NotImplementedError

    def view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may see."""
        raise NotImplementedError

    # --- shared ----------------------------------------------------------------------------------

    def _snapshot(self) -> dict[str, Any]:
        """The shared head of `to_dict`, in its order (the subclass adds its fields after)."""
        return {
            "game": self.GAME,
            "players": list(self.players),
            "options": dict(self.options),
            "seed": self.seed.hex(),
            "starter": self.starter,
            "start_draw": [list(d) for d in self.start_draw],
            "indicator": self.indicator,
            "racks": [list(r) for r in self.racks],
            "stock": list(self.stock),
            "piles": [list(p) for p in self.piles],
            "turn": self.turn,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """Rebuild a round from `to_dict` output."""
        return cls(data)

    def opening_events(self) -> list[Event]:
        """What to announce when the round is dealt: the public start, then each private rack."""
        events = [
            public(
                "round_started",
                starter=self.starter,
                start_draw=[list(d) for d in self.start_draw],
                indicator=self.indicator,
                okey=self.okey,
                stock=len(self.stock),
                seed_hash=seed_hash(self.seed),
            )
        ]
        events += [private(s, "rack", tiles=list(r)) for s, r in enumerate(self.racks)]
        return events

    @property
    def okey(self) -> str:
        """The wild tile of this round."""
        return okey_of(self.indicator)

    @property
    def finished(self) -> bool:
        """True once someone finished or the stock ran out."""
        return self.phase == OVER

    def to_act(self) -> int | None:
        """Seat to act now; None when the round is over."""
        return None if self.finished else self.turn

    def previous(self, seat: int) -> int:
        """The seat whose discards `seat` may take (with 2 players: the opponent)."""
        return (seat - 1) % len(self.players)

    def _dispatch(self, seat: int, action: Action, handlers: Mapping[str, Handler]) -> list[Event]:
        """`apply`'s shared checks, then the move's handler."""
        if self.finished:
            raise IllegalAction("round_over", "the round is over")
        if seat != self.turn:
            raise IllegalAction("not_your_turn", "it is not your turn", seat=self.turn)
        handler = handlers.get(action.kind)
        if handler is None:
            raise IllegalAction(
                "unknown_action", f"{action.kind!r} is not {self.MOVES}", kind=action.kind
            )
        return handler(seat, action)

    def _view_head(self, seat: int | None) -> dict[str, Any]:
        """The first fields of `view` (ValueError for a seat not at the table)."""
        if seat is not None and (
            not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.players)
        ):
            raise ValueError(f"no seat {seat} at this table")
        return {
            "game": self.GAME,
            "players": list(self.players),
            "options": dict(self.options),
            "starter": self.starter,
            "start_draw": [list(d) for d in self.start_draw],
            "indicator": self.indicator,
            "okey": self.okey,
        }

    def _view_tail(self, out: dict[str, Any]) -> dict[str, Any]:
        """The last public fields of `view`: the result, the seed hash, the seed once over."""
        out["result"] = deepcopy(self.result)
        out["seed_hash"] = seed_hash(self.seed)
        if self.finished:
            out["seed"] = self.seed.hex()
        return out


RoundT = TypeVar("RoundT", bound=TileRound)


class TileMatch(Generic[RoundT]):
    """A match's plumbing: players, options, the rounds played (`history`), the current round,
    and the protocol passed to that round. Subclasses set `round_type`, keep their totals, and
    say when the match is over (`finished`) and what a finished round adds (`_record`)."""

    round_type: type[RoundT]

    def __init__(self, data: Mapping[str, Any]) -> None:
        """Load the shared fields from `to_dict` output."""
        self.players: list[str] = list(data["players"])
        self.options: dict[str, Any] = dict(data["options"])
        self.history: list[dict[str, Any]] = deepcopy(list(data["history"]))
        current = data.get("round")
        self.round: RoundT | None = None if current is None else self.round_type.from_dict(current)

    @staticmethod
    def _seated(players: Sequence[str], game: str) -> list[str]:
        """The players of a new match of `game`: 2-4, all different (else ValueError)."""
        players = list(players)
        if not 2 <= len(players) <= 4 or len(set(players)) != len(players):
            raise ValueError(f"{game} match is for 2-4 different players")
        return players

    def _snapshot(self, game: str, scores: Mapping[str, list[int]]) -> dict[str, Any]:
        """`to_dict`: the shared fields with the subclass's running scores after the options."""
        return {
            "game": game,
            "players": list(self.players),
            "options": dict(self.options),
            **scores,
            "history": deepcopy(self.history),
            "round": None if self.round is None else self.round.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """Rebuild a match from `to_dict` output."""
        return cls(data)

    @property
    def finished(self) -> bool:
        """True when the match is over (and no round is being played)."""
        raise NotImplementedError

    def standing(self) -> list[int]:
        """Each seat's total as the match ranks it, lower is better (equal totals tie)."""
        raise NotImplementedError

    def seat_sides(self) -> list[int]:
        """Each seat's scoring side (partners share one); by default each seat is its own."""
        return list(range(len(self.players)))

    def places(self) -> list[int]:
        """Each seat's final place, 1 the best; tied seats share a place."""
        ranked = self.standing()
        return [1 + sum(1 for other in ranked if other < mine) for mine in ranked]

    @property
    def needs_round(self) -> bool:
        """True when the next round should be dealt with `start_round`."""
        return not self.finished and (self.round is None or self.round.finished)

    def _running_totals(self) -> list[int]:
        raise NotImplementedError

    def _record(self) -> list[Event]:
        raise NotImplementedError

    def start_round(self, seed: bytes) -> list[Event]:
        """Deal the next round from a fresh 32-byte seed; returns its opening events."""
        if not self.needs_round:
            raise ValueError("a round is being played or the match is over")
        self.round = round_ = self.round_type.new(self.players, seed, self.options)
        return [
            public("match_round", number=len(self.history) + 1, totals=self._running_totals()),
            *round_.opening_events(),
        ]

    def to_act(self) -> int | None:
        """Seat to act in the current round; None between rounds and at the end."""
        return None if self.round is None else self.round.to_act()

    def legal_actions(self, seat: int) -> list[ActionSpec]:
        """The current round's legal moves for `seat`."""
        return [] if self.round is None else self.round.legal_actions(seat)

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Play a move in the current round; the totals are updated when it ends."""
        if self.round is None or self.round.finished:
            raise IllegalAction("no_round", "no round is being played")
        events: list[Event] = self.round.apply(seat, action)
        if self.round.finished:
            events += self._record()
        return events

    def _view(self, seat: int | None, fields: Mapping[str, Any]) -> dict[str, Any]:
        """The current round's view with the match's `fields` over it; never a rack in
        `view(None)`."""
        out: dict[str, Any] = {} if self.round is None else self.round.view(seat)
        out.update(fields)
        out.setdefault("penalties", [0] * len(self.players))
        return out
