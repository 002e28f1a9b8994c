"""The living table message: moves go into the table message's move log (kept in the snapshot),
only announcements are channel messages of their own, the table message follows them anew
(`fresh`), a closed table's message loses its buttons, and private hand/rack messages carry the
slot of their hand."""

from __future__ import annotations

import json

from bot.core.messages import Outgoing, OutKind
from bot.core.poker.session import PokerSession
from bot.core.table.deliver import MAX_TABLE_TEXT, move_lines, table_message, words
from bot.core.table.session import MOVE_LOG, Msg
from testkit.drive import ai_move, live_session
from testkit.helpers import Clock, cmd, errors, make_core, press
from testkit.stores import open_memory_store


def kinds(out: list[Outgoing]) -> list[OutKind]:
    return [o.kind for o in out]


def publics(out: list[Outgoing]) -> list[str]:
    return [o.text for o in out if o.kind is OutKind.PUBLIC]


def logged(core) -> list[str]:
    """The open table's move log as the table message shows it."""
    return move_lines(live_session(core))


def edits(out: list[Outgoing]) -> list[Outgoing]:
    return [o for o in out if o.kind is OutKind.EDIT_TABLE]


def assert_table_follows_announcements(out: list[Outgoing]) -> None:
    """Every announcement is followed, later in the answer, by a fresh table message."""
    for index, item in enumerate(out):
        if item.kind is OutKind.PUBLIC:
            later = edits(out[index + 1 :])
            assert later and later[0].fresh, out


async def poker_table(core, players=("ayse", "mehmet"), game: str = "turkish") -> None:
    out = await core.handle(cmd(players[0], f"/poker open {game} 10"))
    assert not errors(out)
    for user in players:
        assert not errors(await core.handle(cmd(user, "/poker join 200")))


async def okey_table(core, players=("ayse", "mehmet")) -> list[Outgoing]:
    await core.handle(cmd(players[0], "/okey start 1 10"))
    for user in players[1:]:
        await core.handle(cmd(user, "/okey join"))
    return await core.handle(cmd(players[0], "/okey begin"))


# --- the move log ---------------------------------------------------------------------------------


async def test_moves_edit_the_table_message_and_post_nothing(memory_store):
    core = make_core(memory_store)
    out = await core.handle(cmd("ayse", "/poker open turkish 10"))
    assert kinds(out) == [OutKind.EDIT_TABLE]  # opening costs one message: the table itself
    assert out[0].text.endswith("Table 1 is open: Türk pokeri.")
    for user in ("ayse", "mehmet", "cem"):
        out = await core.handle(cmd(user, "/poker join 100"))
        assert kinds(out) == [OutKind.EDIT_TABLE] and not out[0].fresh
    assert logged(core) == [
        "Table 1 is open: Türk pokeri.",
        "Ayse sits down with 100 chips.",
        "Mehmet sits down with 100 chips.",
        "Cem sits down with 100 chips.",
    ]
    assert out[0].text.endswith("\n".join(logged(core)))


async def test_the_move_log_keeps_the_newest_five_lines_newest_last(memory_store):
    core = make_core(memory_store)
    await core.handle(cmd("ayse", "/poker open turkish 10"))
    for user in ("ayse", "mehmet", "cem", "deniz", "ece"):
        await core.handle(cmd(user, "/poker join 100"))
    out = await core.handle(cmd("mehmet", "/poker leave"))
    moves = logged(core)
    assert len(moves) == MOVE_LOG == 5
    assert moves[0] == "Mehmet sits down with 100 chips."
    assert moves[-1] == "Mehmet leaves the table with 100 chips."
    assert "Table 1 is open" not in out[0].text and out[0].text.endswith(moves[-1])


async def test_a_new_hand_starts_the_move_log_afresh(memory_store):
    core = make_core(memory_store)
    await poker_table(core)
    out = await core.handle(cmd("ayse", "/poker start"))
    assert logged(core) == []  # the joins are not this hand's moves
    assert "sits down" not in edits(out)[-1].text


async def test_the_move_log_survives_a_restart(tmp_path):
    from storage import Store

    url = f"sqlite+aiosqlite:///{tmp_path}/log.db"
    store = await Store.open(url)
    core = make_core(store)
    await poker_table(core)
    moves = list(logged(core))
    await store.close()
    store = await Store.open(url)
    try:
        again = make_core(store)
        out = await again.start()
        assert logged(again) == moves
        [table] = out
        assert table.kind is OutKind.EDIT_TABLE and table.fresh
        assert "\n".join(moves) in table.text and table.text.endswith(
            "play goes on where it stopped."
        )
        out = await again.handle(cmd("cem", "/poker join 100"))
        assert logged(again) == [*moves, "Cem sits down with 100 chips."]
    finally:
        await store.close()


