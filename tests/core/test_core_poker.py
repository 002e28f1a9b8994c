"""Türk pokeri through the core: a scripted game on SQLite, every kind of refusal, timers, leaving,
moderator reset and kick, verify, and a restart in the middle of a hand that resumes exactly."""

from __future__ import annotations

import pytest

from bot.core.config import STARTING_GRANT
from bot.core.messages import OutKind
from bot.core.table.fairness import SeededSource
from storage import Store, escrow, wallet
from testkit.drive import ai_move, live_session, press_move
from testkit.helpers import (
    Clock,
    cmd,
    errors,
    last_buttons,
    make_core,
    press,
    private_to,
    public_text,
)
from testkit.sealing import close_and_reveal, reach_reveal


async def seat_two(core, buy_in: int = 200) -> list:
    out = await core.handle(cmd("ayse", "/poker open turkish 10"))
    out += await core.handle(cmd("ayse", f"/poker join {buy_in}"))
    out += await core.handle(cmd("mehmet", f"/poker katıl {buy_in}"))
    return out


async def check_chips(store, core) -> None:
    """The escrow holds exactly the table's chips and the ledger is sound."""
    session = live_session(core)
    if session is not None:
        assert await store.balance(escrow(session.table_id)) == session.held()
    assert await store.audit() == []


async def test_scripted_game_with_buttons(store):
    core = make_core(store, seed="scripted")
    out = await seat_two(core)
    out = await core.handle(cmd("mehmet", "/poker start"))
    session = live_session(core)
    table = session.table_id
    assert "Shuffle hash" in public_text(out)
    for user in ("ayse", "mehmet"):
        [cards] = private_to(out, user)
        assert cards.startswith(f"Hand {table}-1 · Your cards:")
    moves = 0
    while session.hand_no < 4 and moves < 200:
        if session.actor() is None:
            break
        out = await press_move(core, out, session)
        assert not errors(out), errors(out)
        session = live_session(core)
        moves += 1
        await check_chips(store, core)
    assert session.hand_no >= 4
    # while the table is open a finished hand's seed stays sealed: /verify proves privately
    seed = await store.seed("1-1")
    sealed = await core.handle(cmd("ayse", "/verify 1-1"))
    assert sealed[0].kind is OutKind.PRIVATE and seed.seed_hex not in sealed[0].text
    running = await core.handle(cmd("ayse", f"/verify {table}-{session.hand_no}"))
    assert "still being played" in errors(running)[0]
    log = await store.actions(table)
    assert log[0].action == {"kind": "buy_in", "amount": 200}
    assert len(log) >= moves + 3
    # leaving between or during hands pays every chip back
    out = await core.handle(cmd("ayse", "/poker leave"))
    out += await core.handle(cmd("mehmet", "/poker leave"))
    while live_session(core) is not None and live_session(core).actor() is not None:
        out = await press_move(core, out, live_session(core))
    assert live_session(core) is None
    # every finished hand's seed is revealed and verifiable once the table closed long enough
    await reach_reveal(core, table)
    verify = await core.handle(cmd("ayse", "/verify 1-1"))
    assert "sha256(seed) matches the posted hash" in verify[0].text
    assert "Ayse was dealt:" in verify[0].text
    assert seed.seed_hex in verify[0].text
    assert await store.balance(escrow(table)) == 0
    ayse = await store.player("test", "ayse", "Ayse")
    mehmet = await store.player("test", "mehmet", "Mehmet")
    total = await store.balance(wallet(ayse.id)) + await store.balance(wallet(mehmet.id))
    assert total == 2 * STARTING_GRANT
    assert await store.audit() == []


