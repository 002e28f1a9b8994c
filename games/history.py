"""Hand histories: play a finished hand or Okey round again from its seed and its moves, write it
as a JSON Lines export seen by one player, and read such an export back and check it.

Pure logic, like the engines: no I/O. The format (docs/history.md): the first line is a header
`{"format": "turkish-table-history", "version": 2, ...}` holding the hand's `setup` (what the
engine was dealt with), its seed and the hash posted when it started; then one line per event,
in order: `{"type": "event", "step": n, "seat": s | null, "kind": ..., "data": {...}}` (step 0 is
the deal) and `{"type": "move", "step": n, "seat": s, "action": {...}}` before the events a move
caused; the last line is `{"type": "end", "steps": n, "result": {...}}`.

An export holds what its viewer may see: every public event, the viewer's own private events,
and every move, except the cards another player exchanged in a Türk pokeri draw (written as
`{"kind": "draw", "count": k}`). `check` rebuilds the game from the seed and the moves; for a
hidden draw it tries the player's possible discards and keeps one whose visible events are the
recorded ones (any such choice shows the viewer the same game).

Version 2 events carry codes only (a showdown hand's `category`, which the bot names in the
player's language). Version 1 files also hold each showdown hand's names (`name`, `name_tr`) and,
in Türk pokeri, no `category`; `check` still reads them and compares everything but those names.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.base import Action, Event, IllegalAction, seed_from_hex, seed_hash
from games.okey import OkeyRound
from games.okey101 import Round101
from games.poker import acik, turkish

FORMAT = "turkish-table-history"
VERSION = 2
VERSIONS = (1, 2)  # the versions `read` and `check` accept
GAMES = ("turkish", "acik", "okey", "okey101")


class HistoryError(ValueError):
    """An export that cannot be read, or a hand that cannot be played again from its record."""


@dataclass(frozen=True)
class Setup:
    """What a hand or round was dealt with, besides its seed.

    `players` are the engine's player ids in seat order and `names` their display names. Poker:
    `stacks`, `dealer`, `rules` (the ranking rules) and `options` (the engine's keywords: ante,
    structure, carried_pot and the house options). Okey and 101 Okey: `options` are the match
    options.
    """

    game: str
    players: tuple[str, ...]
    names: tuple[str, ...]
    stacks: tuple[int, ...] = ()
    dealer: int = 0
    rules: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form (the export header's `setup`, the action log's deal record)."""
        return {
            "game": self.game,
            "players": list(self.players),
            "names": list(self.names),
            "stacks": list(self.stacks),
            "dealer": self.dealer,
            "rules": dict(self.rules),
            "options": dict(self.options),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Setup:
        """Rebuild a setup from `to_dict` output; `HistoryError` when it is not one."""
        try:
            game = str(data["game"])
            if game not in GAMES:
                raise HistoryError(f"unknown game {game!r}")
            return cls(
                game=game,
                players=tuple(str(p) for p in data["players"]),
                names=tuple(str(n) for n in data["names"]),
                stacks=tuple(int(s) for s in data.get("stacks", ())),
                dealer=int(data.get("dealer", 0)),
                rules=dict(data.get("rules") or {}),
                options=dict(data.get("options") or {}),
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, HistoryError):
                raise
            raise HistoryError(f"bad setup: {exc}") from None


@dataclass(frozen=True)
class Step:
    """One step of a played hand: the deal (`seat` and `action` None) or one move, with every
    event it caused (public and private)."""

    seat: int | None
    action: Action | None
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Played:
    """A hand played again: its steps and the engine at the end."""

    setup: Setup
    steps: tuple[Step, ...]
    engine: Any

    @property
    def result(self) -> dict[str, Any]:
        """The public outcome: poker `stacks`, `pot` and `carried`; Okey `penalties`."""
        view = self.engine.view(None)
        if self.setup.game in ("okey", "okey101"):
            return {"penalties": list(view["penalties"])}
        return {"stacks": list(view["stacks"]), "pot": view["pot"], "carried": view["carried"]}


def deal(setup: Setup, seed: bytes) -> tuple[Any, list[Event]]:
    """A fresh engine for `setup` and `seed`, and the deal's events."""
    if setup.game == "okey":
        game = OkeyRound.new(list(setup.players), seed, setup.options)
        return game, game.opening_events()
    if setup.game == "okey101":
        round101 = Round101.new(list(setup.players), seed, setup.options)
        return round101, round101.opening_events()
    module = turkish if setup.game == "turkish" else acik
    hand = module.new(
        list(setup.players),
        list(setup.stacks),
        setup.rules,
        seed,
        setup.dealer,
        **setup.options,
    )
    return hand, hand.initial_events()


def play(setup: Setup, seed: bytes, moves: Sequence[tuple[int, Action]]) -> Played:
    """Deal from `seed` and apply `moves` until the hand is over; moves left over are ignored
    (the caller may pass everything logged after the deal). `HistoryError` when a move is
    refused or the moves end before the hand does."""
    engine, events = deal(setup, seed)
    steps = [Step(None, None, tuple(events))]
    for seat, action in moves:
        if engine.finished:
            break
        try:
            steps.append(Step(seat, action, tuple(engine.apply(seat, action))))
        except IllegalAction as exc:
            raise HistoryError(f"move {len(steps)} refused: {exc.code}") from None
    if not engine.finished:
        raise HistoryError("the moves end before the hand does")
    return Played(setup, tuple(steps), engine)


def visible(event: Event, viewer: int | None) -> bool:
    """Whether `viewer` (an engine seat, or None for someone who did not play) sees `event`."""
    return event.seat is None or event.seat == viewer


def shown_action(action: Action, seat: int, viewer: int | None) -> dict[str, Any]:
    """A move as `viewer` may see it: the cards another player exchanged in a draw are left
    out (their number stays)."""
    data = action.to_dict()
    if action.kind == "draw" and seat != viewer:
        return {"kind": "draw", "count": len(action.cards)}
    return data


def _json(value: Any) -> Any:
    """`value` as it reads back from JSON (tuples become lists)."""
    return json.loads(json.dumps(value))


def event_line(step: int, event: Event) -> dict[str, Any]:
    """The export line of an event."""
    return {
        "type": "event",
        "step": step,
        "seat": event.seat,
        "kind": event.kind,
        "data": _json(event.data),
    }


def export(
    played: Played, seed: bytes, viewer: int | None, *, sealed: bool = False, **meta: Any
) -> str:
    """The hand as `viewer` may see it, in the JSON Lines format; `meta` goes into the header
    (hand id, table, date...). `sealed`: the seed is not shown yet (docs/fairness.md): the
    header's `seed` is null and the events' copies of it are left out."""
    header = {
        "format": FORMAT,
        "version": VERSION,
        **_json(meta),
        "game": played.setup.game,
        "setup": played.setup.to_dict(),
        "seed_hash": seed_hash(seed),
        "seed": None if sealed else seed.hex(),
        "viewer": viewer,
    }
    lines = [header]
    for n, step in enumerate(played.steps):
        if step.action is not None and step.seat is not None:
            action = shown_action(step.action, step.seat, viewer)
            lines.append({"type": "move", "step": n, "seat": step.seat, "action": action})
        for event in step.events:
            if visible(event, viewer):
                line = event_line(n, event)
                if sealed:
                    line["data"].pop("seed", None)  # a poker hand's end names its seed
                lines.append(line)
    lines.append({"type": "end", "steps": len(played.steps) - 1, "result": played.result})
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


@dataclass(frozen=True)
class History:
    """An export read back: its header, the moves in order (each with the recorded visible
    events it caused) and the recorded result."""

    header: dict[str, Any]
    setup: Setup
    seed: bytes | None  # None: a sealed export (the seed was not shown yet)
    viewer: int | None
    deal_events: tuple[dict[str, Any], ...]
    moves: tuple[tuple[int, dict[str, Any], tuple[dict[str, Any], ...]], ...]
    result: dict[str, Any]

    @property
    def version(self) -> int:
        """The format version the file was written in (one of `VERSIONS`)."""
        return int(self.header["version"])


def read(text: str) -> History:
    """Parse an export; `HistoryError` when it is not one this reader knows."""
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            raise HistoryError(f"line {number} is not JSON") from None
        if not isinstance(row, dict):
            raise HistoryError(f"line {number} is not an object")
        rows.append(row)
    if not rows or rows[0].get("format") != FORMAT:
        raise HistoryError("not a turkish-table-history file")
    header = rows[0]
    if header.get("version") not in VERSIONS:
        raise HistoryError(f"unknown version {header.get('version')!r}")
    if not rows[-1:] or rows[-1].get("type") != "end":
        raise HistoryError("the file has no end line")
    try:
        seed = None if header["seed"] is None else seed_from_hex(str(header["seed"]))
        viewer = header.get("viewer")
        setup = Setup.from_dict(header["setup"])
    except (KeyError, ValueError) as exc:
        raise HistoryError(f"bad header: {exc}") from None
    deal_events: list[dict[str, Any]] = []
    moves: list[tuple[int, dict[str, Any], list[dict[str, Any]]]] = []
    for row in rows[1:-1]:
        kind = row.get("type")
        if kind == "move":
            moves.append((int(row["seat"]), dict(row["action"]), []))
        elif kind == "event":
            item = {"seat": row.get("seat"), "kind": row.get("kind"), "data": row.get("data")}
            (moves[-1][2] if moves else deal_events).append(item)
        else:
            raise HistoryError(f"unknown line type {kind!r}")
    return History(
        header=header,
        setup=setup,
        seed=seed,
        viewer=viewer if isinstance(viewer, int) else None,
        deal_events=tuple(deal_events),
        moves=tuple((s, a, tuple(e)) for s, a, e in moves),
        result=dict(rows[-1].get("result") or {}),
    )


@dataclass(frozen=True)
class Check:
    """What `check` found: `seed_ok` (the seed hashes to the posted hash), `ok` (that, and the
    game rebuilt from the seed and the moves shows exactly the recorded events and result), the
    rebuilt hand when it could be played, and the problems found."""

    seed_ok: bool
    ok: bool
    played: Played | None
    problems: tuple[str, ...]


def _seen(events: Sequence[Event], viewer: int | None) -> list[dict[str, Any]]:
    return [
        {"seat": e.seat, "kind": e.kind, "data": _json(e.data)}
        for e in events
        if visible(e, viewer)
    ]


# What a version 1 file wrote in each showdown hand that version 2 does not (the names), and
# what it lacked, by game (Türk pokeri's hands had no category code).
_V1_NAMES = ("name", "name_tr")
_V1_LACKED = {"turkish": ("category",)}


def _without(event: dict[str, Any], keys: Sequence[str]) -> dict[str, Any]:
    """`event` (a line's seat, kind and data) with `keys` left out of each showdown hand."""
    data = event.get("data")
    if event.get("kind") != "showdown" or not isinstance(data, dict) or not keys:
        return event
    hands = data.get("hands")
    if not isinstance(hands, list):
        return event
    kept = [
        {k: v for k, v in h.items() if k not in keys} if isinstance(h, dict) else h for h in hands
    ]
    return {**event, "data": {**data, "hands": kept}}


def _same(events: Sequence[Event], recorded: Sequence[dict[str, Any]], history: History) -> bool:
    """True when the rebuilt `events` show the export's viewer exactly the `recorded` ones; in a
    version 1 file the showdown hands' names are left out of the comparison, the rest must match."""
    seen = _seen(events, history.viewer)
    if history.version == 1:
        lacked = _V1_LACKED.get(history.setup.game, ())
        seen = [_without(e, lacked) for e in seen]
        recorded = [_without(e, _V1_NAMES) for e in recorded]
    return seen == list(recorded)


def _copy(engine: Any) -> Any:
    return type(engine).from_dict(_json(engine.to_dict()))


def _choices(engine: Any, seat: int, action: dict[str, Any]) -> Iterator[Action]:
    """The actions a recorded move may stand for: itself, or for a hidden draw every way of
    exchanging that many cards of the seat's hand."""
    if action.get("kind") == "draw" and "count" in action and "cards" not in action:
        hand = engine.view(seat)["hand"]
        for cards in itertools.combinations(hand, int(action["count"])):
            yield Action("draw", cards=tuple(cards))
        return
    yield Action.from_dict(action)


def _rebuild(
    engine: Any, history: History, index: int, steps: list[Step]
) -> tuple[Any, list[Step]] | None:
    """Apply moves `index`... to `engine` (changing it), searching depth first over the hidden
    draws; the engine at the end and the steps, or None when no choice reproduces the recorded
    events."""
    while index < len(history.moves):
        seat, action, recorded = history.moves[index]
        choices = list(_choices(engine, seat, action))
        if len(choices) > 1:
            for choice in choices:
                trial = _copy(engine)
                try:
                    events = trial.apply(seat, choice)
                except IllegalAction:
                    continue
                if not _same(events, recorded, history):
                    continue
                step = Step(seat, choice, tuple(events))
                found = _rebuild(trial, history, index + 1, [*steps, step])
                if found is not None:
                    return found
            return None
        try:
            events = engine.apply(seat, choices[0])
        except IllegalAction:
            return None
        if not _same(events, recorded, history):
            return None
        steps.append(Step(seat, choices[0], tuple(events)))
        index += 1
    return engine, steps


def check(history: History, posted_hash: str | None = None) -> Check:
    """Rebuild the game of an export from its seed and moves and compare it with what the
    export recorded; `posted_hash` (e.g. the hash the bot posted when the hand started) is
    checked too when given, else the header's `seed_hash`."""
    problems: list[str] = []
    if history.seed is None:
        return Check(False, False, None, ("the seed is not shown yet: /verify proves the cards",))
    want = (posted_hash or str(history.header.get("seed_hash", ""))).lower()
    seed_ok = seed_hash(history.seed) == want
    if not seed_ok:
        problems.append("the seed does not hash to the posted hash")
    try:
        engine, events = deal(history.setup, history.seed)
    except (IllegalAction, ValueError, TypeError) as exc:
        return Check(seed_ok, False, None, (*problems, f"cannot deal: {exc}"))
    if not _same(events, history.deal_events, history):
        problems.append("the deal differs from the seed's deal")
    found = _rebuild(engine, history, 0, [Step(None, None, tuple(events))])
    if found is None:
        problems.append("the moves do not reproduce the recorded events")
        return Check(seed_ok, False, None, tuple(problems))
    played = Played(history.setup, tuple(found[1]), found[0])
    if not played.engine.finished:
        problems.append("the moves end before the hand does")
    elif _json(played.result) != history.result:
        problems.append("the result differs")
    return Check(seed_ok, not problems, played, tuple(problems))