def test_an_old_snapshot_without_a_move_log_loads_with_an_empty_one():
    session = PokerSession.create("turkish", "en", (), make_core(None).config, Clock().now)
    data = session.to_dict()
    assert data["moves"] == []
    session.log_moves([Msg("a"), Msg("b")])
    data = session.to_dict()
    assert move_lines(PokerSession.from_dict(data)) == ["a", "b"]
    del data["moves"]
    assert PokerSession.from_dict(data).moves == []


def test_the_move_log_keeps_messages_put_into_each_language_when_shown():
    session = PokerSession.create("turkish", "tr", (), make_core(None).config, Clock().now)
    level = Msg("seat.bot_level", {"level": Msg("level.easy")})
    line = Msg("poker.seat", {"marker": "·", "name": "Ayse", "chips": 150, "notes": [level]})
    session.log_moves([line])
    again = PokerSession.from_dict(json.loads(json.dumps(session.to_dict())))
    assert move_lines(again) == move_lines(again, "tr") == ["· Ayse: 150 (bilgisayar (kolay))"]
    assert move_lines(again, "en") == ["· Ayse: 150 (computer (easy))"]
    for locale in ("tr", "en"):
        assert move_lines(again, locale) == move_lines(session, locale) == [words(locale, line)]


def test_an_old_snapshot_with_a_text_move_log_shows_it_as_written():
    session = PokerSession.create("turkish", "tr", (), make_core(None).config, Clock().now)
    data = dict(session.to_dict(), moves=["Ayse pas dedi."])
    again = PokerSession.from_dict(data)
    again.log_moves([Msg("poker.joined", {"name": "Cem", "amount": 100})])
    assert move_lines(again, "en") == ["Ayse pas dedi.", "Cem sits down with 100 chips."]
    assert move_lines(PokerSession.from_dict(again.to_dict()), "tr")[0] == "Ayse pas dedi."


# --- announcements and the fresh table message ----------------------------------------------------


async def test_poker_announces_only_the_start_and_the_result_of_a_hand(memory_store):
    core = make_core(memory_store, seed="announce")
    await poker_table(core)
    out = await core.handle(cmd("ayse", "/poker start"))
    [start] = publics(out)
    assert start.startswith("— Hand 1-1 — dealer:") and "Shuffle hash" in start
    assert out[-1].kind is OutKind.EDIT_TABLE and out[-1].fresh
    hands = 0
    for _ in range(60):
        session = live_session(core)
        if session.hand_no > 2 or session.actor() is None:
            break
        hand, hand_id = session.hand_no, session.hand_id()
        user, line = ai_move(session)
        out = await core.handle(cmd(user, line))
        assert not errors(out)
        assert_table_follows_announcements(out)
        if session.hand_no == hand:
            assert publics(out) == [], line  # a move: no message of its own
            assert edits(out) and not any(e.fresh for e in edits(out))
        else:  # the hand ended: its result and the next hand's start in ONE message
            [result] = publics(out)
            # the seed stays sealed until the table closed (docs/fairness.md): /verify proves
            assert f"Hand {hand_id} is over. /verify {hand_id} proves" in result
            assert "Seed:" not in result
            assert f"— Hand {session.hand_id()} —" in result
            hands += 1
    assert hands >= 2


async def test_okey_moves_are_logged_and_the_round_start_announced(memory_store):
    core = make_core(memory_store, seed="okey-living")
    out = await okey_table(core)
    [start] = publics(out)
    assert "The match begins!" in start and "— Round 1-1 —" in start
    assert edits(out)[0].fresh
    session = live_session(core)
    starter = session.seats[session.actor()]
    tile = session.round.view(session.engine_seat(starter.player_id))["hand"][0]
    out = await core.handle(cmd(starter.user_id, f"/okey discard {tile}"))
    assert publics(out) == []
    assert edits(out)[-1].text.endswith(f"{starter.name} discards {tile}.")
    actor = session.seats[session.actor()]
    out = await core.handle(cmd(actor.user_id, "/okey take stock"))
    assert publics(out) == []
    assert edits(out)[-1].text.endswith(f"{actor.name} draws from the stock.")


