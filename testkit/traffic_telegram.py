"""The traffic benchmark's Telegram: the real python-telegram-bot Application, built as production
builds it (`build_application`, PTB's `AIORateLimiter` with its real limits: about 20 requests a
minute per group, 30 a second overall), updates dispatched by PTB's own update fetcher and the
adapter's per-chat update processor, every request over real HTTP to the fake Bot API server
(`testkit/fakes/telegram_server.py`), which stamps each call with the loop's time."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from typing import Any

from telegram import Update
from telegram.ext import AIORateLimiter

from bot.adapters.telegram import TelegramAdapter, build_application
from testkit.fakes.telegram_server import Call, FakeTelegram
from testkit.traffic_play import QUICK, GameSpec, Seen, changed, is_reaction, loop_time
from testkit.traffic_stats import Traffic, worst_window

GROUP = -100555
WRITES = {
    "sendMessage",
    "sendPhoto",
    "editMessageText",
    "editMessageCaption",
    "editMessageMedia",
    "editMessageReplyMarkup",
    "deleteMessage",
}
NEW = {"sendMessage", "sendPhoto"}
ANSWER_TIMEOUT = 60.0  # Telegram itself gives up on a callback answer after about 15 s
SETTLE_QUIET = 5.0  # seconds without a request that mean the queues are empty


class _StampedCalls(list[Call]):
    """The fake server's call log, each call stamped with the loop's time when it arrived."""

    def append(self, call: Call) -> None:
        call.at = loop_time()  # type: ignore[attr-defined]
        super().append(call)


class TimedTelegram(FakeTelegram):
    """The fake Bot API server, noting when each callback query is answered."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.calls = _StampedCalls()
        self.answered_at: dict[str, float] = {}

    async def _m_answerCallbackQuery(self, params: dict[str, Any]) -> bool:
        self.answered_at.setdefault(str(params["callback_query_id"]), loop_time())
        return await super()._m_answerCallbackQuery(params)


