"""Tables nobody plays close (issue 25): when only computer players move for IDLE_CLOSE_HANDS
hands or rounds, or no person acts for IDLE_CLOSE_SECONDS, or nobody but computer players is
left, the table closes between hands with a last message and every chip goes back through the
ledger. Time is injected (`Core.tick(now)` on a hand-moved clock)."""

from __future__ import annotations

import random

import pytest

from bot.core.messages import OutKind
from storage import Store, escrow, wallet
from testkit.drive import ai_move, live_session, random_move
from testkit.helpers import Clock, cmd, errors, make_core, public_text

ABANDONED = "Only computer players have played here for a while: the table is closed"
ONLY_COMPUTERS = "Only computer players are left here: the table is closed"


async def wallets(store: Store, users: list[tuple[str, str]]) -> int:
    """The chips in these players' wallets, (platform, user id) each."""
    total = 0
    for platform, user in users:
        player = await store.find_player(platform, user)
        assert player is not None
        total += await store.balance(wallet(player.id))
    return total


async def tick_until_closed(core, clock: Clock, seconds: float, ticks: int) -> list:
    """Tick every `seconds` until the table of c1 closes (at most `ticks` times)."""
    out: list = []
    for _ in range(ticks):
        if live_session(core) is None:
            break
        out += await core.tick(clock.advance(seconds))
    return out


async def poker_with_bots(core, bots: int = 1) -> None:
    assert not errors(await core.handle(cmd("ayse", "/poker open turkish 10")))
    for user in ("ayse", "mehmet"):
        assert not errors(await core.handle(cmd(user, "/poker join 200")))
    for _ in range(bots):
        assert not errors(await core.handle(cmd("ayse", "/poker addbot")))


PLAYERS = [("test", "ayse"), ("test", "mehmet"), ("bot", "bot-1")]


async def okey_match_with_a_bot(core, store: Store, start: str) -> tuple[int, int]:
    """Ayse opens an Okey table with `start`, Mehmet and a computer player sit down and the
    match begins; the chips in the three wallets before it, and the table's id."""
    assert not errors(await core.handle(cmd("ayse", start)))
    await core.handle(cmd("mehmet", "/okey join"))
    await core.handle(cmd("ayse", "/okey addbot"))
    before = await wallets(store, PLAYERS)
    assert not errors(await core.handle(cmd("ayse", "/okey begin")))
    return before, live_session(core).table_id


async def test_poker_table_of_away_people_closes_after_quiet_hands(store: Store) -> None:
    clock = Clock()
    core = make_core(store, clock=clock, seed="idle-hands", idle_close_seconds=10**7)
    await poker_with_bots(core)
    table = live_session(core).table_id
    before = await wallets(store, PLAYERS) + await store.balance(escrow(table))
    await core.handle(cmd("ayse", "/poker start"))
    hands = 0
    out: list = []
    for _ in range(40):  # the people time out, the computer stands in for them
        session = live_session(core)
        if session is None:
            break
        hands = session.hand_no
        out += await core.tick(clock.advance(61))
    assert live_session(core) is None, "the computer players played on"
    assert ABANDONED in public_text(out)
    assert hands <= 8  # a few hands while the people time out, then three quiet ones
    assert await store.balance(escrow(table)) == 0
    assert await wallets(store, PLAYERS) == before  # every chip went back to its owner
    assert await store.audit() == []


async def test_poker_table_closes_after_idle_seconds_without_a_person(store: Store) -> None:
    clock = Clock()
    core = make_core(
        store, clock=clock, seed="idle-seconds", idle_close_hands=0, idle_close_seconds=150
    )
    await poker_with_bots(core)
    table = live_session(core).table_id
    before = await wallets(store, PLAYERS) + await store.balance(escrow(table))
    await core.handle(cmd("ayse", "/poker start"))
    start = clock.now
    out = await tick_until_closed(core, clock, 61, 60)
    assert live_session(core) is None and ABANDONED in public_text(out)
    assert (clock.now - start).total_seconds() >= 150  # no hand limit: the time closed it
    assert await wallets(store, PLAYERS) == before
    assert await store.audit() == []


async def test_people_playing_with_a_computer_keep_their_table(store: Store) -> None:
    clock = Clock()
    core = make_core(store, clock=clock, seed="idle-alive", idle_close_seconds=10**7)
    await poker_with_bots(core)
    await core.handle(cmd("ayse", "/poker start"))
    for _ in range(400):
        session = live_session(core)
        if session is None or session.hand_no > 6 or not session.running():
            break
        user, line = ai_move(session)
        assert not errors(await core.handle(cmd(user, line)))
    session = live_session(core)
    assert session is not None and session.hand_no > 6  # people acted: no quiet hand


async def test_a_table_left_to_computer_players_closes_at_once(store: Store) -> None:
    core = make_core(store, seed="idle-bots")
    await poker_with_bots(core, bots=2)
    users = [*PLAYERS, ("bot", "bot-2")]
    table = live_session(core).table_id
    before = await wallets(store, users) + await store.balance(escrow(table))
    await core.handle(cmd("ayse", "/poker leave"))
    out = await core.handle(cmd("mehmet", "/poker leave"))
    assert live_session(core) is None
    assert ONLY_COMPUTERS in public_text(out)
    assert await store.balance(escrow(table)) == 0
    assert await wallets(store, users) == before


async def test_computer_players_never_deal_a_hand_among_themselves(store: Store) -> None:
    core = make_core(store, seed="idle-no-deal")
    await poker_with_bots(core, bots=2)
    await core.handle(cmd("ayse", "/poker start"))
    session = live_session(core)
    out = []
    for user in ("ayse", "mehmet"):  # both stand up mid-hand: they go when it ends
        out += await core.handle(cmd(user, "/poker leave"))
    assert live_session(core) is None
    assert ONLY_COMPUTERS in public_text(out)
    assert f"Hand {session.table_id}-2" not in public_text(out)  # no second hand was dealt