async def test_a_time_out_is_announced_and_the_table_posted_anew(memory_store):
    clock = Clock()
    core = make_core(memory_store, clock=clock, seed="timeout")
    await poker_table(core)
    await core.handle(cmd("ayse", "/poker start"))
    session = live_session(core)
    name = session.seats[session.actor()].name
    out = await core.tick(clock.advance(61))
    assert publics(out)[0].startswith(f"{name}")
    assert_table_follows_announcements(out)


async def test_closing_edits_the_table_message_without_buttons(memory_store):
    core = make_core(memory_store)
    await poker_table(core)
    await core.handle(cmd("ayse", "/poker leave"))
    out = await core.handle(cmd("mehmet", "/poker leave"))
    assert publics(out) == ["Everyone left; the table is closed."]
    [final] = edits(out)
    assert out[-1] is final and final.buttons == () and not final.fresh
    assert final.text.endswith("Mehmet leaves the table with 200 chips.\nThis table is closed.")


async def test_an_idle_table_closes_with_a_closing_edit(memory_store):
    clock = Clock()
    core = make_core(memory_store, clock=clock)
    await core.handle(cmd("ayse", "/okey start"))
    out = await core.tick(clock.advance(901))
    assert len(publics(out)) == 1 and "closed" in publics(out)[0]
    [final] = edits(out)
    assert final.buttons == () and final.text.endswith("This table is closed.")


async def test_a_reset_removes_the_buttons_too(memory_store):
    core = make_core(memory_store, seed="reset")
    await poker_table(core)
    await core.handle(cmd("ayse", "/poker start"))
    out = await core.handle(cmd("mod", "/table reset", mod=True))
    assert len(publics(out)) == 1
    [final] = edits(out)
    assert out[-1] is final and final.buttons == ()


async def test_poker_table_posts_the_table_message_anew(memory_store):
    core = make_core(memory_store)
    await poker_table(core)
    first = await core.handle(cmd("cem", "/poker table"))
    again = await core.handle(cmd("cem", "/poker table"))
    assert kinds(first) == kinds(again) == [OutKind.EDIT_TABLE]
    assert first[0].fresh and again[0].fresh and first[0].text == again[0].text


async def test_rules_answer_privately_in_the_askers_language(memory_store):
    core = make_core(memory_store)
    await core.handle(cmd("ayse", "/okey start", locale="tr"))
    out = await core.handle(cmd("cem", "/okey rules", locale="en"))
    assert kinds(out) == [OutKind.PRIVATE] and out[0].user_id == "cem"
    assert out[0].text.startswith("Okey: stake")


# --- private messages and their slots -------------------------------------------------------------


async def test_poker_cards_carry_the_hands_slot_and_notices_none(memory_store):
    core = make_core(memory_store, seed="slots")
    await poker_table(core)
    out = await core.handle(cmd("ayse", "/poker start"))
    session = live_session(core)
    slot = f"{session.table_id}:{session.hand_id()}"
    private = [o for o in out if o.kind is OutKind.PRIVATE]
    assert {o.user_id for o in private} == {"ayse", "mehmet"}
    assert all(o.slot == slot and o.text.startswith("Hand 1-1 · Your cards:") for o in private)
    [hand] = await core.handle(cmd("ayse", "/poker hand"))
    assert hand.slot == slot and hand.text.startswith("Hand 1-1 · Your cards:")
    [tr] = await core.handle(cmd("ayse", "/poker el", locale="tr"))
    assert tr.slot == slot and tr.text.startswith("El 1-1 · Kartların:")


async def test_a_busted_notice_is_a_one_off_message(memory_store):
    core = make_core(memory_store, seed="busted")
    await poker_table(core)
    session = live_session(core)
    await core.handle(cmd("ayse", "/poker start"))
    out: list[Outgoing] = []
    for _ in range(400):
        session = live_session(core)
        if session is None or session.actor() is None:
            break
        index = session.engine.to_act()
        user = session.seat_of_engine(index).user_id
        specs = {s.kind: s for s in session.engine.legal_actions(index)}
        if "raise" in specs or "bet" in specs or "open" in specs:
            kind = next(k for k in ("open", "bet", "raise") if k in specs)
            line = f"/poker {kind} {specs[kind].max_amount}"
        elif "call" in specs:
            line = "/poker call"
        else:
            line = f"/poker {ai_move(session)[1].split(maxsplit=1)[1]}"
        out = await core.handle(cmd(user, line))
        if any("no chips left" in o.text for o in out):
            break
    [busted] = [o for o in out if "no chips left" in o.text]
    assert busted.kind is OutKind.PRIVATE and busted.slot is None