async def test_carried_pot_moves_the_dealer(store):
    core = make_core(store, seed="carry")
    await seat_two(core)
    await core.handle(cmd("ayse", "/poker start"))
    session = live_session(core)
    dealers = []
    for _ in range(30):
        view = session.engine.view(None)
        dealers.append((session.hand_no, view["dealer"]))
        index = view["to_act"]
        seat = session.seat_of_engine(index)
        kinds = [s.kind for s in session.engine.legal_actions(index)]
        if "pass" not in kinds:
            break
        out = await core.handle(cmd(seat.user_id, "/poker pass"))
        assert not errors(out)
        session = live_session(core)
        if "stays for the next hand" in public_text(out):
            assert session.carried == 0 and session.engine.view(None)["pot"] >= 40
            dealers.append((session.hand_no, session.engine.view(None)["dealer"]))
            break
    hands = dict(dealers)
    assert len(hands) >= 2 and hands[1] != hands[2]
    await check_chips(store, core)


async def test_refusals_change_nothing(store):
    core = make_core(store, seed="refusals")
    await seat_two(core)

    async def refused(out, text):
        assert [o.kind for o in out] == [OutKind.ERROR], out
        assert text in out[0].text, out[0].text

    table = live_session(core).table_id
    await refused(await core.handle(cmd("ayse", "/poker start now")), "takes nothing")
    version = (await store.get_table(table)).version
    cases = [
        ("ayse", "/poker open"),  # a second table in this channel
        ("ayse", "/poker join 10"),  # below the minimum buy-in
        ("cem", "/poker join 999999"),  # more than the wallet
        ("cem", "/poker join lots"),
        ("cem", "/poker leave"),
        ("cem", "/poker start"),
        ("cem", "/poker hand"),
        ("ayse", "/poker call"),  # no hand yet
        ("ayse", "/okey join"),  # other game
        ("ayse", "/poker open acik 0"),
    ]
    for user, line in cases:
        out = await core.handle(cmd(user, line))
        assert [o.kind for o in out] == [OutKind.ERROR], (line, out)
    assert (await store.get_table(table)).version == version
    out = await core.handle(cmd("ayse", "/poker start"))
    session = live_session(core)
    buttons = last_buttons(out)
    actor = session.seats[session.actor()].user_id
    other = "mehmet" if actor == "ayse" else "ayse"
    version = (await store.get_table(table)).version
    snapshot = (await store.get_table(table)).snapshot
    any_button = next(iter(buttons.values()))
    cases = [
        core.press(press(other, any_button)),  # not their turn
        core.press(press("cem", any_button)),  # not at the table
        core.handle(cmd(other, "/poker pass")),
        core.handle(cmd(actor, "/poker fold")),  # folding with no bet
        core.handle(cmd(actor, "/poker check")),  # before the opening: pass, not check
        core.handle(cmd(actor, "/poker open")),  # no amount (or no openers)
        core.handle(cmd(actor, "/poker open 5")),
        core.handle(cmd(actor, "/poker draw Ah")),
        core.handle(cmd(actor, "/poker pass now")),
        core.handle(cmd(actor, "/poker join")),  # already in the hand
        core.handle(cmd(actor, "/poker start")),
    ]
    for case in cases:
        out = await case
        assert [o.kind for o in out] == [OutKind.ERROR], out
        assert out[0].user_id in (actor, other, "cem")
    # forged and stale buttons
    forged = press(actor, any_button)
    for bad in (
        forged.__class__(**{**forged.__dict__, "nonce": "000000"}),
        forged.__class__(**{**forged.__dict__, "table_id": "999"}),
        forged.__class__(**{**forged.__dict__, "table_id": "x1"}),
        forged.__class__(**{**forged.__dict__, "action": "steal"}),
        forged.__class__(**{**forged.__dict__, "platform": "other"}),
    ):
        out = await core.press(bad)
        assert [o.kind for o in out] == [OutKind.ERROR]
    assert (await store.get_table(table)).version == version
    assert (await store.get_table(table)).snapshot == snapshot
    # a real move makes the old buttons stale
    out = await core.press(press(actor, buttons["pass"]))
    assert not errors(out)
    stale = await core.press(press(other, buttons["pass"]))
    assert "earlier turn" in errors(stale)[0]
    await check_chips(store, core)


