"""The house's two accounts (`HOUSE` issues grants, `COMPUTERS` funds computer players), their
report by reason, and what a community's limits count (issue 25)."""

from __future__ import annotations

import asyncio

import pytest

from storage import COMPUTERS, HOUSE, InvalidRequest, NotFound, Store, escrow, wallet


async def test_computers_may_go_below_zero_and_the_books_still_add_up(store: Store) -> None:
    bot = await store.player("bot", "bot-1", "Bot 1")
    await store.transfer(COMPUTERS, wallet(bot.id), 5000, "computer bankroll")
    await store.transfer(wallet(bot.id), COMPUTERS, 300, "computer winnings")
    assert await store.balance(COMPUTERS) == -4700
    assert await store.audit() == []


async def test_settling_a_computer_wallet_tops_it_up_or_takes_winnings_back(store: Store) -> None:
    bot = await store.player("bot", "bot-1", "Bot 1")
    assert await store.settle_bankroll(bot.id, 5000) == 5000  # a new wallet: topped up
    await store.transfer(wallet(bot.id), HOUSE, 2500, "test: it lost")
    assert await store.settle_bankroll(bot.id, 5000) == 2500  # half of it or more: left alone
    await store.transfer(wallet(bot.id), HOUSE, 1, "test: it lost")
    assert await store.settle_bankroll(bot.id, 5000) == 5000  # below half: topped up
    await store.transfer(HOUSE, wallet(bot.id), 5001, "test: it won")
    assert await store.settle_bankroll(bot.id, 5000) == 5000  # beyond twice: the rest back
    report = {flows.account: flows for flows in await store.house_report()}
    assert report[COMPUTERS].paid == {"computer bankroll": 5000 + 2501}
    assert report[COMPUTERS].taken == {"computer winnings": 5001}
    assert await store.audit() == []


async def test_settling_the_wallet_of_nobody_or_with_no_bankroll_is_refused(store: Store) -> None:
    with pytest.raises(NotFound):
        await store.settle_bankroll(99, 5000)
    bot = await store.player("bot", "bot-1", "Bot 1")
    for bankroll in (0, -5, True):
        with pytest.raises(InvalidRequest):
            await store.settle_bankroll(bot.id, bankroll)
    assert await store.balance(wallet(bot.id)) == 0 and await store.audit() == []


async def test_settling_a_wallet_at_once_from_two_stores_moves_chips_once(
    stores: list[Store],
) -> None:
    """Each settlement reads the balance under the wallet's lock: of 40 at once (two stores on
    one database, as two processes have) the first takes the winnings back and the rest find
    the wallet at its bankroll, with buy-ins racing them."""
    bot = await stores[0].player("bot", "bot-1", "Bot 1")
    await stores[0].transfer(HOUSE, wallet(bot.id), 20_000, "test: it won a lot")
    table = await stores[0].create_table("test", "c1", "okey", {}, {})
    jobs = [stores[n % 2].settle_bankroll(bot.id, 5000) for n in range(40)]
    jobs += [stores[n % 2].buy_in(table.id, bot.id, 10) for n in range(20)]
    await asyncio.gather(*jobs)
    assert await stores[1].balance(wallet(bot.id)) == 5000 - 20 * 10
    report = {flows.account: flows for flows in await stores[1].house_report()}
    assert report[COMPUTERS].taken == {"computer winnings": 15_000}
    assert report[COMPUTERS].paid == {}
    assert await stores[0].audit() == []


async def test_the_house_report_groups_reasons(store: Store) -> None:
    ayse = await store.player("test", "ayse", "Ayse")
    await store.transfer(HOUSE, wallet(ayse.id), 1000, "starting grant")
    await store.transfer(HOUSE, wallet(ayse.id), 100, "daily grant")
    table = await store.create_table("test", "c1", "okey", {}, {})
    await store.transfer(HOUSE, escrow(table.id), 70, "test: chips on the table")
    await store.reset_table(table.id, ayse.id, "spam")  # nobody paid in: back to the house
    report = {flows.account: flows for flows in await store.house_report()}
    house = report[HOUSE]
    assert house.balance == -1100
    assert house.paid == {"starting grant": 1000, "daily grant": 100, "test": 70}
    assert house.taken == {"reset": 70}
    assert house.lines()[:2] == ["house: balance -1100", "  paid 100 for daily grant"]
    assert report[COMPUTERS].balance == 0 and report[COMPUTERS].paid == {}


async def test_a_communitys_open_tables_and_tournaments_are_counted(store: Store) -> None:
    await store.create_table("test", "c1", "okey", {}, {"seats": []}, community="g1")
    await store.create_table("test", "c2", "okey", {}, {"seats": []}, community="g1")
    await store.create_table("test", "c3", "okey", {}, {"seats": []}, community="g2")
    await store.create_table("test", "c4", "okey", {}, {"seats": []}, community="g1", tournament=9)
    await store.create_tournament("test", "c1", "okey", {}, community="g1")
    assert await store.community_table_count("test", "g1") == 2  # the tournament's not counted
    assert [t.channel_id for t in await store.community_tables("test", "g1")] == ["c1", "c2"]
    assert await store.community_table_count("telegram", "g1") == 0
    assert await store.community_tournaments("test", "g1") == 1
    assert await store.community_tournaments("test", "g2") == 0
