"""The house's two accounts (`HOUSE` issues grants, `COMPUTERS` funds computer players), their
report by reason, and what a community's limits count (issue 25)."""

from __future__ import annotations

from storage import COMPUTERS, HOUSE, Store, escrow, wallet


async def test_computers_may_go_below_zero_and_the_books_still_add_up(store: Store) -> None:
    bot = await store.player("bot", "bot-1", "Bot 1")
    await store.transfer(COMPUTERS, wallet(bot.id), 5000, "computer bankroll")
    await store.transfer(wallet(bot.id), COMPUTERS, 300, "computer winnings")
    assert await store.balance(COMPUTERS) == -4700
    assert await store.audit() == []


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
