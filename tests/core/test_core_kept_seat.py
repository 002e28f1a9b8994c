"""A kept seat (issue 37, item 1): a player who times out `afk_limit` times is away, and the
computer plays their seat for them at the `normal` level at once, openly ("playing for X"),
until they press "I'm back" or make any move; after the table's `away` hands or rounds they leave
with their chips through the ledger. Refusals for a back press that is not theirs."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import strategies as st

from bot.core.codec import codec
from bot.core.config import STARTING_GRANT
from bot.core.messages import OutKind, Press
from bot.core.moves import Back, BadMove, move_json, move_of_json
from bot.core.table import kept
from bot.core.table.session import Seat
from games.okey import auto_action
from storage import Store, escrow, wallet
from testkit.drive import live_session
from testkit.helpers import Clock, cmd, errors, last_buttons, make_core, press, public_text
from testkit.hidden import random_move, run_examples

TURN = 30


async def check_chips(store, core) -> None:
    """The escrow holds exactly the table's chips and the ledger is sound."""
    session = live_session(core)
    if session is not None:
        assert await store.balance(escrow(session.table_id)) == session.held()
    assert await store.audit() == []


async def poker_table(core, *rules: str) -> None:
    """Ayşe and Mehmet at a Türk pokeri table (ante 10, 200 chips each), dealt."""
    for user, line in (
        ("ayse", "/poker open turkish 10 " + " ".join(rules)),
        ("ayse", "/poker join 200"),
        ("mehmet", "/poker join 200"),
        ("ayse", "/poker start"),
    ):
        assert not errors(await core.handle(cmd(user, line))), line


def seat_of(core, user: str) -> Seat:
    return next(s for s in live_session(core).seats if s.user_id == user)


def to_act(core) -> str | None:
    session = live_session(core)
    index = None if session is None else session.actor()
    return None if index is None else session.seats[index].user_id


async def ayse_plays(core) -> list:
    """Ayşe's cautious move (check, pass, stand pat, call, else fold), typed."""
    session = live_session(core)
    kinds = {b.action for b in session.buttons()}
    for kind, line in (
        ("check", "/poker check"),
        ("pass", "/poker pass"),
        ("pat", "/poker pat"),
        ("call", "/poker call"),
        ("fold", "/poker fold"),
    ):
        if kind in kinds:
            out = await core.handle(cmd("ayse", line))
            assert not errors(out), (line, out)
            return out
    raise AssertionError(kinds)


async def make_mehmet_away(core, clock: Clock) -> list:
    """Ayşe plays, Mehmet never does: time-outs until he is away; the output of the tick that
    made him so."""
    for _ in range(40):
        if to_act(core) == "ayse":
            await ayse_plays(core)
            continue
        assert to_act(core) == "mehmet"
        out = await core.tick(clock.advance(TURN + 1))
        if seat_of(core, "mehmet").away:
            return out
    raise AssertionError("Mehmet never went away")


