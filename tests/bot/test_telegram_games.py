"""Whole games through Telegram: the real core on SQLite, the real PTB client, the fake Bot API.

Players act only as Telegram users can: commands typed in the group, presses on the table
message's buttons, the amount prompt, the draw picker in the private chat. After every step the
test checks that no hidden card reached the group (in any request, sent or refused) before the
showdown, and that every button press was answered.
"""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.adapters.telegram.pickers import cards_in
from bot.core.app import Core
from bot.core.config import CoreConfig
from bot.core.fairness import SeededSource
from storage import Store
from tests.fakes.telegram_harness import Harness, telegram_bot
from tests.fakes.telegram_server import Call, FakeTelegram

GROUP = -100777
AYSE, MEHMET, ZEYNEP = 101, 202, 303
SHOWDOWN_HEADERS = ("Showdown:", "Kartlar açılıyor:")


class Clock:
    """The core's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
async def store(tmp_path):
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path}/bot.db")
    yield store
    await store.close()


def make_core(store: Store, seed: str) -> Core:
    return Core(store, CoreConfig(default_locale="en"), clock=Clock(), seeds=SeededSource(seed))


def without_showdown(text: str) -> str:
    """Text minus showdown blocks (cards shown there are public by rule)."""
    kept, inside = [], False
    for line in text.splitlines():
        if line.strip() in SHOWDOWN_HEADERS:
            inside = True
            continue
        if inside and line.startswith("  "):
            continue
        inside = False
        kept.append(line)
    return "\n".join(kept)


def group_leaks(calls: list[Call], hidden: set[str]) -> list[str]:
    """Hidden cards named in any request to the group among `calls`."""
    found: list[str] = []
    for call in calls:
        if call.chat_id == GROUP:
            found += [c for c in cards_in(without_showdown(call.visible_text())) if c in hidden]
    return found


class Table:
    """Finds the table message and plays its buttons as the right user."""

    def __init__(self, server: FakeTelegram, bot: Harness, core: Core, users: dict[str, Any]):
        self.server, self.bot, self.core, self.users = server, bot, core, users

    def live(self) -> Any:
        return self.core.tables.in_channel("telegram", str(GROUP))

    def message_id(self) -> int:
        live = self.live()
        return self.bot.adapter.delivery.tables[str(live.id)].message_id

    def buttons(self) -> dict[str, dict[str, Any]]:
        """The table message's buttons by action word."""
        out = {}
        for row in self.server.last_keyboard(GROUP, self.message_id()):
            for button in row:
                out[button["callback_data"].split(":")[1]] = button
        return out

    async def press(self, user: dict[str, Any], chat: int, message: int, data: str) -> None:
        await self.bot.feed(self.server.press_update(user, chat, message, data))

    async def command(self, user: dict[str, Any], text: str) -> None:
        await self.bot.feed(self.server.message_update(self.server.group(GROUP), user, text))

    async def play(self, user: dict[str, Any], action: str, rng: random.Random) -> None:
        """Press `action` on the table message, completing an amount or a draw like a person."""
        server = self.server
        before = len(server.calls)
        table_message = self.message_id()
        data = self.buttons()[action]["callback_data"]
        await self.press(user, GROUP, table_message, data)
        new_messages = [c for c in server.calls[before:] if c.method == "sendMessage" and c.ok]
        prompt_ids = [
            message_id
            for (chat, message_id), (custom_id, who) in self.bot.adapter.delivery.prompts.items()
            if chat == GROUP and who == user["id"] and custom_id == data
        ]
        if prompt_ids:
            prompt_id = prompt_ids[-1]
            sizes = [b for row in server.last_keyboard(GROUP, prompt_id) for b in row]
            if rng.random() < 0.3:  # type it as a reply instead
                amount = sizes[0]["callback_data"].split("|")[1]
                await self.bot.feed(
                    server.message_update(server.group(GROUP), user, amount, reply_to=prompt_id)
                )
            else:
                await self.press(user, GROUP, prompt_id, sizes[0]["callback_data"])
            return
        picker = next((c for c in new_messages if "|~" in _all_data(c)), None)
        if picker is not None:
            picker_id = server.messages_sent_ids(user["id"])[-1]
            keyboard = server.last_keyboard(user["id"], picker_id)
            for button in rng.sample(keyboard[0], rng.randint(0, 2)):
                await self.press(user, user["id"], picker_id, button["callback_data"])
            confirm = server.last_keyboard(user["id"], picker_id)[-1][0]
            await self.press(user, user["id"], picker_id, confirm["callback_data"])


def _first_data(call: Call) -> str:
    rows = (call.params.get("reply_markup") or {}).get("inline_keyboard", [])
    return rows[0][0].get("callback_data", "") if rows and rows[0] else ""


def _all_data(call: Call) -> str:
    rows = (call.params.get("reply_markup") or {}).get("inline_keyboard", [])
    return " ".join(b.get("callback_data", "") for row in rows for b in row)


