"""Computer players' chips come from the house's `COMPUTERS` account (shown by the audit), and
a community's limits: computer players per table and per community, open tables, tournaments
(issue 25). The property test plays random games with computer players and checks that no chip
is created or lost, the house accounts included."""

from __future__ import annotations

import asyncio
import io
import random
from contextlib import redirect_stdout
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from storage import COMPUTERS, HOUSE, Store, escrow, wallet
from storage.__main__ import main as storage_main
from testkit.drive import live_session, random_move
from testkit.helpers import Clock, cmd, errors, make_core
from testkit.stores import open_memory_store


def at(user: str, line: str, channel: str = "c1", community: str | None = "g1"):
    """A command from a member of community `community`."""
    return cmd(user, line, channel=channel, community=community)


async def test_a_computer_players_bankroll_comes_from_the_computers_account(store: Store) -> None:
    core = make_core(store)
    await core.handle(at("ayse", "/poker open turkish 10"))
    assert not errors(await core.handle(at("ayse", "/poker addbot")))
    bot = await store.find_player("bot", "bot-1")
    # the bankroll, not a starting grant, bought it in (5000 - the 200 buy-in)
    assert await store.balance(wallet(bot.id)) == 5000 - 200
    assert await store.balance(COMPUTERS) == -5000
    report = {flows.account: flows for flows in await store.house_report()}
    assert report[COMPUTERS].paid == {"computer bankroll": 5000}
    assert report[HOUSE].paid == {"starting grant": 1000}  # ayse's only
    assert await store.audit() == []


async def test_what_a_computer_player_won_beyond_its_bankroll_goes_back(store: Store) -> None:
    core = make_core(store)
    await core.handle(at("ayse", "/poker open turkish 10"))
    await core.handle(at("ayse", "/poker addbot"))
    bot = await store.find_player("bot", "bot-1")
    await store.transfer(HOUSE, wallet(bot.id), 20_000, "test: it won a lot")
    await core.handle(at("ayse", "/okey start", channel="c2"))
    assert not errors(await core.handle(at("ayse", "/okey addbot", channel="c2")))
    assert await store.balance(wallet(bot.id)) == 5000
    report = {flows.account: flows for flows in await store.house_report()}
    assert report[COMPUTERS].taken == {"computer winnings": 20_000 + 4800 - 5000}
    assert await store.audit() == []


async def test_computer_players_per_table_are_limited(store: Store) -> None:
    core = make_core(store, max_computers_per_table=2)
    await core.handle(at("ayse", "/poker open turkish 10"))
    for _ in range(2):
        assert not errors(await core.handle(at("ayse", "/poker addbot")))
    out = await core.handle(at("ayse", "/poker addbot"))
    assert errors(out) == [
        "This table already has 2 computer players, the most one table may have."
    ]
    tr = await core.handle(cmd("ayse", "/poker botekle", locale="tr", community="g1"))
    assert errors(tr) == [
        "Bu masada zaten 2 bilgisayar oyuncusu var; bir masaya en fazla bu kadar eklenebilir."
    ]
    assert len(live_session(core).seats) == 2  # (the opener did not sit down)


async def test_computer_players_per_community_are_limited(store: Store) -> None:
    core = make_core(store, max_computers_per_community=2)
    for channel in ("c1", "c2"):
        await core.handle(at("ayse", "/okey start", channel=channel))
    await core.handle(at("ayse", "/okey addbot", channel="c1"))
    await core.handle(at("ayse", "/okey addbot", channel="c1"))
    out = await core.handle(at("ayse", "/okey addbot", channel="c2"))
    assert errors(out) == [
        "This community's tables already have 2 computer players, the most it may have at once."
    ]
    # another community has its own count
    await core.handle(at("ayse", "/okey start", channel="c3", community="g2"))
    assert not errors(await core.handle(at("ayse", "/okey addbot", channel="c3", community="g2")))


async def test_open_tables_per_community_are_limited(store: Store) -> None:
    core = make_core(store, max_open_tables=2)
    for channel in ("c1", "c2"):
        assert not errors(await core.handle(at("ayse", "/okey start", channel=channel)))
    out = await core.handle(at("ayse", "/poker open", channel="c3"))
    assert errors(out) == [
        "This community already has 2 open tables, the most it may have at once: play at one "
        "of them, or close one first."
    ]
    assert not errors(await core.handle(at("ayse", "/okey start", channel="c4", community="g2")))
    await core.handle(at("ayse", "/okey leave", channel="c1"))  # closes c1: room for one more
    assert not errors(await core.handle(at("ayse", "/poker open", channel="c3")))


