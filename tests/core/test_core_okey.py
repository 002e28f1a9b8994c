"""Okey through the core on SQLite: a scripted 3-round match by buttons and commands with a
computer player, stakes and payout through the ledger, penalties on the board, /verify of a round,
and refusals that change nothing."""

from __future__ import annotations

from bot.core.config import STARTING_GRANT
from bot.core.messages import OutKind
from games.okey import auto_action
from storage import escrow, wallet
from testkit.drive import live_session
from testkit.helpers import buttons_for, cmd, errors, make_core, press, private_to, public_text
from testkit.restarts import resumes_exactly
from testkit.sealing import reach_reveal


async def test_three_round_match_with_a_computer_player(store):
    core = make_core(store, seed="okey-match")
    out = await core.handle(cmd("ayse", "/okey start 3 40"))
    assert "Ayse sits down" in public_text(out)
    await core.handle(cmd("mehmet", "/okey katıl"))
    out = await core.handle(cmd("ayse", "/okey botekle"))
    assert "Bot 1 sits down" in public_text(out)
    players = [
        await store.player("test", "ayse", "Ayse"),
        await store.player("test", "mehmet", "Mehmet"),
        await store.player("bot", "bot-1", "Bot 1"),
    ]

    async def wallets() -> int:
        return sum([await store.balance(wallet(p.id)) for p in players])

    before = await wallets()
    out = await core.handle(cmd("mehmet", "/okey begin"))
    session = live_session(core)
    table = session.table_id
    assert "Pool: 120 chips" in public_text(out)
    assert await store.balance(escrow(table)) == 120
    # racks go privately to their owners only
    for user in ("ayse", "mehmet"):
        assert any("Your rack" in t for t in private_to(out, user))
    steps = 0
    while live_session(core) is not None and live_session(core).running() and steps < 1500:
        session = live_session(core)
        index = session.match.round.to_act()
        seat = session.seat_of(index)
        action = auto_action(session.match.round, index)
        if action.kind == "take":
            button = buttons_for(out, None)["ts"]
            out = await core.press(press(seat.user_id, button))
        elif steps % 2:
            word = "discard" if action.kind == "discard" else "finish"
            out = await core.handle(cmd(seat.user_id, f"/okey {word} {action.cards[0].lower()}"))
        else:
            prefix = "d" if action.kind == "discard" else "f"
            button = buttons_for(out, seat.user_id)[f"{prefix}.{action.cards[0]}"]
            out = await core.press(press(seat.user_id, button))
        assert not errors(out), errors(out)
        steps += 1
        assert await store.balance(escrow(table)) == live_session(core).held()
    session = live_session(core)
    assert not session.running() and session.hand_no == 3
    assert "The match is over" in public_text(out)
    assert await store.balance(escrow(table)) == 0
    assert await store.audit() == []
    names = [s.name for s in session.seats]
    assert await wallets() == before
    board = await core.handle(cmd("ayse", "/leaderboard okey"))
    assert "Okey penalty points" in board[0].text and names[0] in board[0].text
    sealed = await core.handle(cmd("ayse", f"/verify {table}-2"))  # the table is still open
    assert sealed[0].kind is OutKind.PRIVATE and "Ayse was dealt:" not in sealed[0].text
    # a second match can begin at the same table; then the people leave and it closes (the
    # computer player would only play itself)
    out = await core.handle(cmd("ayse", "/okey leave"))
    assert live_session(core) is not None
    out = await core.handle(cmd("mehmet", "/okey leave"))
    assert live_session(core) is None
    assert "Only computer players are left here: the table is closed" in public_text(out)
    await reach_reveal(core, table)  # the table closed: its seeds are shown hours later
    verify = await core.handle(cmd("ayse", f"/verify {table}-2"))
    assert "matches the posted hash" in verify[0].text and "Ayse was dealt:" in verify[0].text