PREFERENCE = ("call", "check", "open", "pass", "draw", "pat", "bet", "raise", "fold")


async def test_turkish_poker_whole_game_through_telegram(store):
    core = make_core(store, "telegram-turkish")
    rng = random.Random(7)
    async with telegram_bot(core) as (server, bot):
        ayse, mehmet = server.user(AYSE, "Ayşe", "en"), server.user(MEHMET, "Mehmet", "en")
        users = {str(AYSE): ayse, str(MEHMET): mehmet}
        server.started_users.add(AYSE)  # Mehmet has never started the bot
        table = Table(server, bot, core, users)
        await table.command(ayse, "/poker open turkish 10")
        await table.command(ayse, "/poker join 200")
        await table.command(mehmet, "/poker_join 200")
        await table.command(mehmet, "/poker start")

        # Mehmet's cards could not be sent: the group got a deep link, not the cards.
        session = table.live().session
        assert session.hand_no == 1
        link = [c for c in server.sent_to(GROUP) if "start=cards" in str(c.params)]
        assert len(link) == 1 and "Mehmet" in link[0].params["text"]
        hidden = {c for i in range(len(session.in_hand)) for c in session.engine.view(i)["hand"]}
        assert len(hidden) == 10
        assert group_leaks(server.calls, hidden) == []
        assert server.sent_to(AYSE)[-1].params["text"].startswith("Your cards:")
        assert not [c for c in server.sent_to(MEHMET, delivered=True)]

        # Mehmet presses Start: his cards arrive and play goes on.
        await bot.feed(server.message_update(server.private_chat(mehmet), mehmet, "/start cards"))
        mine = [c.params["text"] for c in server.sent_to(MEHMET)]
        assert any(text.startswith("Your cards:") for text in mine)

        steps = 0
        while session.hand_no < 5 and steps < 200:
            live = table.live()
            session = live.session
            index = session.actor()
            if index is None:
                break
            seat = session.seats[index]
            hidden = {
                c for i in range(len(session.in_hand)) for c in session.engine.view(i)["hand"]
            }
            buttons = table.buttons()
            choices = [a for a in PREFERENCE if a in buttons]
            action = choices[0] if rng.random() < 0.8 else rng.choice(choices)
            before = len(server.calls)
            await table.play(users[seat.user_id], action, rng)
            assert group_leaks(server.calls[before:], hidden) == [], (action, steps)
            steps += 1
        session = table.live().session
        # Five hands, unless someone lost every chip first (then nobody can act).
        assert session.hand_no >= 5 or min(session.chips.values()) == 0, steps
        assert session.hand_no >= 2 and steps >= 8
        # Amounts went in by the prompt's buttons and by typed replies; draws by the picker.
        presses = [p for p in server.calls_to("answerCallbackQuery")]
        assert len(presses) >= steps
        typed = [c for c in server.calls if c.method == "deleteMessage"]
        assert typed, "no amount prompt was used"
        assert any("|=" in str(a) for a in server.calls_to("editMessageReplyMarkup")) or any(
            c.chat_id in (AYSE, MEHMET) and "|~" in _all_data(c) for c in server.calls
        ), "no draw picker was used"
        assert not server.open_callbacks  # every press was answered
        refused = [a for a in server.answered_callbacks.values() if a.get("show_alert")]
        assert refused == [], refused
        replies = [c for c in server.calls_to("sendMessage") if "reply_parameters" in c.params]
        assert replies == []  # no typed amount was refused either
        # Edits are coalesced: never two identical edits in a row of one message.
        edits = [c for c in server.calls_to("editMessageText") if c.chat_id == GROUP]
        pairs = itertools.pairwise(edits)
        assert all(
            (a.params["message_id"], a.params["text"], a.params.get("reply_markup"))
            != (b.params["message_id"], b.params["text"], b.params.get("reply_markup"))
            for a, b in pairs
        )


async def test_wrong_player_and_forged_presses_are_refused_privately(store):
    core = make_core(store, "telegram-refusals")
    async with telegram_bot(core) as (server, bot):
        ayse, mehmet = server.user(AYSE, "Ayşe", "en"), server.user(MEHMET, "Mehmet", "en")
        zeynep = server.user(ZEYNEP, "Zeynep", "en")
        server.started_users |= {AYSE, MEHMET}
        users = {str(AYSE): ayse, str(MEHMET): mehmet}
        table = Table(server, bot, core, users)
        await table.command(ayse, "/poker open turkish 10")
        await table.command(ayse, "/poker join 200")
        await table.command(mehmet, "/poker join 200")
        await table.command(mehmet, "/poker start")
        session = table.live().session
        version = table.live().version
        actor = session.seats[session.actor()].user_id
        other = mehmet if actor == str(AYSE) else ayse
        buttons = table.buttons()
        group_before = len(server.sent_to(GROUP))
        data = next(iter(buttons.values()))["callback_data"]
        await table.press(other, GROUP, table.message_id(), data)  # not their turn
        await table.press(zeynep, GROUP, table.message_id(), data)  # not even seated
        table_id, action, _nonce = data.split("|")[0].split(":")
        for forged in [f"{table_id}:{action}:deadbeef", f"999:{action}:x", "x:y", "🂡"]:
            await table.press(other, GROUP, table.message_id(), forged)
        answers = list(server.answered_callbacks.values())
        assert len(answers) == 6 and not server.open_callbacks
        assert all(a["show_alert"] and a["text"] for a in answers)
        assert len(server.sent_to(GROUP)) == group_before  # refusals never reach the group
        assert table.live().version == version  # nothing changed


