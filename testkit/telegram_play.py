"""Players for the Telegram game tests: they act only as Telegram users can (commands in the
group, presses on the table message, the amount prompt, the private draw picker), and checks that
no hidden card reaches the group."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

from bot.core.app import Core
from bot.core.config import CoreConfig
from bot.core.table.fairness import SeededSource
from storage import Store
from testkit.fakes.cards import cards_in
from testkit.fakes.telegram_harness import Harness
from testkit.fakes.telegram_server import Call, FakeTelegram

GROUP = -100777
AYSE, MEHMET, ZEYNEP = 101, 202, 303
SHOWDOWN_HEADERS = ("Showdown:", "Kartlar açılıyor:")


class Clock:
    """The core's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def make_core(store: Store, seed: str, clock: Clock | None = None) -> Core:
    """A core on `store` with repeatable shuffles and a hand-moved clock (`clock`, or a new one)."""
    return Core(
        store, CoreConfig(default_locale="en"), clock=clock or Clock(), seeds=SeededSource(seed)
    )


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
        """The core's open table in the group (None when there is none)."""
        return self.core.tables.in_channel("telegram", str(GROUP))

    def message_id(self) -> int:
        """The id of the table's message in the group."""
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
        """Press a button (callback data) on a message as `user`."""
        await self.bot.feed(self.server.press_update(user, chat, message, data))

    async def command(self, user: dict[str, Any], text: str) -> None:
        """Type a command in the group as `user`."""
        await self.bot.feed(self.server.message_update(self.server.group(GROUP), user, text))

    async def play(self, user: dict[str, Any], action: str, rng: random.Random) -> None:
        """Press `action` on the table message, completing an amount or a draw like a person."""
        server = self.server
        before = len(server.calls)
        table_message = self.message_id()
        data = self.buttons()[action]["callback_data"]
        await self.press(user, GROUP, table_message, data)
        new_messages = [c for c in server.calls[before:] if c.method == "sendMessage" and c.ok]
        # The amount prompt: in the player's private chat, or in the group if they never started it.
        prompts = [
            (chat, message_id)
            for (chat, message_id), (custom_id, who) in self.bot.adapter.delivery.prompts.items()
            if chat in (GROUP, user["id"]) and who == user["id"] and custom_id == data
        ]
        if prompts:
            chat, prompt_id = prompts[-1]
            sizes = [b for row in server.last_keyboard(chat, prompt_id) for b in row]
            if rng.random() < 0.3:  # type it as a reply instead
                amount = sizes[0]["callback_data"].split("|")[1]
                where = server.group(GROUP) if chat == GROUP else server.private_chat(user)
                await self.bot.feed(server.message_update(where, user, amount, reply_to=prompt_id))
            else:
                await self.press(user, chat, prompt_id, sizes[0]["callback_data"])
            return
        picker = next((c for c in new_messages if "|~" in all_data(c)), None)
        if picker is not None:
            picker_id = server.messages_sent_ids(user["id"])[-1]
            keyboard = server.last_keyboard(user["id"], picker_id)
            for button in rng.sample(keyboard[0], rng.randint(0, 2)):
                await self.press(user, user["id"], picker_id, button["callback_data"])
            confirm = server.last_keyboard(user["id"], picker_id)[-1][0]
            await self.press(user, user["id"], picker_id, confirm["callback_data"])


async def seat_and_start(table: Table, ayse: dict[str, Any], mehmet: dict[str, Any]) -> None:
    """Ayşe opens a Türk pokeri table (ante 10), both sit down with 200 and Mehmet deals."""
    await table.command(ayse, "/poker open turkish 10")
    await table.command(ayse, "/poker join 200")
    await table.command(mehmet, "/poker join 200")
    await table.command(mehmet, "/poker start")


def adapter_group_calls(calls: list[Call]) -> list[Call]:
    """The group calls among `calls` that are not the core's announcements (a new message with
    no buttons): table posts and edits, prompts, deletions."""
    return [
        c
        for c in calls
        if c.chat_id == GROUP
        and not (c.method == "sendMessage" and not c.params.get("reply_markup"))
    ]


def all_data(call: Call) -> str:
    """The callback data of every button a call sent, space separated."""
    rows = (call.params.get("reply_markup") or {}).get("inline_keyboard", [])
    return " ".join(b.get("callback_data", "") for row in rows for b in row)


PREFERENCE = ("call", "check", "open", "pass", "draw", "pat", "bet", "raise", "fold")


def turkish_hidden(session: Any) -> set[str]:
    """Every card in a Türk pokeri hand still being played."""
    return {c for i in range(len(session.in_hand)) for c in session.engine.view(i)["hand"]}


def acik_hidden(session: Any) -> set[str]:
    """The down cards of an Açık poker hand still being played."""
    downs = (session.engine.view(i)["down"] for i in range(len(session.in_hand)))
    return {c for c in downs if c}


async def play_poker(
    table: Table, users: dict[str, Any], rng: random.Random, hidden_of: Any, hands: int
) -> int:
    """Play by buttons until `hands` hands were dealt or nobody can act; after every step no
    hidden card may have reached the group. Returns the number of steps."""
    server, steps = table.server, 0
    session = table.live().session
    while session.hand_no < hands and steps < 200:
        session = table.live().session
        index = session.actor()
        if index is None:
            break
        seat = session.seats[index]
        hidden = hidden_of(session)
        buttons = table.buttons()
        choices = [a for a in PREFERENCE if a in buttons]
        action = choices[0] if rng.random() < 0.8 else rng.choice(choices)
        before = len(server.calls)
        await table.play(users[seat.user_id], action, rng)
        assert group_leaks(server.calls[before:], hidden) == [], (action, steps)
        steps += 1
    return steps
