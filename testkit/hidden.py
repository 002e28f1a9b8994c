"""Twin tables for the hidden-information property tests (`test_core_hidden_*.py`).

A base table is played to some point once (prelude commands, then a few moves of a seeded random
player) on a real Store in an SQLite file. Each example copies that file twice; in the second
copy the table's stored snapshot is rewritten before a core starts on it (as after a restart):
the cards hidden from the asker are permuted, or some of the asker's own cards are swapped with
hidden ones. Both cores then get the same commands or presses and the answers are compared:

(a) only cards hidden from the asker differ: the asker and the channel get the same answers;
(b) the asker's own cards differ: when both refuse, the same refusal unless both are about the
    asker's own cards (`HIDDEN_REASONS`), and when both accept, the channel sees the same;
(c) every refusal is one ERROR item to the sender and changes nothing;
(d) no INFO log line of the core names a refusal reason from `HIDDEN_REASONS`.

Which hidden cards are permuted is chosen so that one step cannot legitimately show them to the
asker or the channel, except at a showdown, which is left out of the comparison: the top of the
stock is kept where the asker's own draw would take it (poker draw, Okey take), and Açık poker's
undealt cards stay in order (they are dealt face up).
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import random
import re
import shutil
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from copy import deepcopy
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.core.app import Core
from bot.core.errors import HIDDEN_REASONS
from bot.core.i18n import t
from bot.core.messages import Outgoing, OutKind, Press
from bot.core.table import ai
from games.okey import auto_action
from games.okey101 import ai as okey101_ai
from games.poker import PokerRules
from games.poker.cards import Card
from games.poker.turkish import MAX_DRAW, qualifies_to_open
from storage import Store
from testkit.drive import SHOWDOWN_HEADERS
from testkit.helpers import cmd, make_core

SPECTATOR = "zed"
BASE_SEED = "hidden-base"
TWIN_SEED = "hidden-twin"

_copies = itertools.count()  # names of the twins' database files

# Refusals about the asker's own cards: when the asker's own cards differ between the twins, two
# refusals may differ only when both are of these (each tells the asker about their own cards).
OWN_CARD_REFUSALS = tuple(sorted(HIDDEN_REASONS))


def _pattern(key: str) -> re.Pattern[str]:
    """A regex matching the English text of a catalogue key, any parameters filled in."""
    parts = re.split(r"\{[^}]*\}", t("en", key))
    return re.compile("^" + ".+".join(re.escape(p) for p in parts) + "$", re.S)


OWN_CARD_TEXTS = [_pattern(key) for key in OWN_CARD_REFUSALS]


def about_own_cards(text: str) -> bool:
    """True when a refusal text is one of `OWN_CARD_REFUSALS`."""
    return any(p.match(text) for p in OWN_CARD_TEXTS)


@dataclass(frozen=True)
class Base:
    """A saved table: its database file, the channel's users and who is seated."""

    path: Path
    game: str
    users: tuple[str, ...]


def poker_prelude(users: Sequence[str], game: str, *rules: str) -> list[str]:
    """The commands (`"user: /command"` lines) that open a poker table of `game` (ante 5, then
    `rules`), seat `users` with 150, 190, 230... chips and deal."""
    lines = [f"{users[0]}: /poker open {' '.join((game, '5', *rules))}"]
    lines += [f"{u}: /poker join {150 + 40 * i}" for i, u in enumerate(users)]
    return [*lines, f"{users[0]}: /poker start"]


def okey_prelude(users: Sequence[str], start: str) -> list[str]:
    """The commands that open an Okey table by `/okey start <start>`, seat `users` and deal."""
    lines = [f"{users[0]}: /okey start {start}"]
    lines += [f"{u}: /okey join" for u in users[1:]]
    return [*lines, f"{users[0]}: /okey begin"]