async def test_admins_reset_a_table_and_others_cannot(store):
    core = make_core(store, "telegram-reset")
    async with telegram_bot(core) as (server, bot):
        ayse, mehmet = server.user(AYSE, "Ayşe", "en"), server.user(MEHMET, "Mehmet", "en")
        zeynep = server.user(ZEYNEP, "Zeynep", "en")
        server.started_users |= {AYSE, MEHMET}
        server.admins[GROUP] = {ZEYNEP}
        table = Table(server, bot, core, {})
        await table.command(ayse, "/poker open turkish 10")
        await table.command(ayse, "/poker join 200")
        await table.command(mehmet, "/poker join 200")
        await table.command(mehmet, "/poker start")
        await table.command(ayse, "/table reset")
        refusal = server.sent_to(GROUP)[-1]
        assert "reply_parameters" in refusal.params  # a reply to Ayşe's command
        assert table.live() is not None
        await table.command(zeynep, "/table_reset cheating suspected")
        assert table.live() is None
        assert "reset" in server.sent_to(GROUP)[-1].params["text"].lower()
        assert [c.params["user_id"] for c in server.calls_to("getChatMember")] == [AYSE, ZEYNEP]


async def seat_and_start(table: Table, ayse: dict[str, Any], mehmet: dict[str, Any]) -> None:
    await table.command(ayse, "/poker open turkish 10")
    await table.command(ayse, "/poker join 200")
    await table.command(mehmet, "/poker join 200")
    await table.command(mehmet, "/poker start")


async def test_turn_timer_output_reaches_the_group(store):
    clock = Clock()
    core = Core(store, CoreConfig(default_locale="en"), clock=clock, seeds=SeededSource("afk"))
    async with telegram_bot(core) as (server, bot):
        ayse, mehmet = server.user(AYSE, "Ayşe", "en"), server.user(MEHMET, "Mehmet", "en")
        server.started_users |= {AYSE, MEHMET}
        table = Table(server, bot, core, {})
        await seat_and_start(table, ayse, mehmet)
        session = table.live().session
        actor = session.seats[session.actor()].name
        nonce = session.nonce
        message = table.message_id()
        before = len(server.calls)
        clock.now = clock.now.replace(hour=13)
        await bot.adapter.deliver(await core.tick(clock.now))
        assert table.live().session.nonce != nonce
        said = "\n".join(c.visible_text() for c in server.calls[before:] if c.chat_id == GROUP)
        assert f"{actor} took too long" in said
        assert table.message_id() == message  # the same table message was edited


async def test_after_a_restart_the_table_is_posted_again_and_play_goes_on(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path}/bot.db"
    server = FakeTelegram()
    server.started_users |= {AYSE, MEHMET}
    first_store = await Store.open(url)
    async with telegram_bot(make_core(first_store, "restart"), server=server) as (_, bot):
        ayse, mehmet = server.user(AYSE, "Ayşe", "en"), server.user(MEHMET, "Mehmet", "en")
        table = Table(server, bot, bot.adapter.core, {})
        await seat_and_start(table, ayse, mehmet)
    await first_store.close()

    store = await Store.open(url)
    try:
        core = make_core(store, "restart-2")
        async with telegram_bot(core, server=FakeTelegram()) as (server2, bot2):
            server2.started_users |= {AYSE, MEHMET}
            ayse, mehmet = server2.user(AYSE, "Ayşe", "en"), server2.user(MEHMET, "Mehmet", "en")
            await bot2.adapter.deliver(await core.start())
            table = Table(server2, bot2, core, {})
            resumed = "\n".join(c.visible_text() for c in server2.sent_to(GROUP))
            assert "To act:" in resumed and "is back" in resumed
            assert table.message_id() in server2.messages_sent_ids(GROUP)
            session = table.live().session
            user = {str(AYSE): ayse, str(MEHMET): mehmet}[session.seats[session.actor()].user_id]
            nonce = session.nonce
            action = next(a for a in ("pass", "check", "call", "fold") if a in table.buttons())
            await table.play(user, action, random.Random(1))
            assert table.live().session.nonce != nonce
            assert all(not a.get("show_alert") for a in server2.answered_callbacks.values())
    finally:
        await store.close()