async def test_okey_refusals_change_nothing(store):
    core = make_core(store, seed="okey-refusals")
    await core.handle(cmd("ayse", "/okey start"))
    cases = [
        ("ayse", "/okey join"),  # already seated
        ("ayse", "/okey begin"),  # alone
        ("ayse", "/okey start"),  # a second table
        ("ayse", "/okey start 2"),
        ("mehmet", "/okey leave"),
        ("ayse", "/okey rack"),  # no round yet
        ("ayse", "/poker join"),  # the table plays Okey
        ("ayse", "/okey take stock"),
    ]
    table = live_session(core).table_id
    version = (await store.get_table(table)).version
    for user, line in cases:
        out = await core.handle(cmd(user, line))
        assert [o.kind for o in out] == [OutKind.ERROR], (line, out)
    assert (await store.get_table(table)).version == version
    await core.handle(cmd("mehmet", "/okey join"))
    # someone who cannot cover the stake is named, and nothing moves
    broke = await store.player("test", "mehmet", "Mehmet")
    cem = await store.player("test", "cem", "Cem")
    await store.transfer(wallet(broke.id), wallet(cem.id), STARTING_GRANT - 10, "test")
    out = await core.handle(cmd("ayse", "/okey begin"))
    assert "Mehmet does not have" in errors(out)[0]
    await store.transfer(wallet(cem.id), wallet(broke.id), STARTING_GRANT - 10, "test")
    begun = await core.handle(cmd("ayse", "/okey begin"))
    session = live_session(core)
    index = session.match.round.to_act()
    actor = session.seat_of(index).user_id
    other = "mehmet" if actor == "ayse" else "ayse"
    rack = session.match.round.view(index)["hand"]
    absent = next(t for t in ("R1", "R2", "R3", "Y1", "Y2", "K13", "B7") if t not in rack)
    version = (await store.get_table(table)).version
    cases = [
        (other, "/okey discard R5"),  # not their turn
        (actor, "/okey take stock"),  # the starter discards first
        (actor, f"/okey discard {absent}"),
        (actor, "/okey discard Z9"),
        (actor, "/okey discard"),
        (actor, "/okey take nowhere"),
        (actor, f"/okey finish {rack[0]}"),  # not a complete hand
        (actor, "/okey arrange sideways"),
        (actor, "/okey join"),
    ]
    for user, line in cases:
        out = await core.handle(cmd(user, line))
        assert [o.kind for o in out] == [OutKind.ERROR], (line, out)
        assert out[0].user_id == user
        assert not any(t in out[0].text for t in rack if t not in line), out[0].text
    assert (await store.get_table(table)).version == version
    stale = buttons_for(begun, actor)
    assert stale and all(b.action.startswith(("d.", "f.", "show")) for b in stale.values())
    out = await core.handle(cmd(actor, "/okey rack"))
    assert out[0].kind is OutKind.PRIVATE and "Your rack (15)" in out[0].text
    arranged = await core.handle(cmd(actor, "/okey diz çift"))
    assert "Arranged" in arranged[0].text
    out = await core.handle(cmd(actor, f"/okey at {rack[0]}"))
    assert not errors(out)
    for button in stale.values():
        assert errors(await core.press(press(actor, button)))


async def test_okey_time_out_draws_and_discards_for_the_player(store):
    from testkit.helpers import Clock

    clock = Clock()
    core = make_core(store, seed="okey-afk", clock=clock, turn_seconds=20, afk_limit=2)
    await core.handle(cmd("ayse", "/okey start 1 10"))
    await core.handle(cmd("mehmet", "/okey join"))
    await core.handle(cmd("ayse", "/okey begin"))
    session = live_session(core)
    starter = session.seat_of(session.match.round.to_act())
    out = await core.tick(clock.advance(21))
    assert f"{starter.name} took too long" in public_text(out)
    assert f"{starter.name} discards" in public_text(out)
    second = live_session(core).seat_of(live_session(core).match.round.to_act())
    out = await core.tick(clock.advance(21))
    assert f"{second.name} draws from the stock" in public_text(out)
    assert f"{second.name} discards" in public_text(out)
    # two time-outs in a row: the computer plays for the starter until they are back
    out = await core.tick(clock.advance(21))
    assert "is away" in public_text(out)
    assert await store.balance(escrow(session.table_id)) == live_session(core).held()


def auto_move(session, _rng) -> tuple[str, str]:
    """The seat to act's move as the computer would make it, typed."""
    index = session.match.round.to_act()
    action = auto_action(session.match.round, index)
    if action.kind == "take":
        return session.seat_of(index).user_id, f"/okey take {action.source}"
    return session.seat_of(index).user_id, f"/okey {action.kind} {action.cards[0]}"


async def test_okey_restart_mid_round_resumes_exactly(tmp_path):
    prelude = [
        "ayse: /okey start 3 30",
        "mehmet: /okey join",
        "cem: /okey join",
        "ayse: /okey begin",
    ]
    # mid round 1, and once round 1 ended (move 74) and round 2 is dealt
    play = await resumes_exactly(tmp_path, "okey-restart", prelude, 80, auto_move, (33, 75))
    assert [len(play.states[step]["match"]["history"]) for step in (33, 75)] == [0, 1]