async def test_okey_one_private_rack_per_move_in_the_rounds_slot(memory_store):
    core = make_core(memory_store, seed="okey-slots")
    out = await okey_table(core)
    session = live_session(core)
    slot = f"{session.table_id}:{session.hand_id()}"
    for item in out:
        if item.kind is OutKind.PRIVATE:
            assert item.slot == slot and item.text.startswith("Round 1-1 · ")
    starter = session.seats[session.actor()].user_id
    [rack] = [o for o in out if o.kind is OutKind.PRIVATE and o.user_id == starter]
    assert rack.buttons  # the starter discards first
    for _ in range(3):  # whole turns of both people
        session = live_session(core)
        actor = session.seats[session.actor()].user_id
        if session.round.phase == "take":
            out = await core.handle(cmd(actor, "/okey take stock"))
            [rack] = [o for o in out if o.kind is OutKind.PRIVATE and o.user_id == actor]
            assert "You drew" in rack.text and "Your rack (15)" in rack.text
            assert rack.buttons and rack.slot == slot
        buttons = {b.action: b for row in rack.buttons for b in row}
        discard = next(b for action, b in buttons.items() if action.startswith("d."))
        out = await core.press(press(actor, discard))
        assert not errors(out)
        [mine] = [o for o in out if o.kind is OutKind.PRIVATE and o.user_id == actor]
        assert mine.buttons == () and mine.slot == slot and "Your rack (14)" in mine.text
    [rack] = await core.handle(cmd("ayse", "/okey rack"))
    assert rack.slot == slot and rack.text.startswith("Round 1-1 · Your rack")


# --- size ------------------------------------------------------------------------------------------


async def test_a_ten_seat_acik_table_fits_a_photo_caption():
    store = await open_memory_store()
    try:
        core = make_core(store, seed="ten")
        players = [f"player{n:02d}" for n in range(10)]
        await poker_table(core, players, game="acik")
        await core.handle(cmd(players[0], "/poker start"))
        longest = 0
        for _ in range(80):
            session = live_session(core)
            if session is None or session.hand_no > 1 or session.actor() is None:
                break
            user, line = ai_move(session)
            out = await core.handle(cmd(user, line))
            for item in edits(out):
                longest = max(longest, len(item.text))
                assert len(item.text) <= MAX_TABLE_TEXT
        assert longest > 400  # a real ten-seat table was measured
    finally:
        await store.close()


def test_a_table_text_too_long_drops_old_moves_first():
    session = PokerSession.create("turkish", "en", (), make_core(None).config, Clock().now)
    session.log_moves([Msg(f"move {n} " + "x" * 200) for n in range(5)])
    item = table_message(session, "c1")
    assert len(item.text) <= MAX_TABLE_TEXT
    assert "move 4" in item.text and "move 0" not in item.text


async def test_okey_rack_asked_during_ones_turn_keeps_the_tile_buttons(memory_store):
    core = make_core(memory_store, seed="okey-rack-turn")
    out = await okey_table(core)
    session = live_session(core)
    starter = session.seats[session.actor()].user_id
    [turn] = [o for o in out if o.kind is OutKind.PRIVATE and o.user_id == starter]
    for sub in ("rack", "arrange pairs"):
        [again] = await core.handle(cmd(starter, f"/okey {sub}"))
        assert again.slot == turn.slot and again.buttons == turn.buttons
    other = next(s.user_id for s in session.seats if s.user_id != starter)
    [rack] = await core.handle(cmd(other, "/okey rack"))
    assert rack.slot == turn.slot and rack.buttons == ()


async def test_a_refused_timer_step_says_nothing_in_the_channel(memory_store):
    clock = Clock()
    core = make_core(memory_store, clock=clock, seed="stale-tick")
    other = make_core(memory_store, clock=clock, seed="stale-tick")  # a second process
    await poker_table(core)
    await core.handle(cmd("ayse", "/poker start"))
    session = core.tables.in_channel("test", "c1").session
    actor = session.seats[session.actor()].user_id
    commit = memory_store.commit

    async def player_first(*args, **kwargs):  # the player acts just before the time-out commits
        memory_store.commit = commit
        assert not errors(await other.handle(cmd(actor, "/poker pass")))
        return await commit(*args, **kwargs)

    memory_store.commit = player_first
    assert await core.tick(clock.advance(61)) == []
    log = [a.action for a in await memory_store.actions(session.table_id)]
    assert [a["kind"] for a in log[-1:]] == ["pass"] and not any("timeout" in a for a in log)