async def test_a_dropped_player_is_kept_and_played_for_at_once(store):
    clock = Clock()
    core = make_core(store, seed="kept", clock=clock, turn_seconds=TURN, afk_limit=2)
    await poker_table(core)
    table = live_session(core).table_id
    out = await make_mehmet_away(core, clock)
    mehmet = seat_of(core, "mehmet")
    assert mehmet.kept and mehmet.timeouts == 2
    said = public_text(out)
    assert "Mehmet is away" in said and "playing for Mehmet" in said
    # the tick that decided it made the move too, as the kept seat's (no second wait)
    log = await store.actions(table)
    entry = next(
        r for r in reversed(log) if r.player_id == mehmet.player_id and r.action.get("timeout")
    )
    assert entry.action["kept"] and entry.action["auto"]
    # and every later turn of his is played in the same answer as the move before it
    for _ in range(12):
        session = live_session(core)
        if session is None or to_act(core) is None or session.find(mehmet.player_id) is None:
            break
        assert to_act(core) != "mehmet"  # never left waiting for the kept seat
        out = await ayse_plays(core)
        if live_session(core).find(mehmet.player_id) is not None:
            assert "computer playing for Mehmet" in public_text(out)
            assert "back" in last_buttons(out)
    kept_moves = [r for r in await store.actions(table) if r.action.get("kept")]
    assert len(kept_moves) >= 2
    assert all(r.player_id == mehmet.player_id for r in kept_moves)
    await check_chips(store, core)
    # /history marks the hands that ended with the computer playing for him
    history = await core.handle(cmd("mehmet", "/history"))
    assert "the computer played for you (away)" in history[0].text
    assert "the computer played for" not in (await core.handle(cmd("ayse", "/history")))[0].text
    # /replay and /export of a finished hand say which moves the computer made for him
    replays = [await core.handle(cmd("ayse", f"/replay {table}-{n}")) for n in range(1, 4)]
    shown = [o.text for out in replays for o in out if o.kind is OutKind.PRIVATE]
    assert any("the computer played this for Mehmet" in text for text in shown), shown
    exports = [await core.handle(cmd("ayse", f"/export {table}-{n}")) for n in range(1, 4)]
    files = [o.attachment[1].decode() for out in exports for o in out if o.attachment]
    headers = [json.loads(text.splitlines()[0]) for text in files]
    assert any(h["kept_steps"] for h in headers) and all("kept_steps" in h for h in headers)


async def test_back_press_takes_the_seat_back_and_others_are_refused(store):
    clock = Clock()
    core = make_core(store, seed="kept-back", clock=clock, turn_seconds=TURN, afk_limit=2)
    await poker_table(core)
    await make_mehmet_away(core, clock)
    if to_act(core) == "ayse":
        out = await ayse_plays(core)
    else:
        out = await core.handle(cmd("ayse", "/poker table"))
    buttons = last_buttons(out)
    if "back" not in buttons:  # the table message of the last answer
        buttons = last_buttons(await core.handle(cmd("ayse", "/poker table")))
    back = buttons["back"]
    session = live_session(core)
    table = session.table_id

    async def state():
        return (await store.get_table(table)).version, live_session(core).to_dict()

    before = await state()
    refusals = {
        "ayse": "You are not away",  # seated, not away: not her seat to take back
        "zed": "not sitting at this table",  # a spectator
    }
    for user, reason in refusals.items():
        out = await core.press(press(user, back))
        assert [o.kind for o in out] == [OutKind.ERROR] and out[0].user_id == user
        assert reason in errors(out)[0], errors(out)
        assert await state() == before
    forged = Press("test", "c1", "mehmet", "Mehmet", str(table), "back.x", back.nonce, (), "en")
    out = await core.press(forged)
    assert [o.kind for o in out] == [OutKind.ERROR] and await state() == before
    out = await core.press(
        Press("test", "c1", "mehmet", "Mehmet", str(table), "back", "n0", (), "en")
    )
    assert not errors(out)  # an older message's button: "I'm back" holds all the same
    assert "Mehmet is back" in public_text(out)
    mehmet = seat_of(core, "mehmet")
    assert not mehmet.away and not mehmet.kept and mehmet.away_hands == 0
    assert "back" not in last_buttons(out)
    again = await core.press(press("mehmet", back))
    assert "not away" in errors(again)[0]
    await check_chips(store, core)


async def test_any_move_of_theirs_takes_the_seat_back(store):
    clock = Clock()
    core = make_core(store, seed="kept-move", clock=clock, turn_seconds=TURN, afk_limit=2)
    await poker_table(core)
    await make_mehmet_away(core, clock)
    out = await core.handle(cmd("mehmet", "/poker geldim", locale="tr"))
    assert "Mehmet is back" in public_text(out)  # (the table's language)
    assert not seat_of(core, "mehmet").away