@pytest.mark.parametrize("start", ["/okey start 3 30 classic", "/okey start 101 5 30"])
async def test_okey_of_away_people_closes_between_rounds(store: Store, start: str) -> None:
    clock = Clock()
    core = make_core(store, clock=clock, seed="idle-okey", idle_close_seconds=10**7)
    before, table = await okey_match_with_a_bot(core, store, start)
    out = await tick_until_closed(core, clock, 61, 200)
    assert live_session(core) is None and ABANDONED in public_text(out)
    assert "The match is over" not in public_text(out)  # cut short: the stakes went back
    assert live_session(core) is None
    assert await store.balance(escrow(table)) == 0
    assert await wallets(store, PLAYERS) == before
    assert await store.audit() == []


async def test_history_adds_up_to_the_wallet_with_a_carried_pot(store: Store) -> None:
    """Nobody opens, everyone leaves: the last one out takes the carried pot. It is in their
    `/history` (which adds up to their wallet's change) but not a hand played or won."""
    core = make_core(store, seed="carried-history")
    await core.handle(cmd("ayse", "/poker open turkish 10"))
    ids = {}
    start = {}
    for user in ("ayse", "mehmet"):
        await core.handle(cmd(user, "/balance"))
        player = await store.find_player("test", user)
        ids[user] = player.id
        start[user] = await store.balance(wallet(player.id))
        await core.handle(cmd(user, "/poker join 200"))
    await core.handle(cmd("ayse", "/poker start"))
    session = live_session(core)
    waiting = next(s.user_id for i, s in enumerate(session.seats) if i != session.actor())
    acting = session.seats[session.actor()].user_id
    out = await core.handle(cmd(waiting, "/poker leave"))
    out += await core.handle(cmd(acting, "/poker leave"))  # the computer passes for both
    assert live_session(core) is None
    taken = 0
    for user, pid in ids.items():
        history = await store.history(pid, None, 50)
        change = await store.balance(wallet(pid)) - start[user]
        assert sum(e.chips_delta for e in history) == change, user
        carried = [e for e in history if e.detail.get("kind") == "carried"]
        taken += sum(e.chips_delta for e in carried)
        stats = await store.player_stats(pid, "turkish")
        assert stats.hands == 1 and stats.won == 0  # the carried pot is no hand, no win
    assert taken == 20  # both antes, to the last one out
    board = await core.handle(cmd("ayse", "/leaderboard wins"))
    assert "Ayse" not in board[0].text and "Mehmet" not in board[0].text
    answers = []
    for user in ids:
        out = await core.handle(cmd(user, "/history"))
        answers.append(next(o.text for o in out if o.kind is OutKind.PRIVATE))
    line = "Türk pokeri · the carried pot when the table ended · +20 chips"
    assert sum(line in answer for answer in answers) == 1


async def test_a_busted_person_keeps_the_table_but_computers_deal_no_hand(store: Store) -> None:
    """The person lost every chip to two computer players: no hand is dealt among the
    computers, the table waits for them to buy chips again."""
    core = make_core(store, seed="idle-busted", idle_close_seconds=10**7)
    await core.handle(cmd("ayse", "/poker open turkish 10"))
    await core.handle(cmd("ayse", "/poker join 50"))
    for _ in range(2):
        await core.handle(cmd("ayse", "/poker addbot hard 400"))
    await core.handle(cmd("ayse", "/poker start"))
    rng = random.Random(3)
    for _ in range(300):
        session = live_session(core)
        if session is None or not session.running():
            break
        user, line = random_move(session, rng)
        assert not errors(await core.handle(cmd(user, line)))
    session = live_session(core)
    assert session is not None and not session.running() and session.phase == "waiting"
    ayse = session.seats[session.find((await store.find_player("test", "ayse")).id)]
    assert session.chips[str(ayse.player_id)] == 0
    hands = session.hand_no
    out = await core.handle(cmd("ayse", "/poker join 100"))  # buys chips again and plays on
    assert not errors(out)
    assert not errors(await core.handle(cmd("ayse", "/poker start")))
    assert live_session(core).hand_no == hands + 1


@pytest.mark.parametrize("start", ["/okey start 1 30", "/okey start 101 1 30"])
async def test_okey_match_left_to_computer_players_closes_when_it_ends(
    store: Store, start: str
) -> None:
    """Every person stands up during the match: the computer plays their seats to its end, the
    stakes are paid out as the match says, and the table closes with its last message instead
    of waiting for a match computer players would only play among themselves."""
    clock = Clock()
    core = make_core(store, clock=clock, seed="idle-match-over", idle_close_seconds=10**7)
    before, table = await okey_match_with_a_bot(core, store, start)
    out = []
    for user in ("ayse", "mehmet"):  # the computer plays their seats, at once or on time-outs
        out += await core.handle(cmd(user, "/okey leave"))
    out += await tick_until_closed(core, clock, 61, 200)
    assert live_session(core) is None, "the table waits for computer players"
    said = public_text(out)
    assert "The match is over" in said and ONLY_COMPUTERS in said
    assert "Play again with /okey begin" not in said  # no new match offered
    assert await store.balance(escrow(table)) == 0
    assert await wallets(store, PLAYERS) == before  # the stakes moved among them only
    game = "okey101" if "101" in start else "okey"
    for user in ("ayse", "mehmet"):  # each one's match is in their history
        player = await store.find_player("test", user)
        history = await store.history(player.id, None, 50)
        assert any(e.game == game and e.detail.get("kind") == "match" for e in history)
    assert await store.audit() == []
