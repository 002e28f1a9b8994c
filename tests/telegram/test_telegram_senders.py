"""Who plays on Telegram (issue 25): messages sent as a channel, by an anonymous group admin or
forwarded from a linked channel carry a shared stand-in user and are refused (asking the person
to write as themselves, in Turkish or English) with nothing changed; a group's administrators
are moderators for `/tournament start|cancel` (typed or the Start button) as on Discord. The
real python-telegram-bot client against the fake Bot API, on the real core and store."""

from __future__ import annotations

from typing import Any

import pytest

from bot.adapters.rooms import LateRooms
from bot.adapters.telegram.senders import CHANNEL_BOT, GROUP_ANONYMOUS_BOT, LINKED_CHANNEL
from testkit.fakes.telegram_harness import telegram_bot
from testkit.helpers import Clock
from tests.tournament.test_tournament_fronts import make_core

GROUP = -100321
CHANNEL = {"id": -100999, "type": "channel", "title": "Kanal"}
AYSE, MEHMET, ZEYNEP, ALI = 101, 202, 303, 404

STAND_INS = {
    # an administrator posting anonymously: the group itself is the sender
    "anonymous admin": (GROUP_ANONYMOUS_BOT, "group"),
    # a member posting as a channel they own
    "as a channel": (CHANNEL_BOT, "channel"),
    # a post of the linked channel, forwarded into its discussion group
    "linked channel": (LINKED_CHANNEL, "channel"),
}


def stand_in_update(server: Any, group: dict, kind: str, text: str) -> dict[str, Any]:
    user_id, sender = STAND_INS[kind]
    user = {"id": user_id, "is_bot": user_id != LINKED_CHANNEL, "first_name": "Stand-in"}
    update = server.message_update(group, user, text)
    update["message"]["sender_chat"] = group if sender == "group" else CHANNEL
    if kind == "linked channel":
        update["message"]["is_automatic_forward"] = True
    return update


@pytest.mark.parametrize("kind", list(STAND_INS))
@pytest.mark.parametrize("locale", ["en", "tr"])
async def test_a_stand_in_sender_is_refused_and_changes_nothing(memory_store, kind, locale):
    core = make_core(memory_store, Clock(), LateRooms(), "stand-ins")
    async with telegram_bot(core, locale=locale) as (server, bot):
        group = server.group(GROUP)
        for text in ("/poker open", "/daily", "/table reset"):
            await bot.feed(stand_in_update(server, group, kind, text))
        refusals = server.sent_to(GROUP)
        assert len(refusals) == 3
        wanted = "write as yourself" if locale == "en" else "kendi hesabınla yaz"
        assert all(wanted in r.params["text"] for r in refusals)
        assert server.calls_to("getChatMember") == []
    assert await memory_store.load_open_tables() == []
    for user_id in (GROUP_ANONYMOUS_BOT, CHANNEL_BOT, LINKED_CHANNEL):
        assert await memory_store.find_player("telegram", str(user_id)) is None  # no wallet


async def test_a_stand_in_cannot_answer_an_amount_prompt(memory_store):
    core = make_core(memory_store, Clock(), LateRooms(), "stand-in-reply")
    async with telegram_bot(core) as (server, bot):
        group = server.group(GROUP)
        bot.adapter.delivery.prompts[(GROUP, 77)] = ("1:bet:n1", AYSE)  # a prompt in the group
        update = stand_in_update(server, group, "anonymous admin", "40")
        update["message"]["reply_to_message"] = {
            "message_id": 77,
            "date": 1,
            "chat": group,
            "text": "Bet: pick an amount",
        }
        await bot.feed(update)
        [refusal] = server.sent_to(GROUP)
        assert "write as yourself" in refusal.params["text"]


async def open_tournament(server: Any, bot: Any) -> tuple[dict, dict[str, Any]]:
    """Ayşe opens an Okey tournament and four people register; returns the group and users."""
    group = server.group(GROUP)
    users = {
        name: server.user(uid, name, "en")
        for name, uid in (("ayse", AYSE), ("mehmet", MEHMET), ("zeynep", ZEYNEP), ("ali", ALI))
    }
    server.started_users.update(u["id"] for u in users.values())
    await bot.feed(server.message_update(group, users["ayse"], "/tournament okey 10 1"))
    for name in ("ayse", "zeynep", "ali", "mehmet"):
        await bot.feed(server.message_update(group, users[name], "/tournament join"))
    return group, users


async def test_a_group_admin_cancels_someone_elses_tournament(memory_store):
    core = make_core(memory_store, Clock(), LateRooms(), "admin-cancel")
    async with telegram_bot(core) as (server, bot):
        server.admins[GROUP] = {MEHMET}
        group, users = await open_tournament(server, bot)
        await bot.feed(server.message_update(group, users["zeynep"], "/tournament cancel"))
        assert (await memory_store.get_tournament(1)).status == "registering"  # not hers
        await bot.feed(server.message_update(group, users["mehmet"], "/tournament cancel"))
        assert (await memory_store.get_tournament(1)).status == "cancelled"


@pytest.mark.parametrize("how", ["typed", "button"])
async def test_a_group_admin_starts_someone_elses_tournament(memory_store, how):
    core = make_core(memory_store, Clock(), LateRooms(), "admin-start")
    async with telegram_bot(core) as (server, bot):
        server.admins[GROUP] = {MEHMET}
        group, users = await open_tournament(server, bot)
        registration = server.messages_sent_ids(GROUP)[0]
        start = next(
            b["callback_data"]
            for row in server.last_keyboard(GROUP, registration)
            for b in row
            if ":start:" in b["callback_data"]
        )

        async def start_by(name: str) -> None:
            if how == "typed":
                await bot.feed(server.message_update(group, users[name], "/tournament start"))
            else:
                await bot.feed(server.press_update(users[name], GROUP, registration, start))

        await start_by("zeynep")
        assert (await memory_store.get_tournament(1)).status == "registering"  # not hers
        await start_by("mehmet")
        assert (await memory_store.get_tournament(1)).status == "running"