async def test_away_for_the_tables_hands_leaves_with_the_chips_through_the_ledger(store):
    clock = Clock()
    core = make_core(store, seed="kept-limit", clock=clock, turn_seconds=TURN, afk_limit=2)
    await poker_table(core, "away=1")
    assert live_session(core).options["away"] == 1
    mehmet_id = seat_of(core, "mehmet").player_id
    await make_mehmet_away(core, clock)
    said = ""
    for _ in range(40):
        session = live_session(core)
        if session is None or session.find(mehmet_id) is None:
            break
        if to_act(core) == "ayse":
            said += public_text(await ayse_plays(core))
        else:
            said += public_text(await core.tick(clock.advance(TURN + 1)))
    assert "Mehmet was away for 1 hands and leaves the table" in said
    session = live_session(core)
    assert session is None or session.find(mehmet_id) is None
    # chips conserved: both grants are in the two wallets and the table's escrow
    ayse_id = seat_of(core, "ayse").player_id if session is not None else None
    held = 0 if session is None else await store.balance(escrow(session.table_id))
    wallets = await store.balance(wallet(mehmet_id))
    wallets += 0 if ayse_id is None else await store.balance(wallet(ayse_id))
    assert wallets + held == 2 * STARTING_GRANT
    await check_chips(store, core)


async def test_okey_kept_seat_plays_the_rack_and_leaves_after_the_away_rounds(store):
    clock = Clock()
    core = make_core(store, seed="kept-okey", clock=clock, turn_seconds=20, afk_limit=1)
    for user, line in (
        ("ayse", "/okey start 3 10 away=1"),
        ("mehmet", "/okey join"),
        ("ayse", "/okey begin"),
    ):
        assert not errors(await core.handle(cmd(user, line))), line
    session = live_session(core)
    table = session.table_id
    ids = {s.user_id: s.player_id for s in session.seats}
    said = ""
    for _ in range(2000):
        session = live_session(core)
        if session is None or not session.running() or session.match.round is None:
            break
        game = session.match.round
        index = game.to_act()
        if session.seat_of(index).user_id == "ayse":  # Ayşe plays; Mehmet dropped
            action = auto_action(game, index)
            if action.kind == "take":
                line = f"/okey take {action.source}"
            elif action.kind == "show_indicator":
                line = "/okey show"
            else:
                line = f"/okey {action.kind} {action.cards[0]}"
            out = await core.handle(cmd("ayse", line))
            assert not errors(out), (line, out)
        else:
            assert seat_of(core, "mehmet").timeouts == 0  # only his first turn waits
            out = await core.tick(clock.advance(21))
        said += public_text(out)
    assert "Mehmet is away" in said
    assert "Mehmet was away for 1 rounds" in said
    assert "Mehmet leaves the table" in said  # once the match was played out for him
    kept_turns = [r for r in await store.actions(table) if r.action.get("kept")]
    assert kept_turns and all(r.action["kind"] == "turn" for r in kept_turns)
    assert all(r.player_id == ids["mehmet"] for r in kept_turns)
    held = await store.balance(escrow(table))
    wallets = sum([await store.balance(wallet(pid)) for pid in ids.values()])
    assert wallets + held == 2 * STARTING_GRANT
    await check_chips(store, core)


# --- the pieces ----------------------------------------------------------------------------------


def test_which_seat_is_kept_and_how_the_computer_plays_it():
    person = Seat(1, "u1", "Ayşe", "tr")
    assert not person.kept
    person.away = True
    assert person.kept
    assert kept.poker_how(person, afk=False) == (False, "normal")
    assert kept.poker_how(person, afk=True) == (True, "easy")  # a time-out: cautious
    assert kept.okey_level(person, afk=False) == "normal"
    assert kept.marker(person, afk=False) == {"auto": True, "kept": True}
    assert kept.away_note(person).key == "seat.kept"
    leaver = Seat(2, "u2", "Cem", "tr", away=True, leaving=True)  # left mid-match himself
    assert not leaver.kept and kept.okey_level(leaver, afk=False) == "easy"
    assert kept.poker_how(leaver, afk=False) == (True, "easy")
    assert kept.away_note(leaver).key == "seat.away"
    stood_up = Seat(3, "u3", "Can", "tr", away=True, leaving=True, away_hands=3)
    assert stood_up.kept  # played for to the end of the match
    forfeit = Seat(4, "u4", "Ece", "tr", away=True, kicked=True)
    assert not forfeit.kept and kept.marker(forfeit, afk=False) == {"auto": True}
    bot = Seat(5, "bot-1", "Bilgisayar", "tr", bot=True, level="hard")
    assert not bot.kept and kept.okey_level(bot, afk=False) == "hard"
    assert kept.poker_how(bot, afk=False) == (False, "hard")
    assert Seat.from_dict({k: v for k, v in person.to_dict().items() if k != "away_hands"}).kept


