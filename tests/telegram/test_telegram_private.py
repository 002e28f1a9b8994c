"""Private tables on Telegram: `/table invite` as a reply or by @username, the deep link
`https://t.me/<bot>?start=<token>` that seats its user from the bot's private chat, and the
refusals of a non-invited player and of a used or forged link. The real core on SQLite, the
real PTB client, the fake Bot API; no token ever reaches the group."""

from __future__ import annotations

import json
import logging
import re
from typing import Any

import pytest

from storage import Store
from testkit.fakes.telegram_harness import telegram_bot
from testkit.fakes.telegram_server import FakeTelegram
from testkit.telegram_play import AYSE, GROUP, MEHMET, ZEYNEP, Table, make_core

LINK = re.compile(r"https://t\.me/(\w+)\?start=([A-Za-z0-9_-]+)")


def texts_to(server: FakeTelegram, chat: int) -> list[str]:
    return [str(c.params.get("text", "")) for c in server.sent_to(chat)]


def links_to(server: FakeTelegram, chat: int) -> list[str]:
    return [m.group(2) for text in texts_to(server, chat) for m in LINK.finditer(text)]


def reply(server: FakeTelegram, user: dict[str, Any], text: str, to: dict[str, Any]) -> Any:
    """A group message from `user` replying to `to`'s message (the fake keeps only the bot's
    own messages for replies)."""
    update = server.message_update(server.group(GROUP), user, text)
    original = server.message_update(server.group(GROUP), to, "hi")["message"]
    update["message"]["reply_to_message"] = original
    return update


def group_traffic(server: FakeTelegram) -> str:
    return json.dumps([c.params for c in server.calls if c.chat_id == GROUP], ensure_ascii=False)


async def test_invite_by_reply_and_by_deep_link(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    core = make_core(store, "tg-private")
    async with telegram_bot(core) as (server, bot):
        ayse = server.user(AYSE, "Ayşe", "en")
        mehmet = server.user(MEHMET, "Mehmet", "en")
        zeynep = server.user(ZEYNEP, "Zeynep", "en")
        users = {str(AYSE): ayse, str(MEHMET): mehmet, str(ZEYNEP): zeynep}
        server.started_users |= {AYSE, MEHMET}
        table = Table(server, bot, core, users)
        await table.command(ayse, "/okey start private")
        assert "Private table" in group_traffic(server)

        # not invited: refused, not seated
        await table.command(mehmet, "/okey join")
        assert [s.user_id for s in table.live().session.seats] == [str(AYSE)]
        assert any("This table is private" in t for t in texts_to(server, MEHMET))

        # invited by a reply to his message: he sits with the ordinary join
        await bot.feed(reply(server, ayse, "/table invite", mehmet))
        assert any("invited you to private table" in t for t in texts_to(server, MEHMET))
        await table.command(mehmet, "/okey join")
        assert [s.user_id for s in table.live().session.seats] == [str(AYSE), str(MEHMET)]

        # invited by @username: the opener gets the deep link privately
        await table.command(ayse, "/table invite @zeynep")
        (token,) = links_to(server, AYSE)[-1:]
        (bot_name,) = {m.group(1) for t in texts_to(server, AYSE) for m in LINK.finditer(t)}
        assert bot_name == bot.application.bot.username
        start = server.message_update(server.private_chat(zeynep), zeynep, f"/start {token}")
        await bot.feed(start)
        seats = [s.user_id for s in table.live().session.seats]
        assert seats == [str(AYSE), str(MEHMET), str(ZEYNEP)]

        # the link again (or by someone else): used once
        again = server.message_update(server.private_chat(mehmet), mehmet, f"/start {token}")
        await bot.feed(again)
        assert "already been used" in texts_to(server, MEHMET)[-1]
        forged = "A" * 40
        await bot.feed(
            server.message_update(server.private_chat(mehmet), mehmet, f"/start {forged}")
        )
        assert "not valid" in texts_to(server, MEHMET)[-1]
        # nothing of a token ever went to the group
        traffic = group_traffic(server)
        assert token not in traffic and "start=" + token not in traffic
        assert "Ayşe invited zeynep to this table." in traffic
        assert caplog.records and all(token not in r.getMessage() for r in caplog.records)


async def test_the_cards_link_still_only_starts_the_chat(store: Store) -> None:
    core = make_core(store, "tg-private-2")
    async with telegram_bot(core) as (server, bot):
        mehmet = server.user(MEHMET, "Mehmet", "en")
        await bot.feed(server.message_update(server.private_chat(mehmet), mehmet, "/start cards"))
        assert not any("invitation" in t for t in texts_to(server, MEHMET))
