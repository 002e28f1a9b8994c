"""Poker sit-and-go tables (issue #19): whole tournaments of computer players through the table
service, with every committed step checked (tournament chips conserved, nothing from the ledger,
antes from the level the clock reached, eliminations in order, the snapshot round-tripping),
a restart mid-game playing on identically, leave = forfeit, and the refusals."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest

from bot.core.errors import Refusal
from bot.core.poker import sng
from bot.core.poker.session import PokerSession
from bot.core.poker.sng_table import SitAndGoSession
from bot.core.registry import sit_and_go
from bot.core.table import service as tables
from bot.core.table.session import Seat, Step, Who
from storage import escrow, wallet
from testkit.drive import hidden_cards, leaked, live_session, public_without_showdown
from testkit.helpers import START, Clock, cmd, errors, make_core, public_text
from testkit.stores import open_memory_store

CHIPS = 100
LEVEL_SECONDS = 20
TICK = 60  # seconds the clock moves between two batches of computer moves
BATCH = 20  # computer moves per batch (the table service's bound, lowered to move the clock)
TOURNAMENT = 7


class Checked:
    """Wraps `store.commit` to check every committed snapshot of one sit-and-go table."""

    def __init__(self, store, clock: Clock, entrants: int) -> None:
        self.clock = clock
        self.total = entrants * CHIPS
        self.snapshots: list[dict[str, Any]] = []
        self.antes: list[int] = []
        self.multi_busts = 0
        self.carried = 0  # hands dealt with a carried pot (Türk pokeri: nobody opened)
        original = store.commit

        async def commit(table_id, version, snapshot, **kw):
            self.check(table_id, snapshot, kw)
            return await original(table_id, version, snapshot, **kw)

        store.commit = commit

    def check(self, table_id: int, snapshot: dict[str, Any], kw: dict[str, Any]) -> None:
        assert list(kw.get("transfers", ())) == []  # the table never moves wallet chips
        session = PokerSession.from_dict(snapshot)
        assert isinstance(session, SitAndGoSession)
        assert session.to_dict() == snapshot  # a restart restores exactly this
        assert session.tournament_chips() == self.total
        if not session.running():  # between hands nobody sits without chips: they are out
            assert all(chips > 0 for chips in session.chips.values())
        before = self.snapshots[-1] if self.snapshots else None
        if before is not None and snapshot["hand_no"] > before["hand_no"]:
            assert session.started is not None
            level = sng.level_at(session.started, self.clock.now, LEVEL_SECONDS)
            assert session.level == level  # the ante comes from the level reached at the deal
            assert session.options["ante"] == sng.ante_for(level, CHIPS, None)
            self.antes.append(session.options["ante"])
        if before is not None:
            deals = kw["action"].action.get("deals", [])
            self.carried += sum(d["setup"]["options"]["carried_pot"] > 0 for d in deals)
            self._check_busts(f"{table_id}-{before['hand_no']}", before, snapshot, deals)
        self.snapshots.append(json.loads(json.dumps(snapshot)))

    def _check_busts(self, ended: str, before: dict, after: dict, deals: list[dict]) -> None:
        """Those out in one hand place by their chips at its deal, next places from the bottom
        (a step may end several hands: one all-in on the antes plays out at once)."""
        new = after["sng"]["out"][len(before["sng"]["out"]) :]
        stacks, players = {ended: before["start_stacks"]}, {ended: before["in_hand"]}
        for deal in deals:
            stacks[deal["hand"]] = deal["setup"]["stacks"]
            players[deal["hand"]] = [int(p) for p in deal["setup"]["players"]]
        alive = len(after["seats"]) + len(new)
        hands = [o["hand"] for o in new]
        for hand in dict.fromkeys(hands):
            group = [o for o in new if o["hand"] == hand]  # worst place first
            chips = dict(zip(players[hand], stacks[hand], strict=True))
            dealt = [chips[o["player"]] for o in group]
            assert dealt == sorted(dealt)  # more chips at the deal places higher
            assert [o["place"] for o in group] == list(range(alive, alive - len(group), -1))
            alive -= len(group)
            self.multi_busts += len(group) > 1


async def entrants_of(core, humans: tuple[str, ...], bots: int) -> list[Who]:
    """Who objects for human players `humans` and `bots` computer players."""
    out: list[Who] = []
    for user in humans:
        record = await core.accounts.record("test", user, user.capitalize())
        out.append(Who(record.id, user, record.name, "en"))
    for _ in range(bots):
        out.append(await core.accounts.computer({w.user_id for w in out}, "en"))
    return out


async def open_sng(core, clock, variant, entrants, channel="c1", **settings):
    """Open and start a sit-and-go table as the tournament service does."""
    host = await entrants_of(core, ("host",), 0)
    options = {
        "chips": CHIPS,
        "level_seconds": LEVEL_SECONDS,
        "bot_level": "easy",
        "rules": ["odds=off"] if variant == "acik" else [],  # Açık's live odds are slow
        **settings,
    }
    session, first = sit_and_go(variant, entrants, options, "en", core.config, clock(), TOURNAMENT)
    return await core.tables.open("test", channel, host[0], session, first)


async def play_out(core, clock, channel="c1", limit=2000, leaks=False) -> SitAndGoSession:
    """Tick until the table closes; the last session. `leaks` (Türk pokeri only, where no card
    is public before the showdown): no card of the running hand in any public text."""
    session = live_session(core, channel)
    for _ in range(limit):
        live = core.tables.in_channel("test", channel)
        if live is None:
            return session
        session = live.session
        out = await core.tick(clock.advance(TICK))
        if leaks:
            assert leaked(public_without_showdown(out), hidden_cards(live_session(core))) == []
    raise AssertionError("the sit-and-go did not finish")


@pytest.fixture(autouse=True)
def small_batches(monkeypatch):
    monkeypatch.setattr(tables, "MAX_AUTO_MOVES", BATCH)


CASES = [("turkish", n) for n in range(2, 6)] + [("acik", n) for n in range(2, 10)]


@pytest.mark.parametrize(("variant", "players"), CASES)
async def test_a_whole_sit_and_go_of_computers(memory_store, variant, players):
    clock = Clock()
    core = make_core(memory_store, seed=f"sng-{variant}-{players}", clock=clock)
    entrants = await entrants_of(core, (), players)
    balances = {w.player_id: await memory_store.balance(wallet(w.player_id)) for w in entrants}
    checked = Checked(memory_store, clock, players)
    out = await open_sng(core, clock, variant, entrants)
    table = int(out[0].table_id)
    assert "The sit-and-go begins" in public_text(out)
    final = await play_out(core, clock)

    result = final.outcome()
    assert result.finished
    ids = [w.player_id for w in entrants]
    assert sorted(result.order) == sorted(ids)  # every entrant ranked once
    winner = result.order[0]
    assert result.figures[winner] == {"chips": players * CHIPS}
    assert all(result.figures[p] == {"chips": 0} for p in result.order[1:])
    places = {o["player"]: o["place"] for o in final.out}
    assert [places[p] for p in result.order[1:]] == list(range(2, players + 1))
    assert checked.snapshots[-1]["phase"] == "closed"
    # the ledger never saw the tournament chips
    assert await memory_store.balance(escrow(table)) == 0
    for pid, balance in balances.items():
        assert await memory_store.balance(wallet(pid)) == balance
    assert await memory_store.audit() == []
    assert checked.antes == sorted(checked.antes)  # the ante only ever rises
    if players >= 4:
        assert checked.antes[-1] > checked.antes[0]


def test_antes_rise_with_the_injected_clock():
    """Directly on the session: the ante of a hand is the one of the level reached at its deal."""
    settings = {"chips": 1000, "level_seconds": 300, "antes": list(range(1, 10))}
    entrants = [_who(i) for i in range(1, 4)]
    session, first = sit_and_go("acik", entrants, settings, "en", None, START, 1)
    assert first == "start"
    session.table_id, session.now, session.seeds = 5, START, lambda hand: bytes(32)
    session.command(_who(1), "start", ())
    assert (session.level, session.options["ante"]) == (0, 1)
    for seconds, ante in {0: 1, 299: 1, 300: 2, 900: 4, 1500: 6, 2400: 9, 9000: 9}.items():
        session.now = START + timedelta(seconds=seconds)
        hand = session.hand_no
        while session.hand_no == hand:  # play the hand out: the next one is dealt now
            session.auto_move(session.actor(), afk=True)  # checks and folds: nobody busts
        assert session.options["ante"] == ante, seconds
        assert session.engine.view(None)["pot"] >= ante * 3


def _who(n: int) -> Who:
    return Who(n, f"bot-{n}", f"Bot {n}", "en")


def test_the_default_schedule_scales_with_the_starting_chips():
    assert [sng.default_ante(level, 1000) for level in range(12)] == [
        10, 15, 25, 40, 60, 100, 150, 250, 400, 600, 1000, 1500,
    ]  # fmt: skip
    assert [sng.default_ante(level, 100) for level in range(6)] == [1, 2, 3, 4, 6, 10]
    assert [sng.default_ante(level, 5000) for level in range(3)] == [50, 75, 125]
    assert sng.ante_for(7, 1000, [5, 10, 20]) == 20  # a schedule's last ante stays


def test_those_out_in_one_hand_take_the_next_places_from_the_bottom():
    entrants = [_who(i) for i in range(1, 6)]
    session, _ = sit_and_go("acik", entrants, {"chips": 100}, "en", None, START, 1)
    session.table_id, session.hand_no, session.button = 3, 9, 1  # Bot 2 dealt the hand
    session.chips.update({"2": 0, "4": 0, "5": 0})
    step = Step()
    session._eliminate([(1, 100), (2, 70), (3, 30), (4, 90), (5, 70)], bytes(32), step)
    places = {o["player"]: o["place"] for o in session.out}
    assert places[4] == 3 and sorted([places[2], places[5]]) == [4, 5]
    assert [o["place"] for o in session.out] == [5, 4, 3]  # kept in the order they went out
    assert {o["hand"] for o in session.out} == {"3-9"}
    assert [s.player_id for s in session.seats] == [1, 3]
    assert session.button == 0  # the next dealer is Bot 3, the next player after Bot 2
    announced = [line.params["name"] for note in step.notes for line in note.lines]
    assert announced[-1] == "Bot 4"  # worst place first
    assert session.outcome().order == [1, 3, *sorted(places, key=places.get)]


def test_players_busted_in_one_hand_place_by_their_chips_at_the_deal_then_a_fair_draw():
    seed = bytes(range(32))
    assert sng.bust_order([(1, 50), (2, 80), (3, 10)], seed) == [2, 1, 3]
    draws = {tuple(sng.bust_order([(1, 40), (2, 40)], bytes([k]) * 32)) for k in range(40)}
    assert draws == {(1, 2), (2, 1)}  # the draw can go either way ...
    again = sng.bust_order([(2, 40), (1, 40)], seed)
    assert again == sng.bust_order([(1, 40), (2, 40)], seed)  # ... and is the seed's alone
    assert sng.standing([(1, 30), (2, 70), (3, 30)], [9, 8]) == [2, 1, 3, 8, 9]


async def test_a_restart_mid_game_plays_on_identically():
    async def run(restart_at: int | None):
        store = await open_memory_store()
        clock = Clock()
        core = make_core(store, seed="sng-restart", clock=clock)
        entrants = await entrants_of(core, (), 6)
        await open_sng(core, clock, "acik", entrants)
        log: list[Any] = []
        for tick in range(2000):
            if core.tables.in_channel("test", "c1") is None:
                break
            if tick == restart_at:
                core = make_core(store, seed="sng-restart", clock=clock)
                await core.start()
                session = live_session(core)
                assert session is not None and session.running()
            snapshot = json.loads(json.dumps(live_session(core).to_dict()))
            log.append({**snapshot, "nonce": None})  # the nonce is random
            await core.tick(clock.advance(LEVEL_SECONDS))
        await store.close()
        return log

    plain = await run(None)
    restarted = await run(len(plain) // 2)
    assert len(plain) > 8
    assert restarted == plain


async def test_leave_is_a_forfeit_and_the_tournament_table_refuses_join_addbot_and_rules(
    memory_store,
):
    clock = Clock()
    core = make_core(memory_store, seed="sng-leave", clock=clock)
    entrants = await entrants_of(core, ("ayse", "can"), 1)
    balances = {w.player_id: await memory_store.balance(wallet(w.player_id)) for w in entrants}
    Checked(memory_store, clock, 3)
    await open_sng(core, clock, "turkish", entrants)
    live = core.tables.in_channel("test", "c1")

    for user, line, mod in (
        ("deniz", "/poker join 100", False),
        ("ayse", "/poker join", False),
        ("ayse", "/poker addbot", False),
        ("ayse", "/poker rules set twopair=heart", True),
    ):
        version = live.version
        out = await core.handle(cmd(user, line, mod=mod))
        assert errors(out), line
        assert live.version == version  # a refusal changes nothing
    assert "nobody can join" in errors(await core.handle(cmd("deniz", "/poker join")))[0]

    out = await core.handle(cmd("ayse", "/poker leave"))
    assert "Ayse forfeits" in public_text(out)
    session = live_session(core)
    assert session.find(entrants[0].player_id) is not None  # the seat stays
    assert "Ayse: " in public_text(out) and "forfeited" in public_text(out)
    for line in ("/poker back", "/poker leave", "/poker call", "/poker pass"):
        assert "You have forfeited" in errors(await core.handle(cmd("ayse", line)))[0]
    # a moderator's kick is a forfeit too; then the computer plays both seats to the end
    out = await core.handle(cmd("mod", "/table kick Can", mod=True))
    assert "Can forfeits" in public_text(out)
    final = await play_out(core, clock, leaks=True)

    result = final.outcome()
    assert result.finished and sorted(result.order) == sorted(w.player_id for w in entrants)
    for pid, balance in balances.items():
        assert await memory_store.balance(wallet(pid)) == balance  # nothing paid out
    assert await memory_store.audit() == []


async def test_the_tournament_service_way_open_then_start_match_and_forfeit(memory_store):
    """As `bot.core.tournament` drives its tables: seats built by the service, the table opened
    with nobody running a sub-command, then `start_match` and `forfeit` with no sender."""
    clock = Clock()
    core = make_core(memory_store, seed="sng-service", clock=clock)
    people = await entrants_of(core, ("ayse", "can"), 1)
    seats = [Seat(w.player_id, w.user_id, w.name, w.locale, bot=w.user_id == "bot-1")
             for w in people]  # fmt: skip
    session, _ = sit_and_go(
        "acik", seats, {"chips": 500, "level_seconds": 60}, "en", core.config, clock(), 9
    )
    assert [s.bot for s in session.seats] == [False, False, True]
    await core.tables.open("test", "c1", None, session, None)
    live = core.tables.in_channel("test", "c1")
    out = await core.tables.run(live, None, lambda s: s.start_match())
    assert "The sit-and-go begins" in public_text(out)
    with pytest.raises(Refusal):
        await core.tables.run(live, None, lambda s: s.start_match())
    ayse = people[0].player_id
    out = await core.tables.run(live, None, lambda s: s.forfeit(ayse))
    assert "Ayse forfeits" in public_text(out)
    with pytest.raises(Refusal):
        await core.tables.run(live, None, lambda s: s.forfeit(ayse))
    assert ayse in live_session(core).outcome().order


async def test_turkish_pots_nobody_opens_carry_and_the_table_still_finishes(memory_store):
    """Everyone forfeits, so the computer only ever passes: every pot carries, the antes eat
    the stacks, and the players all-in on the antes still reach a showdown."""
    clock = Clock()
    core = make_core(memory_store, seed="sng-carried", clock=clock)
    entrants = await entrants_of(core, ("ayse", "can", "ece"), 0)
    checked = Checked(memory_store, clock, 3)
    await open_sng(core, clock, "turkish", entrants)
    for user in ("ayse", "can", "ece"):
        assert "forfeits" in public_text(await core.handle(cmd(user, "/poker leave")))
    final = await play_out(core, clock, leaks=True)
    assert final.outcome().finished
    assert checked.carried >= 3  # and every chip of those pots stayed at the table


async def test_the_table_message_shows_the_ante_and_the_next_level(memory_store):
    clock = Clock()
    core = make_core(memory_store, seed="sng-message", clock=clock)
    entrants = await entrants_of(core, ("ayse", "can"), 0)
    out = await open_sng(core, clock, "turkish", entrants, chips=1000, level_seconds=300)
    assert "Level 1: ante 10 · next 15 in 5 min" in public_text(out)
    clock.advance(301)
    out = await core.handle(cmd("ayse", "/poker table"))
    assert "Level 1: ante 10 · 15 from the next hand" in public_text(out)
    session = live_session(core)
    assert session.outcome().finished is False
    assert sorted(session.outcome().order) == sorted(w.player_id for w in entrants)

    tr = make_core(memory_store, seed="sng-message-tr", clock=clock)
    people = await entrants_of(tr, ("ece", "ali"), 0)
    session, first = sit_and_go(
        "acik", people, {"chips": 1000, "level_seconds": 300}, "tr", tr.config, clock(), 8
    )
    out = await tr.tables.open("test", "c2", people[0], session, first)
    assert "Seviye 1: ante 10 · 5 dk sonra 15" in public_text(out)


@pytest.mark.parametrize(
    ("variant", "players", "settings", "reason"),
    [
        ("turkish", 6, {}, "seats 2 to 5"),
        ("acik", 1, {}, "seats 2 to 10"),
        ("acik", 3, {"chips": 0}, "starting chips"),
        ("acik", 3, {"level_seconds": 0}, "whole number of seconds"),
        ("acik", 3, {"antes": [0, 5]}, "ante schedule"),
        ("acik", 3, {"bot_level": "godlike"}, "computer level"),
    ],
)
def test_bad_sit_and_go_settings_are_refused(variant, players, settings, reason):
    from bot.core.i18n import t

    with pytest.raises(Refusal) as caught:
        sit_and_go(
            variant, [_who(i) for i in range(1, players + 1)], settings, "en", None, START, 1
        )
    assert reason in t("en", caught.value.key, **caught.value.params)