def test_the_back_move_on_a_button_and_as_json():
    assert codec.code(Back()) == "back"
    decoded = codec.decode(codec.encode("12", "abc", Back()))
    assert not isinstance(decoded, Exception) and decoded.move == Back()
    assert codec.move_of("back.1") is None
    assert move_of_json({"kind": "back"}) == Back()
    assert move_json(Back()) == {"kind": "back"}
    for bad in ({"kind": "back", "cards": ["R5"]}, {"kind": "back", "amount": 3}):
        try:
            move_of_json(bad)
        except BadMove:
            continue
        raise AssertionError(bad)


# --- chips conserved whatever happens around a kept seat ----------------------------------------


@pytest.mark.parametrize("opening", ["/poker open turkish 10 away=1", "/okey start 3 10 away=1"])
def test_chips_are_conserved_around_kept_seats(opening, tmp_path_factory):
    """Random schedules of moves, time-outs, "I'm back" presses, leaving and typing back, at a
    table whose players drop and come back: after every step the escrow holds exactly the
    table's chips, the ledger is sound and no chip appears or vanishes."""
    tmp = tmp_path_factory.mktemp("kept-chips")
    files = iter(range(10**6))

    async def check(data) -> None:
        store = await Store.open(f"sqlite+aiosqlite:///{tmp / f'c{next(files)}.db'}")
        clock = Clock()
        core = make_core(store, seed="kept-chips", clock=clock, turn_seconds=TURN, afk_limit=1)
        try:
            users = ("ayse", "mehmet", "cem")
            lines = [f"ayse: {opening}"]
            if "poker" in opening:
                lines += [f"{u}: /poker join 200" for u in users] + ["ayse: /poker start"]
            else:
                lines += [f"{u}: /okey join" for u in users[1:]] + ["ayse: /okey begin"]
            for line in lines:
                user, _, text = line.partition(": ")
                assert not errors(await core.handle(cmd(user, text))), line
            group = "poker" if "poker" in opening else "okey"
            grants = len(users) * STARTING_GRANT
            ids = {s.user_id: s.player_id for s in live_session(core).seats}
            rng = random.Random(data.draw(st.integers(0, 2**16), label="moves"))
            for _ in range(data.draw(st.integers(5, 40), label="steps")):
                session = live_session(core)
                if session is None:
                    break
                what = data.draw(
                    st.sampled_from(("move", "move", "tick", "back", "typed", "leave"))
                )
                user = data.draw(st.sampled_from(users), label="who")
                if what == "move" and session.actor() is not None:
                    mover, text = random_move(session, rng)
                    await core.handle(cmd(mover, text))
                elif what == "tick":
                    await core.tick(clock.advance(TURN + 1))
                elif what == "back":
                    table = str(session.table_id)
                    await core.press(
                        Press("test", "c1", user, user, table, "back", session.nonce, (), "en")
                    )
                elif what == "typed":
                    await core.handle(cmd(user, f"/{group} back"))
                elif what == "leave" and data.draw(st.booleans(), label="really leave"):
                    await core.handle(cmd(user, f"/{group} leave"))
                session = live_session(core)
                if session is not None:
                    assert await store.balance(escrow(session.table_id)) == session.held()
                    table_chips = await store.balance(escrow(session.table_id))
                else:
                    table_chips = 0
                wallets = sum([await store.balance(wallet(pid)) for pid in ids.values()])
                assert wallets + table_chips == grants
                assert await store.audit() == []
        finally:
            await core.close()
            await store.close()

    run_examples(15, check)
