"""The engine protocol shared by every game: actions, action specs, events, errors and shuffles.

The names here are a contract (see DESIGN.md): the bot core, the storage layer and outside checks
rely on them. Engines are plain objects that follow the `Game` protocol; they never perform I/O.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable

T = TypeVar("T")

ACTION_KINDS = frozenset(
    {
        "check",
        "bet",
        "call",
        "raise",
        "fold",
        "open",
        "pass",
        "draw",
        "take",
        "discard",
        "finish",
        "show_indicator",
        # 101 Okey (games/okey101): melds laid after opening, a tile added to a meld on the
        # table, a tile put in a wild okey's place
        "lay",
        "add",
        "swap",
    }
)


@dataclass(frozen=True)
class Action:
    """One move a player makes.

    `amount` is the total a bet or raise brings the player's stake to in this betting round;
    `cards` names cards or tiles in notation; `source` is where an Okey `take` draws from.
    """

    kind: str
    amount: int | None = None
    cards: tuple[str, ...] = ()
    source: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-safe form of the action (for the action log)."""
        data: dict[str, Any] = {"kind": self.kind}
        if self.amount is not None:
            data["amount"] = self.amount
        if self.cards:
            data["cards"] = list(self.cards)
        if self.source is not None:
            data["source"] = self.source
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Action:
        """Rebuild an action from `to_dict` output."""
        return cls(
            kind=str(data["kind"]),
            amount=data.get("amount"),
            cards=tuple(data.get("cards", ())),
            source=data.get("source"),
        )


@dataclass(frozen=True)
class ActionSpec:
    """One kind of move the seat to act may make now, with its limits."""

    kind: str
    min_amount: int | None = None
    max_amount: int | None = None
    max_cards: int | None = None


class IllegalAction(Exception):
    """A move that is not allowed now; the game state is left exactly as it was.

    `code` is a stable key for translations, `params` fills the translated text, and `str()` is
    the English reason.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Event:
    """Something that happened in a game, addressed to an audience.

    `seat` is None for a public event (the whole channel may see it) or the seat number of the one
    player allowed to see it. `data` is JSON-safe.
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    seat: int | None = None

    @property
    def public(self) -> bool:
        """True when everyone at the table may see this event."""
        return self.seat is None

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-safe form of the event."""
        return {"kind": self.kind, "data": dict(self.data), "seat": self.seat}


def public(kind: str, **data: Any) -> Event:
    """Build a public event."""
    return Event(kind, data, None)


def private(seat: int, kind: str, **data: Any) -> Event:
    """Build an event only `seat` may see."""
    return Event(kind, data, seat)


@runtime_checkable
class Game(Protocol):
    """What every game engine offers the bot core (see DESIGN.md, "The engine protocol")."""

    players: list[str]

    def to_act(self) -> int | None:
        """Seat to act now; None when the game is finished."""
        ...

    def legal_actions(self, seat: int) -> list[ActionSpec]:
        """The moves `seat` may make now (empty when it is not their turn)."""
        ...

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Make a move; raises IllegalAction and leaves the state untouched when it is refused."""
        ...

    @property
    def finished(self) -> bool:
        """True once the hand or round is over."""
        ...

    def view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may see; None gives the public view, which never holds a hidden card."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe snapshot; `from_dict(to_dict())` plays on identically."""
        ...

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """Rebuild a game from a snapshot."""
        ...


# --- Fair shuffles -------------------------------------------------------------------------------

SEED_BYTES = 32


def new_seed() -> bytes:
    """Draw a fresh 32-byte server seed from the operating system's secure random source."""
    return secrets.token_bytes(SEED_BYTES)


def seed_hash(seed: bytes) -> str:
    """The commitment posted when a hand starts: hex sha256 of the seed."""
    return hashlib.sha256(seed).hexdigest()


def seed_from_hex(text: str) -> bytes:
    """Parse a hex seed (as stored in snapshots and shown by /verify)."""
    seed = bytes.fromhex(text)
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a seed has {SEED_BYTES} bytes, got {len(seed)}")
    return seed


class SeedStream:
    """A deterministic stream of random integers drawn from a seed and a context label.

    The stream is HMAC-SHA256(seed, context || counter) in blocks, so the same seed and context
    always give the same numbers on every machine and Python version.
    """

    def __init__(self, seed: bytes, context: str = "deal") -> None:
        self._key = seed
        self._context = context.encode()
        self._counter = 0
        self._buffer = b""

    def _bytes(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = hmac.new(
                self._key, self._context + b"|" + str(self._counter).encode(), hashlib.sha256
            ).digest()
            self._counter += 1
            self._buffer += block
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def randbelow(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        if n == 1:
            return 0
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = int.from_bytes(self._bytes(8), "big")
            if value < limit:
                return value % n


def shuffled(items: Sequence[T], seed: bytes, context: str = "deal") -> list[T]:
    """Return `items` in an order that is a pure function of `seed` and `context` (Fisher-Yates)."""
    out = list(items)
    stream = SeedStream(seed, context)
    for i in range(len(out) - 1, 0, -1):
        j = stream.randbelow(i + 1)
        out[i], out[j] = out[j], out[i]
    return out
