"""The real python-telegram-bot client plus the Telegram adapter, wired to the fake Bot API server.

`async with telegram_bot(core) as (server, harness): ...` starts the fake server on loopback, builds
the Application with PTB's AIORateLimiter (its limits switched off so tests run fast) and lets tests
feed updates; every outgoing call still travels over real HTTP to the fake server. Group traffic
goes out in the background (the adapter's outbox): `feed` waits for it unless told not to.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from telegram import Update
from telegram.ext import AIORateLimiter, Application

from bot.adapters.telegram import TelegramAdapter, build_application
from bot.core.api import CoreApi
from bot.core.messages import Command, Outgoing, OutKind, Press, Sender
from bot.core.moves import Move
from testkit.fakes.core import NarrowCore
from testkit.fakes.telegram_server import FakeTelegram


@dataclass
class Harness:
    """The running application and adapter; `feed` processes one update dict to completion."""

    server: FakeTelegram
    application: Application
    adapter: TelegramAdapter

    async def feed(self, update: dict[str, Any], settle: bool = True) -> None:
        """Process one update the way the updater would, awaiting every handler; with `settle`
        also wait until the group traffic it queued was sent (delayed jobs keep waiting)."""
        await self.application.process_update(Update.de_json(update, self.application.bot))
        if settle:
            await self.settle()

    async def settle(self) -> None:
        """Wait until the adapter's queued group traffic was sent (delayed jobs keep waiting)."""
        assert self.adapter.delivery is not None
        await self.adapter.delivery.outbox.drain(10)


class ManualSleep:
    """An injected `sleep`: records each delay and returns only when the test calls `wake()`."""

    def __init__(self) -> None:
        self.delays: list[float] = []
        self._wake = asyncio.Event()

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)
        await self._wake.wait()

    def wake(self) -> None:
        """Let every pending and future sleep return."""
        self._wake.set()


class ManualClock:
    """A clock tests move by hand."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@asynccontextmanager
async def telegram_bot(
    core: CoreApi,
    clock: Callable[[], float] | None = None,
    locale: str = "en",
    server: FakeTelegram | None = None,
    limiter: AIORateLimiter | None = None,
    sleep: Callable[[float], Any] | None = None,
) -> AsyncIterator[tuple[FakeTelegram, Harness]]:
    """Start the fake server and an initialised application around the adapter (by default
    PTB's rate limiter with its limits off, so tests run fast)."""
    server = server or FakeTelegram()
    await server.start()
    limiter = limiter or AIORateLimiter(overall_max_rate=0, group_max_rate=0)
    application = build_application(server.token, server.base_url, limiter)
    adapter = TelegramAdapter(
        core, default_locale=locale, clock=clock or ManualClock(), sleep=sleep or ManualSleep()
    )
    adapter.install(application)
    try:
        await application.initialize()
        yield server, Harness(server, application, adapter)
    finally:
        await adapter.flush(10)
        await application.shutdown()
        await server.stop()


class ScriptedCore(NarrowCore):
    """A test double of the core: Answers each command name / press action with a scripted list of outgoing items."""

    def __init__(self) -> None:
        self.commands: list[Command] = []
        self.presses: list[Press] = []
        self.on_command: dict[str, Callable[[Command], list[Outgoing]]] = {}
        self.on_press: dict[str, Callable[[Press], list[Outgoing]]] = {}
        self.acts: list[tuple[str, Sender, str, Move]] = []
        # a typed move's answer by its kind (`Ask("draw")`: "draw"), given (table, who, nonce)
        self.on_act: dict[str, Callable[[str, Sender, str], list[Outgoing]]] = {}

    async def handle(self, command: Command) -> list[Outgoing]:
        self.commands.append(command)
        return self.on_command.get(command.name, lambda c: [])(command)

    async def press(self, press: Press) -> list[Outgoing]:
        self.presses.append(press)
        return self.on_press.get(press.action, lambda p: [])(press)

    async def act(self, table_id: str, who: Sender, nonce: str, move: Move) -> list[Outgoing]:
        self.acts.append((table_id, who, nonce, move))
        kind = getattr(move, "kind", type(move).__name__)
        return self.on_act.get(kind, lambda t, w, n: [])(table_id, who, nonce)


def help_core() -> ScriptedCore:
    """A scripted core that answers /help and refuses /frobnicate."""
    core = ScriptedCore()
    core.on_command["help"] = lambda c: [Outgoing(OutKind.PUBLIC, "Commands: ...", c.channel_id)]
    core.on_command["frobnicate"] = lambda c: [
        Outgoing(OutKind.ERROR, "Bilinmeyen komut: /frobnicate", user_id=c.user_id)
    ]
    return core