async def play_base(path: Path, game: str, prelude: list[str], moves: int, seed: int) -> Base:
    """Play `prelude` (`"user: /command"` lines) then up to `moves` random moves on a fresh
    database at `path`, and close it."""
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    try:
        core = make_core(store, seed=BASE_SEED)
        users: list[str] = []
        for line in prelude:
            user, _, text = line.partition(": ")
            out = await core.handle(cmd(user, text))
            assert not [o for o in out if o.kind is OutKind.ERROR], (line, out)
            if user not in users:
                users.append(user)
        rng = random.Random(seed)
        for _ in range(moves):
            session = table_session(core)
            if session is None or session.actor() is None:
                break
            user, text = random_move(session, rng)
            out = await core.handle(cmd(user, text))
            assert not [o for o in out if o.kind is OutKind.ERROR], (text, out)
    finally:
        await store.close()
    return Base(path, game, tuple(users))


class Bases:
    """The base tables of a test module, each played once (per game, moves and seed) and kept
    for every example: `prelude(game, seed)`, then the moves, in `<name>-<game>-<moves>-<seed>.db`
    of the first example's folder."""

    def __init__(
        self,
        name: str,
        prelude: Callable[[str, int], list[str]],
        moves: Sequence[int],
        seeds: Sequence[int],
    ) -> None:
        self.name = name
        self.prelude = prelude
        self.moves = moves
        self.seeds = seeds
        self._played: dict[tuple[str, int, int], Base] = {}

    async def draw(self, tmp: Path, game: str, data: Any) -> Base:
        """The base table of `game` at a number of moves and a seed drawn (in that order) from
        this module's."""
        moves = data.draw(st.sampled_from(self.moves), label="moves")
        seed = data.draw(st.sampled_from(self.seeds), label="seed")
        key = (game, moves, seed)
        if key not in self._played:
            path = tmp / f"{self.name}-{game}-{moves}-{seed}.db"
            self._played[key] = await play_base(path, game, self.prelude(game, seed), moves, seed)
        return self._played[key]