async def test_timeouts_then_computer_stands_in(store):
    clock = Clock()
    core = make_core(store, seed="afk", clock=clock, turn_seconds=30, afk_limit=2)
    await seat_two(core)
    await core.handle(cmd("ayse", "/poker start"))
    session = live_session(core)
    assert await core.tick(clock.advance(10)) == []
    sleeper = session.seats[session.actor()]
    out = await core.tick(clock.advance(25))
    assert f"{sleeper.name} took too long" in public_text(out)
    # keep timing out until the computer takes over for someone
    for _ in range(10):
        if any(s.away for s in live_session(core).seats):
            break
        out = await core.tick(clock.advance(31))
    assert any(s.away for s in live_session(core).seats)
    assert "is away" in public_text(out)
    await check_chips(store, core)
    # the away player comes back by typing anything at the table
    away = next(s for s in live_session(core).seats if s.away)
    out = await core.handle(cmd(away.user_id, "/poker back"))
    assert f"{away.name} is back" in public_text(out)
    again = await core.handle(cmd(away.user_id, "/poker geldim"))
    assert "not away" in errors(again)[0]
    assert not next(s for s in live_session(core).seats if s.player_id == away.player_id).away


async def test_idle_table_is_closed_and_refunded(store):
    clock = Clock()
    core = make_core(store, clock=clock, idle_close_seconds=600)
    await seat_two(core)
    table = live_session(core).table_id
    assert await core.tick(clock.advance(599)) == []
    out = await core.tick(clock.advance(2))
    assert "table is closed" in public_text(out)
    assert live_session(core) is None
    assert (await store.get_table(table)).status == "closed"
    assert await store.balance(escrow(table)) == 0
    ayse = await store.player("test", "ayse", "Ayse")
    assert await store.balance(wallet(ayse.id)) == STARTING_GRANT


async def test_moderator_reset_mid_hand_refunds_everyone(store):
    core = make_core(store, seed="reset")
    await seat_two(core, buy_in=300)
    await core.handle(cmd("cem", "/poker join 100"))
    out = await core.handle(cmd("ayse", "/poker start"))
    session = live_session(core)
    for _ in range(3):
        user, line = ai_move(session)
        out = await core.handle(cmd(user, line))
        session = live_session(core)
    table = session.table_id
    refused = await core.handle(cmd("ayse", "/table reset"))
    assert "moderator" in errors(refused)[0]
    too_long = await core.handle(cmd("mod", "/table reset " + "x" * 501, mod=True))
    assert "at most 500 characters" in errors(too_long)[0]
    assert live_session(core) is not None  # refused: the table plays on
    out = await core.handle(cmd("mod", "/masa sıfırla cheating", mod=True))
    assert "reset by Mod" in public_text(out)
    assert live_session(core) is None
    assert (await store.get_table(table)).status == "closed"
    assert await store.balance(escrow(table)) == 0
    total = 0
    for user in ("ayse", "mehmet", "cem"):
        player = await store.player("test", user, user.capitalize())
        total += await store.balance(wallet(player.id))
    assert total == 3 * STARTING_GRANT
    assert (await store.actions(table))[-1].action["kind"] == "reset"


async def test_kick_and_addbot(store):
    core = make_core(store, seed="kick")
    await seat_two(core)
    out = await core.handle(cmd("ayse", "/poker addbot"))
    assert "Bot 1 sits down" in public_text(out)
    refused = await core.handle(cmd("ayse", "/table kick Bot 1"))
    assert errors(refused)
    out = await core.handle(cmd("mod", "/table kick Mehmet", mod=True))
    assert "removed Mehmet" in public_text(out)
    assert [s.name for s in live_session(core).seats] == ["Ayse", "Bot 1"]
    nobody = await core.handle(cmd("mod", "/table kick Zeynep", mod=True))
    assert "Nobody called Zeynep" in errors(nobody)[0]
    # Ayse and the computer play a few hands; the computer acts on its own
    out = await core.handle(cmd("ayse", "/poker start"))
    for _ in range(40):
        session = live_session(core)
        if session is None or session.actor() is None or session.hand_no > 3:
            break
        user, line = ai_move(session)
        assert user == "ayse"
        out = await core.handle(cmd(user, line))
        assert not errors(out)
    await check_chips(store, core)