async def test_tournaments_per_community_are_limited(store: Store) -> None:
    core = make_core(store, max_running_tournaments=1)
    assert not errors(await core.handle(at("org", "/tournament okey 10 1")))
    out = await core.handle(at("org", "/tournament okey 10 1", channel="c2"))
    assert errors(out) == [
        "This community already has 1 tournaments registering or running, the most it may "
        "have at once."
    ]
    assert not errors(await core.handle(at("org", "/tournament cancel")))
    assert not errors(await core.handle(at("org", "/tournament okey 10 1", channel="c2")))


def test_the_audit_command_shows_the_house_accounts(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/bot.db"

    async def setup() -> None:
        store = await Store.open(url)
        try:
            core = make_core(store)
            await core.handle(at("ayse", "/okey start"))
            await core.handle(at("ayse", "/okey addbot"))
        finally:
            await store.close()

    asyncio.run(setup())
    printed = io.StringIO()
    with redirect_stdout(printed):
        status = storage_main(["audit", "--url", url])
    lines = printed.getvalue().splitlines()
    assert status == 0 and lines[0].startswith("chips sound")
    assert "house: balance -1000" in lines and "  paid 1000 for starting grant" in lines
    assert "computers: balance -5000" in lines and "  paid 5000 for computer bankroll" in lines


async def _random_games(seed: int, bots: int, humans: int) -> None:
    """Poker hands between people playing random moves and computer players, time-outs now
    and then, then everyone leaves or a moderator resets: the books stay exact."""
    rng = random.Random(seed)
    store = await open_memory_store()
    clock = Clock()
    try:
        core = make_core(store, clock=clock, seed=f"house-{seed}")
        people = ["ayse", "mehmet", "cem"][:humans]
        await core.handle(at(people[0], "/poker open turkish 10"))
        for user in people:
            await core.handle(at(user, f"/poker join {rng.randint(50, 400)}"))
        for _ in range(bots):
            await core.handle(at(people[0], f"/poker addbot {rng.randint(50, 400)}"))
        await core.handle(at(people[0], "/poker start"))
        for _ in range(120):
            session = live_session(core)
            if session is None or not session.running() or session.hand_no > 6:
                break
            actor = session.seats[session.actor()]
            if rng.random() < 0.1:
                await core.tick(clock.advance(61))
            elif not actor.bot:
                user, line = random_move(session, rng)
                await core.handle(at(user, line))
        if live_session(core) is not None and rng.random() < 0.5:
            await core.handle(cmd("mod", "/table reset done", mod=True, community="g1"))
        for user in people:
            await core.handle(at(user, "/poker leave"))
        assert await store.audit() == []
        issued = -(await store.balance(HOUSE)) - await store.balance(COMPUTERS)
        held = 0
        accounts = [("test", p) for p in [*people, "mod"]]
        accounts += [("bot", f"bot-{n}") for n in range(1, bots + 1)]
        for platform, user in accounts:
            player = await store.find_player(platform, user)
            held += 0 if player is None else await store.balance(wallet(player.id))
        session = live_session(core)
        if session is not None:
            held += await store.balance(escrow(session.table_id))
        assert held == issued
    finally:
        await store.close()


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), bots=st.integers(1, 3), humans=st.integers(1, 3))
def test_chips_are_conserved_with_computer_players(seed: int, bots: int, humans: int) -> None:
    asyncio.run(_random_games(seed, bots, humans))


async def test_a_buy_in_beyond_a_computers_bankroll_is_refused_as_the_computers(
    store: Store,
) -> None:
    core = make_core(store)
    await core.handle(at("ayse", "/poker open turkish 100"))
    out = await core.handle(at("ayse", "/poker addbot normal 6000"))
    assert errors(out) == [
        "The computer player does not have that many chips: ask for a smaller buy-in."
    ]
    assert await store.find_player("bot", "bot-1") is not None  # its wallet was settled...
    table = await core.handle(at("ayse", "/poker table"))
    assert "Bot" not in str(table)  # ...but it was not seated
    assert await store.audit() == []
