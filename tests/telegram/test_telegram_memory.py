"""Closed tables are forgotten (issue 25): after tables are opened, dealt and reset in several
groups through the real core and the fake Bot API, `TelegramAdapter.prune` leaves nothing of
them in the adapter's maps (table messages, chats, live buttons, players' private messages);
per-user maps are bounded."""

from __future__ import annotations

from bot.adapters.telegram.delivery import MAX_USERS
from storage import Store
from testkit.fakes.telegram_harness import telegram_bot
from testkit.telegram_play import AYSE, MEHMET, make_core

GROUPS = [-100_900 - i for i in range(4)]


async def test_closed_tables_leave_nothing_behind(store: Store) -> None:
    core = make_core(store, "memory")
    async with telegram_bot(core) as (server, bot):
        ayse, mehmet = server.user(AYSE, "Ayşe", "en"), server.user(MEHMET, "Mehmet", "en")
        for user in (ayse, mehmet):  # both get their cards in the private chat
            await bot.feed(server.message_update(server.private_chat(user), user, "/start"))
        for chat in GROUPS:
            server.admins[chat] = {AYSE}
            group = server.group(chat)
            for user, line in (
                (ayse, "/poker open turkish 10"),
                (ayse, "/poker join 200"),
                (mehmet, "/poker join 200"),
                (mehmet, "/poker start"),
            ):
                await bot.feed(server.message_update(group, user, line))
        delivery = bot.adapter.delivery
        assert delivery is not None
        assert len(delivery.tables) == len(GROUPS) and delivery.private.shown
        assert bot.adapter.prune() == 0  # every table still plays: nothing forgotten
        for chat in GROUPS:
            await bot.feed(server.message_update(server.group(chat), ayse, "/table reset"))
        assert core.tables.tables == {}
        assert bot.adapter.prune() == len(GROUPS)
        assert delivery.tables == {}
        assert delivery.table_chats == {}
        assert delivery.live_buttons == {}
        assert delivery.private.shown == {}
        assert not list(delivery.buttons)
        assert bot.adapter.pickers == {}


async def test_per_user_maps_are_bounded(store: Store) -> None:
    core = make_core(store, "memory")
    async with telegram_bot(core) as (_server, bot):
        delivery = bot.adapter.delivery
        assert delivery is not None
        for user in range(MAX_USERS + 50):
            delivery.saw_user(user, f"user {user}", "en")
            delivery.private.refused(user)
        assert len(delivery.names) == len(delivery.locales) == MAX_USERS
        assert len(delivery.private.unreachable) == MAX_USERS
        assert delivery.names.get(MAX_USERS + 49) == f"user {MAX_USERS + 49}"
        assert delivery.names.get(0) is None  # the least recent went first