def run_examples(max_examples: int, check: Callable[[Any], Awaitable[None]]) -> None:
    """Run the async `check(data)` on `max_examples` Hypothesis examples (`st.data()`), each in
    an event loop of its own, with no deadline (an example plays tables on SQLite files)."""

    # wrapping `check`: Hypothesis derives the seed of a derandomized run (the CI profile) and
    # the example database's key from the test's source, so each caller keeps its own examples
    @settings(
        max_examples=max_examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(st.data())
    @functools.wraps(check)
    def run(data: Any) -> None:
        asyncio.run(check(data))

    run()


def okey101_line(action: Any) -> str:
    """A 101 move as the command that makes it (a discard that costs +101 confirmed)."""
    cards = " ".join(action.cards)
    if action.kind == "take":
        return "/okey take"
    if action.kind in ("open", "lay"):
        return f"/okey lay {cards}"
    if action.kind in ("add", "swap"):
        return f"/okey {action.kind} {cards} {(action.amount or 0) + 1}"
    if action.kind == "discard":
        return f"/okey discard {cards} confirm"
    return f"/okey finish {cards}"


def random_move(session: Any, rng: random.Random) -> tuple[str, str]:
    """A legal move of the seat to act (poker: random; Okey: the computer's), as a command."""
    if session.game == "okey101":
        game = session.match.round
        index = game.to_act()
        action = okey101_ai.choose_action(game, index, "easy", rng)
        user = session.seat_of(index).user_id
        return user, okey101_line(action)
    if session.group == "okey":
        game = session.match.round
        index = game.to_act()
        action = auto_action(game, index)
        user = session.seat_of(index).user_id
        if action.kind == "take":
            return user, f"/okey take {action.source}"
        if action.kind == "show_indicator":
            return user, "/okey show"
        return user, f"/okey {action.kind} {action.cards[0]}"
    index = session.engine.to_act()
    user = session.seat_of_engine(index).user_id
    if rng.random() < 0.5:
        action = ai.poker_move(session.engine, index, cautious=False)
        spec_kind, amount, cards = action.kind, action.amount, action.cards
    else:
        spec = rng.choice(session.engine.legal_actions(index))
        spec_kind, amount, cards = spec.kind, None, ()
        if spec.kind == "draw":
            hand = session.engine.view(index)["hand"]
            cards = tuple(rng.sample(hand, rng.randint(0, spec.max_cards or 0)))
        elif spec.min_amount is not None and spec.kind != "call":
            amount = rng.randint(spec.min_amount, spec.max_amount or spec.min_amount)
    if spec_kind == "draw":
        return user, ("/poker draw " + " ".join(cards)) if cards else "/poker pat"
    return user, f"/poker {spec_kind}" + ("" if amount is None else f" {amount}")


async def open_twin(
    base: Base, path: Path, change: Callable[[dict[str, Any]], bool] | None = None
) -> tuple[Store, Core] | None:
    """A core on a copy of the base database at `path`, started as after a restart. With
    `change`, the open table's stored snapshot is first rewritten by `change(snapshot)` (which
    returns False when it found nothing to change: then None, and nothing stays open)."""
    shutil.copyfile(base.path, path)
    store = await Store.open(f"sqlite+aiosqlite:///{path}", migrate=False)
    if change is not None:
        changed = False
        for record in await store.load_open_tables():
            snapshot = deepcopy(record.snapshot)
            if change(snapshot):
                await store.commit(record.id, record.version, snapshot)
                changed = True
        if not changed:
            await store.close()
            return None
    core = make_core(store, seed=TWIN_SEED)
    await core.start()
    return store, core


def table_session(core: Core) -> Any:
    """The session of the open table in channel c1 (else of a shared room under it: a
    tournament's table), or None."""
    live = core.tables.in_channel("test", "c1")
    if live is None:
        rooms = (t for t in core.tables.tables.values() if t.channel_id.startswith("c1#"))
        live = next((t for t in rooms if not t.closed), None)
    return None if live is None else live.session


# --- hidden cards -------------------------------------------------------------------------------

Slot = tuple[list[Any], int]  # a list and an index in it: where one card lies


def _slots(cards: list[Any], skip_tail: int = 0, skip_head: int = 0) -> list[Slot]:
    return [(cards, i) for i in range(skip_head, len(cards) - skip_tail)]


def shuffle_slots(slots: list[Slot], rng: random.Random) -> bool:
    """Permute the cards lying in `slots`; False when there are fewer than two."""
    if len(slots) < 2:
        return False
    cards = [where[i] for where, i in slots]
    rng.shuffle(cards)
    for (where, i), card in zip(slots, cards, strict=True):
        where[i] = card
    return True


def swap_own(own: list[Slot], hidden: list[Slot], rng: random.Random, every: bool) -> bool:
    """Swap some (`every`: as many as possible) of the asker's cards with cards hidden from
    them; False when impossible."""
    if not own or not hidden:
        return False
    most = min(len(own), len(hidden))
    count = most if every else rng.randint(1, most)
    for (a, i), (b, j) in zip(rng.sample(own, count), rng.sample(hidden, count), strict=True):
        a[i], b[j] = b[j], a[i]
    return True


def engine_seat(snapshot: dict[str, Any], player_id: int | None) -> int | None:
    """The asker's seat in the running hand or match, or None (a spectator, or not dealt in)."""
    seats = snapshot.get("in_hand", snapshot.get("staked", []))
    return seats.index(player_id) if player_id in seats else None


def hidden_slots(snapshot: dict[str, Any], seat: int | None) -> tuple[list[Slot], list[Slot]]:
    """(cards the asker at engine `seat` holds, cards hidden from them that may be permuted)."""
    if snapshot.get("match") is not None:
        game = snapshot["match"].get("round")
        if game is None or game["phase"] == "over":
            return [], []
        own = _slots(game["racks"][seat]) if seat is not None else []
        hidden = [s for j, r in enumerate(game["racks"]) if j != seat for s in _slots(r)]
        return own, hidden + _slots(game["stock"], skip_head=1)  # the next take stays
    engine = snapshot.get("engine")
    if engine is None:
        return [], []
    if engine["game"] == "acik":
        downs = engine["down"]
        slots = [(downs, j) for j, c in enumerate(downs) if c is not None]
        own = [s for s in slots if s[1] == seat]
        return own, [s for s in slots if s[1] != seat]
    hands = engine["hands"]
    own = _slots(hands[seat]) if seat is not None else []
    hidden = [s for j, h in enumerate(hands) if j != seat for s in _slots(h)]
    if engine["phase"] == "draw":  # a draw takes from the top of the stock, then the pile
        return own, hidden + _slots(engine["stock"], skip_tail=MAX_DRAW)
    return own, hidden + _slots(engine["stock"]) + _slots(engine["pile"])


def rewrite(
    player: int | None, move: Callable[[list[Slot], list[Slot]], bool]
) -> Callable[[dict[str, Any]], bool]:
    """A snapshot change for `open_twin`: `move(own, hidden)` on the slots of `player` (None: a
    spectator), then `refresh`; False when `move` found nothing to change."""

    def change(snapshot: dict[str, Any]) -> bool:
        own, hidden = hidden_slots(snapshot, engine_seat(snapshot, player))
        done = move(own, hidden)
        refresh(snapshot)
        return done

    return change


def refresh(snapshot: dict[str, Any]) -> None:
    """Recompute what the engine derives from the cards at the deal (Türk pokeri: openers)."""
    engine = snapshot.get("engine")
    if engine is not None and engine["game"] == "turkish" and engine["phase"] == "bet1":
        rules = PokerRules.from_dict(engine["rules"])
        engine["openers"] = [
            qualifies_to_open([Card.parse(c) for c in hand], rules) if hand else had
            for hand, had in zip(engine["hands"], engine["openers"], strict=True)
        ]


# --- comparing outputs --------------------------------------------------------------------------


def normalized(out: list[Outgoing]) -> list[Outgoing]:
    """`out` without the turn nonces (random per core) and the stored version the table message
    shows (a rewritten twin's store is one commit ahead; no reader sees it), so twins can be
    compared."""
    return [
        replace(
            item,
            version=None,
            buttons=tuple(tuple(replace(b, nonce="") for b in row) for row in item.buttons),
        )
        for item in out
    ]


def seen_by(out: list[Outgoing], user: str) -> list[Outgoing]:
    """What `user` and the channel see of `out`: public items and `user`'s own items."""
    return normalized(
        [o for o in out if o.kind in (OutKind.PUBLIC, OutKind.EDIT_TABLE) or o.user_id == user]
    )


def public(out: list[Outgoing]) -> list[Outgoing]:
    """The channel's part of `out`."""
    return normalized([o for o in out if o.kind in (OutKind.PUBLIC, OutKind.EDIT_TABLE)])


def showdown(out: list[Outgoing]) -> bool:
    """True when `out` shows cards down at a showdown (cards are public from then on)."""
    return any(
        line in SHOWDOWN_HEADERS
        for o in out
        if o.kind in (OutKind.PUBLIC, OutKind.EDIT_TABLE)
        for line in o.text.splitlines()
    )


def refused(out: list[Outgoing]) -> bool:
    """True when `out` is a refusal."""
    return any(o.kind is OutKind.ERROR for o in out)


def check_refusal_shape(out: list[Outgoing], user: str) -> None:
    """A refusal is one ERROR item, to the sender only (never public, never anyone else's)."""
    if refused(out):
        assert len(out) == 1, out
        assert out[0].kind is OutKind.ERROR and out[0].user_id == user, out
        assert out[0].channel_id is None and not out[0].buttons, out


# --- the property -------------------------------------------------------------------------------


async def send(core: Core, user: str, how: tuple[str, str, bool | None, tuple[str, ...]]) -> list:
    """Send one generated input: `("cmd", line, None, ())` or `("press", action, right nonce?,
    args)` (a press on the open table, with its current nonce or a wrong one)."""
    kind, line, right, args = how
    if kind == "cmd":
        return await core.handle(cmd(user, line))
    session = table_session(core)
    table = str(session.table_id) if session is not None else "999"
    return await core.press(
        Press(
            "test",
            "c1",
            user,
            user.capitalize(),
            table,
            line,
            session.nonce if right and session is not None else "000000",
            args,
            "en",
        )
    )


async def state(store: Store, core: Core) -> tuple[int, dict[str, Any]] | None:
    """The open table's stored version and its session's snapshot (None: no table)."""
    session = table_session(core)
    if session is None:
        return None
    return (await store.get_table(session.table_id)).version, session.to_dict()


async def check_twins(tmp: Path, saved: Base, data: Any, inputs: Any, steps: int = 8) -> None:
    """Draw a mode ("others": permute the cards hidden from the asker; "own": swap some of the
    asker's cards with hidden ones) and an asker (often the player to act), rewrite one twin,
    then send both twins the same inputs (drawn from `inputs(session, asker, cards)`) and check
    properties (a)-(c) of the module doc of the tests. Stops after the first accepted input:
    the next one would need new twins (e.g. a draw from a permuted stock)."""
    with logged("bot.core") as lines:
        await _check_twins(tmp, saved, data, inputs, steps)
    for line in lines:  # an INFO line never gives a reason that tells a player's cards
        assert not any(key.removeprefix("illegal.") in line for key in HIDDEN_REASONS), line


@contextmanager
def logged(name: str) -> Iterator[list[str]]:
    """The INFO (and louder) lines of logger `name` and its children while in the block."""
    lines: list[str] = []
    handler = logging.Handler(logging.INFO)
    handler.emit = lambda record: lines.append(record.getMessage())  # type: ignore[method-assign]
    logger = logging.getLogger(name)
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield lines
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


async def _check_twins(tmp: Path, saved: Base, data: Any, inputs: Any, steps: int) -> None:
    mode = data.draw(st.sampled_from(("others", "own")), label="mode")
    n = next(_copies)
    twin_a = await open_twin(saved, tmp / f"a{n}.db")
    assert twin_a is not None
    store_a, core_a = twin_a
    store_b: Store | None = None
    try:
        session = table_session(core_a)
        actor = None if session is None else session.actor()
        if actor is not None and data.draw(st.integers(0, 3), label="asker: 0 = anyone") > 0:
            asker = session.seats[actor].user_id
        else:
            asker = data.draw(st.sampled_from((*saved.users, SPECTATOR)), label="asker")
        seats = [] if session is None else session.seats
        player = next((s.player_id for s in seats if s.user_id == asker), None)
        rng = random.Random(data.draw(st.integers(0, 2**32), label="shuffle"))
        everything = data.draw(st.booleans(), label="swap all own cards")

        def move(own: list[Slot], hidden: list[Slot]) -> bool:
            if mode == "others":
                return shuffle_slots(hidden, rng)
            return swap_own(own, hidden, rng, everything)

        twin_b = await open_twin(saved, tmp / f"b{n}.db", rewrite(player, move))
        if twin_b is None:
            event("nothing hidden to change")
            return
        store_b, core_b = twin_b
        for _ in range(steps):
            session = table_session(core_a)
            hand_no = None if session is None else session.hand_no
            cards: list[str] = []
            for core in (core_a, core_b):
                twin = table_session(core)
                own = None if twin is None else engine_seat(twin.to_dict(), player)
                if own is not None:
                    cards += own_cards(twin, own)
            how = data.draw(inputs(session, asker, sorted(set(cards))), label="input")
            before_a, before_b = await state(store_a, core_a), await state(store_b, core_b)
            out_a = await send(core_a, asker, how)
            out_b = await send(core_b, asker, how)
            for out, store, core, before in (
                (out_a, store_a, core_a, before_a),
                (out_b, store_b, core_b, before_b),
            ):
                check_refusal_shape(out, asker)
                if refused(out):  # (c) a refusal changes nothing
                    assert await state(store, core) == before, (how, out)
            event(f"{mode}: {'refused' if refused(out_a) else 'accepted'}")
            if mode == "others":  # (a)
                assert refused(out_a) == refused(out_b), (how, out_a, out_b)
                if showdown(out_a) and showdown(out_b):
                    event("showdown left out")
                    return
                assert seen_by(out_a, asker) == seen_by(out_b, asker), how
            elif refused(out_a) and refused(out_b):  # (b)
                a, b = out_a[0].text, out_b[0].text
                assert a == b or (about_own_cards(a) and about_own_cards(b)), (how, a, b)
            elif not refused(out_a) and not refused(out_b):
                after_a, after_b = table_session(core_a), table_session(core_b)
                if computer_plays_for(after_a, player):
                    # the asker left or stood up: the computer now plays their own cards, so
                    # its moves (public) rightly differ with those cards
                    event("own: the computer plays for the asker")
                    return
                if same_hand(after_a, hand_no) and same_hand(after_b, hand_no):
                    assert public(out_a) == public(out_b), how
            if not (refused(out_a) and refused(out_b)):
                return
    finally:
        await store_a.close()
        if store_b is not None:
            await store_b.close()
        for name in (f"a{n}.db", f"b{n}.db"):
            (tmp / name).unlink(missing_ok=True)


@dataclass(frozen=True)
class ViewerTwins:
    """Twin cores of one base table, the cards hidden from `viewer` permuted in `b`'s; `table`
    is the open table's id and `seated` whether the viewer has a seat at it."""

    a: Core
    b: Core
    table: str
    viewer: str
    seated: bool


async def check_viewer_twins(
    tmp: Path,
    saved: Base,
    data: Any,
    check: Callable[[ViewerTwins], Awaitable[None]],
    *,
    hand_in_play: bool = False,
) -> None:
    """Draw a viewer (a user of `saved` or the spectator) and a shuffle, start twin a on
    `saved` and twin b with the cards hidden from the viewer permuted, and `check` them. When
    there is no open table (`hand_in_play`: no hand in play) or nothing hidden to permute, only
    an event says so; the twins are closed and their files removed after."""
    viewer = data.draw(st.sampled_from((*saved.users, SPECTATOR)), label="viewer")
    rng = random.Random(data.draw(st.integers(0, 2**32), label="shuffle"))
    n = next(_copies)
    names = (f"viewer-a{n}.db", f"viewer-b{n}.db")
    twin_a = await open_twin(saved, tmp / names[0])
    assert twin_a is not None
    store_a, core_a = twin_a
    try:
        session = table_session(core_a)
        if session is None or (hand_in_play and session.actor() is None):
            event("no hand in play" if hand_in_play else "no table")
            return
        seat = next((s for s in session.seats if s.user_id == viewer), None)
        player = None if seat is None else seat.player_id
        permute = rewrite(player, lambda _own, hidden: shuffle_slots(hidden, rng))
        twin_b = await open_twin(saved, tmp / names[1], permute)
        if twin_b is None:
            event("nothing hidden")
            return
        store_b, core_b = twin_b
        try:
            await check(
                ViewerTwins(core_a, core_b, str(session.table_id), viewer, seat is not None)
            )
        finally:
            await store_b.close()
    finally:
        await store_a.close()
        for name in names:
            (tmp / name).unlink(missing_ok=True)


def computer_plays_for(session: Any, player: int | None) -> bool:
    """True when the computer acts for `player`'s seat (they are leaving or away)."""
    seat = next((s for s in getattr(session, "seats", []) if s.player_id == player), None)
    return seat is not None and (seat.leaving or seat.away or seat.bot)


def same_hand(session: Any, hand_no: int | None) -> bool:
    """True when the same hand or round is still being played (no showdown, no round end)."""
    return session is not None and session.hand_no == hand_no and session.running()


def own_cards(session: Any, seat: int) -> list[str]:
    """The cards or tiles the player at engine `seat` holds."""
    if session.group == "okey":
        game = session.match.round if session.match is not None else None
        return [] if game is None else list(game.view(seat)["hand"])
    return list(session.engine.view(seat).get("hand", [])) if session.running() else []
