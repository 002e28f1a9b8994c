"""`serve()`: the whole start-up against the fake Bot API, in long-polling and in webhook mode."""

from __future__ import annotations

import asyncio
import signal
import socket
import sys
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any

import aiohttp

from bot.adapters.telegram import _webhook_secret, serve, serve_with_store
from bot.settings import load_settings
from testkit.fakes.telegram_harness import ScriptedCore, help_core
from testkit.fakes.telegram_server import FakeTelegram


class StartingCore(ScriptedCore):
    """A scripted core whose `start()` resumes one Telegram table and whose first timer tick
    times a player out."""

    ticks: list[object]

    async def tick(self, now):
        from bot.core.messages import Outgoing, OutKind

        self.ticks = [*getattr(self, "ticks", []), now]
        if len(self.ticks) == 1:
            return [Outgoing(OutKind.PUBLIC, "Ayşe took too long.", str(GROUP), table_id="3")]
        return []

    async def start(self):
        from bot.core.messages import Outgoing, OutKind

        return [Outgoing(OutKind.EDIT_TABLE, "Table 3 resumed", str(GROUP), table_id="3")]


GROUP = -100500


@asynccontextmanager
async def served(
    server: FakeTelegram, run: Callable[..., Coroutine[Any, Any, None]]
) -> AsyncIterator[None]:
    """Run `run(stop=stop)` as a task during the block; then set `stop`, wait for the task to
    end (it must end by itself within 10 s) and stop the fake server."""
    stop = asyncio.Event()
    task = asyncio.create_task(run(stop=stop))
    try:
        yield
    finally:
        stop.set()
        await asyncio.wait_for(task, 10)
        await server.stop()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def test_serve_polls_registers_the_menu_and_resumes_tables():
    server = FakeTelegram()
    await server.start()
    core = StartingCore()
    core.on_command.update(help_core().on_command)
    settings = load_settings(telegram_token=server.token, telegram_api_base_url=server.base_url)
    moment = object()
    run = partial(serve, settings, core, now=lambda: moment, tick_seconds=0.01)
    async with served(server, run):
        timed_out = await server.wait_for("sendMessage", count=2)
        assert [c.params["text"] for c in timed_out] == ["Table 3 resumed", "Ayşe took too long."]
        assert core.ticks[0] is moment  # the injected clock feeds the core's timers
        ayse = server.user(11, "Ayşe", "en")
        server.queue_update(server.message_update(server.group(GROUP), ayse, "/help"))
        sent = await server.wait_for("sendMessage", count=3)
        assert sent[-1].params["text"] == "Commands: ..."
        assert len(server.calls_to("setMyCommands")) == 3
        assert server.calls_to("getUpdates")[0].params["allowed_updates"] == [
            "message",
            "callback_query",
        ]


async def test_serve_in_webhook_mode_checks_the_secret():
    server = FakeTelegram()
    await server.start()
    port = free_port()
    settings = load_settings(
        telegram_token=server.token,
        telegram_api_base_url=server.base_url,
        telegram_webhook_url=f"http://127.0.0.1:{port}/tg-hook",
        telegram_webhook_port=port,
    )
    ready = asyncio.Event()
    async with served(server, partial(serve, settings, help_core(), ready=ready)):
        await asyncio.wait_for(ready.wait(), 10)
        [hook] = server.calls_to("setWebhook")
        assert hook.params["url"] == f"http://127.0.0.1:{port}/tg-hook"
        secret = hook.params["secret_token"]
        assert secret == _webhook_secret(server.token) and server.token not in secret
        ayse = server.user(11, "Ayşe", "en")
        update = server.message_update(server.group(GROUP), ayse, "/help")
        url = f"http://127.0.0.1:{port}/tg-hook"
        async with aiohttp.ClientSession() as http:
            async with http.post(url, json=update) as forged:
                assert forged.status == 403  # no secret: not from Telegram
            headers = {"X-Telegram-Bot-Api-Secret-Token": secret}
            async with http.post(url, json=update, headers=headers) as real:
                assert real.status == 200
        [sent] = await server.wait_for("sendMessage")
        assert sent.params["text"] == "Commands: ..."


async def test_serve_with_store_builds_the_real_core(tmp_path):
    server = FakeTelegram()
    await server.start()
    settings = load_settings(
        telegram_token=server.token,
        telegram_api_base_url=server.base_url,
        database_url=f"sqlite+aiosqlite:///{tmp_path}/data/bot.db",
        default_locale="en",
    )
    async with served(server, partial(serve_with_store, settings)):
        ayse = server.user(11, "Ayşe", "en")
        server.queue_update(server.message_update(server.group(GROUP), ayse, "/help"))
        [sent] = await server.wait_for("sendMessage")
        assert "/poker open" in sent.params["text"]  # the core's help


async def test_python_m_bot_runs_telegram_when_its_token_is_set(tmp_path):
    server = FakeTelegram()
    await server.start()
    env = {
        "PATH": "/usr/bin:/bin",
        "TELEGRAM_TOKEN": server.token,
        "TELEGRAM_API_BASE_URL": server.base_url,
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/bot.db",
        "DEFAULT_LOCALE": "en",
        "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        env=env,
        cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        ayse = server.user(11, "Ayşe", "en")
        server.queue_update(server.message_update(server.group(GROUP), ayse, "/help"))
        [sent] = await server.wait_for("sendMessage", timeout=60)
        assert "/poker open" in sent.params["text"]  # the core's help
        proc.send_signal(signal.SIGINT)
        _out, err = await asyncio.wait_for(proc.communicate(), 30)
        assert proc.returncode == 0, err.decode()
        assert b"Traceback" not in err
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await server.stop()