async def test_restart_mid_hand_resumes_exactly(tmp_path):
    """Two runs of the same script; the second restarts (new store connection, new core) in the
    middle of a hand. After the restart every message and the final chips are identical."""

    async def run(restart_at: int | None) -> tuple[list[tuple], dict]:
        url = f"sqlite+aiosqlite:///{tmp_path}/run{restart_at}.db"
        store = await Store.open(url)
        seeds = SeededSource("restart")
        core = make_core(store)
        core.tables.seeds = seeds
        await seat_two(core)
        await core.handle(cmd("cem", "/poker join 150"))
        await core.handle(cmd("ayse", "/poker start"))
        trace = []
        for step in range(60):
            if step == restart_at:
                await store.close()
                store = await Store.open(url)
                core = make_core(store)
                core.tables.seeds = seeds  # later hands draw the same seeds as the other run
                resumed = await core.start()
                assert "is back" in public_text(resumed)
            session = live_session(core)
            if session is None or session.actor() is None:
                break
            user, line = ai_move(session)
            out = await core.handle(cmd(user, line))
            trace.append([(o.kind, o.user_id, o.text) for o in out])
        balances = {}
        for user in ("ayse", "mehmet", "cem"):
            player = await store.player("test", user, user.capitalize())
            balances[user] = await store.balance(wallet(player.id))
        session = live_session(core)
        balances["escrow"] = await store.balance(escrow(session.table_id)) if session else 0
        assert await store.audit() == []
        await store.close()
        return trace, balances

    straight, chips_a = await run(None)
    restarted, chips_b = await run(7)
    assert len(straight) > 10
    assert restarted == straight
    assert chips_a == chips_b


async def test_acik_hand_end_to_end(store):
    core = make_core(store, seed="acik")
    out = await core.handle(cmd("ayse", "/poker open açık 5 fixed"))
    assert "Açık poker" in public_text(out)
    for user in ("ayse", "mehmet", "cem"):
        await core.handle(cmd(user, "/poker join 100"))
    out = await core.handle(cmd("cem", "/poker start"))
    session = live_session(core)
    downs = {}
    for index in range(len(session.in_hand)):
        seat = session.seat_of_engine(index)
        downs[seat.user_id] = session.engine.view(index)["down"]
        [text] = private_to(out, seat.user_id)
        assert text.startswith(f"Hand {session.hand_id()} · Your down card:")
    assert "Street 1:" in public_text(out) and "speaks first" in public_text(out)
    hand = await core.handle(cmd("ayse", "/poker hand"))
    assert hand[0].kind is OutKind.PRIVATE and "down card" in hand[0].text
    for _ in range(100):
        session = live_session(core)
        if session.hand_no > 1 or session.actor() is None:
            break
        out = await press_move(core, out, session)
        assert not errors(out), errors(out)
        await check_chips(store, core)
    await close_and_reveal(core, session.table_id)  # the seed is shown only from then on
    verify = await core.handle(cmd("ayse", f"/verify {session.table_id}-1"))
    assert "matches the posted hash" in verify[0].text
    from bot.render.text import card

    assert f"Ayse's down card: {card(downs['ayse'])}" in verify[0].text


async def test_a_core_loads_only_its_platforms_tables(store):
    core = make_core(store)
    await seat_two(core)
    other = make_core(store, platforms=("telegram",))
    assert await other.start() == []
    same = make_core(store, platforms=("test",))
    resumed = await same.start()
    assert "is back" in public_text(resumed)