class TelegramSurface:
    """One group with the bot, its players, and the traffic counted from the deal on."""

    platform = "telegram"

    def __init__(self, core: Any, names: list[str]) -> None:
        self.core = core
        self.names = names
        self.server = TimedTelegram()
        self.users: dict[str, dict[str, Any]] = {}
        self.application: Any = None
        self.traffic = Traffic("telegram", "")
        self._from = 0  # index of the first counted call

    async def __aenter__(self) -> TelegramSurface:
        await self.server.start()
        limiter = AIORateLimiter(max_retries=3)  # what `build_application` uses by default
        self.application = build_application(self.server.token, self.server.base_url, limiter)
        adapter = TelegramAdapter(self.core, default_locale="en", clock=loop_time)
        adapter.install(self.application)
        await self.application.initialize()
        await self.application.start()  # PTB's update fetcher, fed through its update queue
        for index, name in enumerate(self.names):
            user = self.server.user(101 + index, name, "en")
            self.users[str(user["id"])] = user
        self.server.started_users |= {u["id"] for u in self.users.values()}
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.application.stop()
        await self.application.shutdown()
        await self.server.stop()

    # ---- typing and pressing -----------------------------------------------------------------
    async def _feed(self, update: dict[str, Any]) -> None:
        await self.application.update_queue.put(Update.de_json(update, self.application.bot))

    async def command(self, user: dict[str, Any], text: str) -> None:
        """Type a command in the group and wait until the bot has done with it."""
        await self._feed(self.server.message_update(self.server.group(GROUP), user, text))
        await self.settle()

    async def press(self, user: dict[str, Any], chat_id: int, message_id: int, data: str) -> bool:
        """Press a button and wait for its answer; False when it was refused (an alert)."""
        update = self.server.press_update(user, chat_id, message_id, data)
        query_id = update["callback_query"]["id"]
        sent = loop_time()
        await self._feed(update)
        self.traffic.presses += 1
        deadline = sent + ANSWER_TIMEOUT
        while query_id not in self.server.answered_at and loop_time() < deadline:
            await asyncio.sleep(0.05)
        answered = self.server.answered_at.get(query_id)
        if answered is None:
            self.traffic.unanswered += 1
            return False
        self.traffic.answers.append(answered - sent)
        return not self.server.answered_callbacks.get(query_id, {}).get("show_alert", False)

    # ---- reactions (issue 37) ----------------------------------------------------------------
    @staticmethod
    def user_id(user: dict[str, Any]) -> str:
        return str(user["id"])

    async def open_reactions(self, user: dict[str, Any]) -> Any:
        """Press `😀` on the table message: where the reactions picker came (its chat, message,
        table and nonce), or None (no such button now, or no picker came)."""
        for message_id, button in self._buttons(GROUP):
            parts = button["callback_data"].split(":")
            if len(parts) != 3 or parts[1] != "r":
                continue
            before = set(self.server.messages_sent_ids(user["id"]))
            await self.press(user, GROUP, message_id, button["callback_data"])
            deadline = loop_time() + 10.0
            while loop_time() < deadline:
                new = [m for m in self.server.messages_sent_ids(user["id"]) if m not in before]
                if new:
                    return (user["id"], new[-1], parts[0], parts[2])
                await asyncio.sleep(0.1)
            return None
        return None

    async def react(self, user: dict[str, Any], picker: Any, reaction: Any) -> bool:
        """Press one reaction in the user's picker; False when refused."""
        chat, message_id, table, nonce = picker
        return await self.press(user, chat, message_id, f"{table}:r.{reaction.value}:{nonce}")

    # ---- what players see --------------------------------------------------------------------
    def session(self) -> Any:
        live = self.core.tables.in_channel("telegram", str(GROUP))
        return None if live is None else live.session

    def _buttons(self, chat_id: int) -> list[tuple[int, dict[str, Any]]]:
        """(message id, button) of every callback button on the chat's messages, newest first."""
        out = []
        for message_id in reversed(self.server.messages_sent_ids(chat_id)):
            for row in self.server.last_keyboard(chat_id, message_id):
                out += [(message_id, b) for b in row if b.get("callback_data")]
        return out

    def seen(self, user_id: str, private: bool, nonce: str) -> list[Seen]:
        chat = int(user_id) if private else GROUP
        found: dict[str, Seen] = {}
        for message_id, button in self._buttons(chat):
            data = button["callback_data"]
            parts = data.split(":")
            if "|" in data or len(parts) != 3 or parts[2] != nonce or is_reaction(parts[1]):
                continue
            found.setdefault(parts[1], Seen(parts[1], (chat, message_id, data)))
        return list(found.values())

    def _follow_up(self, chat_ids: tuple[int, ...], prefix: str) -> list[tuple[int, int, str]]:
        """(chat, message, data) of buttons whose data starts with `prefix` (amounts, picker)."""
        return [
            (chat, message_id, b["callback_data"])
            for chat in chat_ids
            for message_id, b in self._buttons(chat)
            if b["callback_data"].startswith(prefix)
        ]

    async def act(self, user_id: str, button: Seen, rng: random.Random) -> bool:
        user = self.users[user_id]
        chat, message_id, data = button.handle
        nonce = data.split(":")[2]
        if not await self.press(user, chat, message_id, data):
            return False
        # Played, or the button asks for more: an amount prompt, or the draw picker.
        deadline = loop_time() + 30.0
        while True:
            session = self.session()
            if session is None or session.nonce != nonce:
                return True
            amounts = [
                a
                for a in self._follow_up((GROUP, user["id"]), data + "|")
                if not a[2].startswith((data + "|~", data + "|="))
            ]
            picks = self._follow_up((user["id"],), data + "|~")
            if amounts or picks:
                break
            if loop_time() > deadline:
                return False
            await asyncio.sleep(0.05)
        await asyncio.sleep(rng.uniform(*QUICK))
        if amounts:
            chat, message_id, choice = rng.choice(amounts)
            if rng.random() < 0.3:  # typed as a reply to the prompt instead
                update = self.server.message_update(
                    self.server.group(GROUP), user, choice.split("|")[1], reply_to=message_id
                )
                await self._feed(update)
            elif not await self.press(user, chat, message_id, choice):
                return False
        else:
            chat, message_id, _ = picks[0]
            for _chat, _mid, toggle in rng.sample(picks, rng.randint(0, min(2, len(picks)))):
                await self.press(user, chat, message_id, toggle)
                await asyncio.sleep(rng.uniform(*QUICK))
            if not await self.press(user, chat, message_id, data + "|="):
                return False
        return await changed(self, nonce, timeout=30.0)

    # ---- counting ----------------------------------------------------------------------------
    def count_from_now(self) -> None:
        """Count traffic from here on (after the table was opened and seated)."""
        self._from = len(self.server.calls)

    async def settle(self) -> None:
        """Wait until no request was made for `SETTLE_QUIET` seconds."""
        while True:
            count = len(self.server.calls)
            await asyncio.sleep(SETTLE_QUIET)
            if len(self.server.calls) == count:
                return

    def tally(self) -> None:
        """Fill the traffic counts from the calls made since `count_from_now`."""
        t = self.traffic
        calls = [c for c in self.server.calls[self._from :] if c.method in WRITES and c.ok]
        group = [c for c in calls if c.chat_id == GROUP]
        new = [c for c in group if c.method in NEW]
        t.group_calls, t.new_group = len(group), len(new)
        t.group_kinds = dict(Counter(c.method for c in group))
        t.private_calls = len([c for c in calls if (c.chat_id or 0) > 0])
        t.worst_5s_new_group = worst_window([c.at for c in new], 5.0)  # type: ignore[attr-defined]

    async def open_table(self, spec: GameSpec) -> None:
        self.traffic.game = spec.label
        humans = list(self.users.values())[: spec.humans]
        host = humans[0]
        if spec.game == "okey":
            await self.command(host, f"/okey start 1 50 speed={spec.speed}")
            for user in humans[1:]:
                await self.command(user, "/okey join")
        else:
            await self.command(host, f"/poker open {spec.game} 10 speed={spec.speed}")
            for user in humans:
                await self.command(user, "/poker join 300")
        for _ in range(spec.bots):
            await self.command(host, f"/{spec.group} addbot")
        self.count_from_now()
        await self.command(host, "/okey begin" if spec.game == "okey" else "/poker start")