async def test_table_pictures_only_when_asked(store):
    plain = make_core(store, seed="pics")
    await seat_two(plain)
    out = await plain.handle(cmd("ayse", "/poker start"))
    assert all(o.picture is None for o in out)
    with_pictures = make_core(store, pictures=True)
    resumed = await with_pictures.start()
    [table] = [o for o in resumed if o.kind is OutKind.EDIT_TABLE]
    assert table.picture is not None and table.picture.startswith(b"\x89PNG")


async def test_leaving_after_folding_is_paid_at_the_end_of_the_hand(store):
    core = make_core(store, seed="fold-leave")
    await seat_two(core)
    await core.handle(cmd("cem", "/poker join 200"))
    out = await core.handle(cmd("ayse", "/poker start"))
    session = live_session(core)
    table = session.table_id
    # play until someone has folded while the hand goes on, then that player leaves
    for _ in range(60):
        session = live_session(core)
        view = session.engine.view(None) if session.running() else None
        folded = (
            [session.seat_of_engine(i) for i, f in enumerate(view["folded"]) if f] if view else []
        )
        if folded:
            leaver = folded[0]
            out = await core.handle(cmd(leaver.user_id, "/poker join 50"))
            assert errors(out)  # no rebuy while dealt into the hand
            out = await core.handle(cmd(leaver.user_id, "/poker leave"))
            assert "will leave when this hand ends" in public_text(out)
            break
        user, line = ai_move(session)
        kinds = [s.kind for s in session.engine.legal_actions(session.engine.to_act())]
        if "fold" in kinds and session.hand_no >= 1:
            line = "/poker fold"
        out = await core.handle(cmd(user, line))
    else:
        pytest.fail("nobody folded")
    while live_session(core).running() and live_session(core).hand_no == session.hand_no:
        user, line = ai_move(live_session(core))
        await core.handle(cmd(user, line))
    assert leaver.player_id not in [s.player_id for s in live_session(core).seats]
    await check_chips(store, core)
    assert await store.balance(escrow(table)) == live_session(core).held()


async def test_a_double_click_applies_once(store):
    import asyncio

    core = make_core(store, seed="double")
    await seat_two(core)
    out = await core.handle(cmd("ayse", "/poker start"))
    session = live_session(core)
    actor = session.seats[session.actor()].user_id
    button = last_buttons(out)["pass"]
    version = (await store.get_table(session.table_id)).version
    first, second = await asyncio.gather(
        core.press(press(actor, button)), core.press(press(actor, button))
    )
    assert [bool(errors(first)), bool(errors(second))].count(True) == 1
    assert (await store.get_table(session.table_id)).version == version + 1


async def test_an_unexpected_error_is_answered_and_changes_nothing(store, monkeypatch):
    from bot.core.poker.session import PokerSession

    core = make_core(store, seed="bug")
    await seat_two(core)
    table = live_session(core).table_id
    version = (await store.get_table(table)).version

    def broken(self, step):
        self.phase = "playing"  # half-done work that must be thrown away
        raise RuntimeError("a bug")

    monkeypatch.setattr(PokerSession, "_deal", broken)
    out = await core.handle(cmd("ayse", "/poker start"))
    assert "something went wrong" in errors(out)[0]
    assert live_session(core).phase == "waiting"
    assert (await store.get_table(table)).version == version


async def test_a_seat_removed_between_hands_is_announced_when_the_next_is_dealt(store):
    core = make_core(store, seed="leaver")
    await seat_two(core)
    await core.handle(cmd("ayse", "/poker addbot"))
    await core.handle(cmd("ayse", "/poker start"))
    session = live_session(core)
    bot = next(s for s in session.seats if s.bot)
    await core.handle(cmd("mod", f"/table kick {bot.name}", mod=True))
    assert live_session(core).seats[-1].leaving
    hand, out = session.hand_no, []
    while session.hand_no == hand:
        user, line = ai_move(session)
        out = await core.handle(cmd(user, line))
        session = live_session(core)
    assert session.running() and bot.player_id not in [s.player_id for s in session.seats]
    said = [o.text for o in out if o.kind is OutKind.PUBLIC]
    assert any(f"{bot.name} leaves the table with" in text for text in said), said
