"""A stop signal (SIGTERM from `docker stop` or systemd, SIGINT from Ctrl-C) ends every runner
cleanly: no more input, the tick in progress and the pending edits delivered, the store closed,
exit code 0 within 10 s. The console, Telegram and Discord runners are real `python -m bot`
processes; the pieces of the shutdown path are tested in-process as well."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from pathlib import Path

import pytest

from bot.adapters import discord as discord_runner
from bot.adapters import telegram as telegram_runner
from bot.adapters.discord import DiscordAdapter, DiscordBot
from bot.adapters.runtime import flush_adapter, tick_forever, until_stopped
from bot.core.messages import Command, OutKind
from bot.settings import load_settings
from storage import Store
from testkit.fakes.telegram_server import FakeTelegram
from testkit.helpers import make_core

ROOT = Path(__file__).resolve().parents[2]
STOP_LIMIT = 10  # seconds: what docker and systemd allow before SIGKILL
log = logging.getLogger("test.shutdown")


def bot_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The environment of a `python -m bot` child: this checkout, English, a fresh database."""
    return {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(ROOT),
        "DEFAULT_LOCALE": "en",
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/bot.db",
        **extra,
    }


async def spawn(tmp_path: Path, *args: str, **env: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        *args,
        env=bot_env(tmp_path, **env),
        cwd=tmp_path,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def read_until(stream: asyncio.StreamReader, needle: str, timeout: float = 60) -> str:
    """Read lines until one contains `needle`; returns everything read."""
    seen: list[str] = []

    async def scan() -> None:
        while True:
            line = await stream.readline()
            if not line:
                raise AssertionError(f"{needle!r} never came; got:\n" + "".join(seen))
            seen.append(line.decode())
            if needle in seen[-1]:
                return

    await asyncio.wait_for(scan(), timeout)
    return "".join(seen)


async def stopped_by(proc: asyncio.subprocess.Process, signum: int) -> tuple[str, str]:
    """Send `signum`; the process must exit by itself within `STOP_LIMIT` seconds. Returns the
    rest of its output and its whole stderr."""
    proc.send_signal(signum)
    try:
        out, err = await asyncio.wait_for(proc.communicate(), STOP_LIMIT)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    return out.decode(), err.decode()


async def unreachable_line(proc: asyncio.subprocess.Process) -> tuple[str, str]:
    """A bot started against something unreachable: wait until it says so and has tried again,
    stop it with SIGTERM (exit 0 expected) and return everything it printed and its one
    `event=unreachable` line."""
    try:
        assert proc.stderr is not None
        seen = await read_until(proc.stderr, "event=unreachable")
        seen += await read_until(proc.stderr, "event=still_unreachable")  # it keeps trying
        out, err = await stopped_by(proc, signal.SIGTERM)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    printed = seen + out + err
    assert proc.returncode == 0, printed
    [line] = [ln for ln in printed.splitlines() if "event=unreachable" in ln]
    return printed, line


async def open_tables(tmp_path: Path) -> list[tuple[str, str]]:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path}/bot.db")
    try:
        return [(t.platform, t.game) for t in await store.load_open_tables()]
    finally:
        await store.close()


# --- real processes -----------------------------------------------------------------------------


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_console_stops_on_a_signal_with_its_input_still_open(tmp_path, signum):
    proc = await spawn(tmp_path, "-m", "bot", "--console", "--verbose")
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(b"ayse: /poker open\nayse: /poker join\n")
    await proc.stdin.drain()
    await read_until(proc.stdout, "ayse sits down")
    out, err = await stopped_by(proc, signum)  # stdin is still open: only the signal ends it
    assert proc.returncode == 0, err
    assert "[console] bye" in out
    assert "event=store_closed" in err and "Traceback" not in err
    assert await open_tables(tmp_path) == [("console", "turkish")]  # the table survives


async def test_telegram_stops_on_sigterm(tmp_path):
    server = FakeTelegram()
    await server.start()
    proc = await spawn(
        tmp_path, "-m", "bot", TELEGRAM_TOKEN=server.token, TELEGRAM_API_BASE_URL=server.base_url
    )
    try:
        assert proc.stderr is not None
        ayse = server.user(11, "Ayşe", "en")
        server.queue_update(server.message_update(server.group(-100500), ayse, "/help"))
        [sent] = await server.wait_for("sendMessage", timeout=60)
        assert "/poker open" in sent.params["text"]
        await read_until(proc.stderr, "outcome=ok")
        _out, err = await stopped_by(proc, signal.SIGTERM)
        assert proc.returncode == 0, err
        assert "event=stopping signal=SIGTERM" in err
        assert "event=store_closed" in err and "event=telegram_stopped" in err
        assert "Traceback" not in err
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await server.stop()


async def test_discord_stops_on_sigterm(tmp_path):
    proc = await spawn(tmp_path, "-m", "testkit.fakes.discord_offline", DISCORD_TOKEN="x" * 40)
    assert proc.stdout is not None
    await read_until(proc.stdout, "connected")
    _out, err = await stopped_by(proc, signal.SIGTERM)
    assert proc.returncode == 0, err
    assert "event=store_closed" in err and "event=discord_stopped" in err
    assert "Traceback" not in err


async def test_both_platforms_stop_on_sigterm(tmp_path):
    server = FakeTelegram()
    await server.start()
    proc = await spawn(
        tmp_path,
        "-m",
        "testkit.fakes.discord_offline",
        DISCORD_TOKEN="x" * 40,
        TELEGRAM_TOKEN=server.token,
        TELEGRAM_API_BASE_URL=server.base_url,
        PICTURES="false",
    )
    try:
        assert proc.stdout is not None
        await read_until(proc.stdout, "connected")
        ayse = server.user(11, "Ayşe", "en")
        server.queue_update(server.message_update(server.group(-100500), ayse, "/help"))
        [sent] = await server.wait_for("sendMessage", timeout=60)
        assert "/poker open" in sent.params["text"]
        _out, err = await stopped_by(proc, signal.SIGTERM)
        assert proc.returncode == 0, err
        assert "event=store_closed" in err and "event=stopped" in err
        assert "Traceback" not in err
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await server.stop()


# --- the pieces, in-process ---------------------------------------------------------------------


async def test_a_signal_sets_stop_and_a_second_one_cancels():
    seen: list[str] = []

    async def patient(stop: asyncio.Event) -> None:
        os.kill(os.getpid(), signal.SIGTERM)
        await stop.wait()
        seen.append("stopped cleanly")

    await asyncio.wait_for(until_stopped(patient, log), STOP_LIMIT)

    async def stubborn(stop: asyncio.Event) -> None:
        os.kill(os.getpid(), signal.SIGINT)
        await stop.wait()
        os.kill(os.getpid(), signal.SIGTERM)  # the operator presses Ctrl-C again
        await asyncio.Event().wait()
        seen.append("never")

    await asyncio.wait_for(until_stopped(stubborn, log, grace=600), STOP_LIMIT)
    assert seen == ["stopped cleanly"]


async def test_a_shutdown_that_hangs_is_cut_off_after_the_grace(caplog):
    async def hangs(stop: asyncio.Event) -> None:
        os.kill(os.getpid(), signal.SIGTERM)
        await stop.wait()
        await asyncio.Event().wait()

    with caplog.at_level(logging.INFO):
        await asyncio.wait_for(until_stopped(hangs, log, grace=0.05), STOP_LIMIT)
    assert "event=shutdown_forced" in caplog.text


async def test_flush_is_called_bounded_and_never_raises(caplog):
    calls: list[float] = []

    class Quick:
        async def flush(self, timeout: float) -> None:
            calls.append(timeout)

    class Stuck:
        async def flush(self, timeout: float) -> None:
            await asyncio.Event().wait()

    class Broken:
        async def flush(self, timeout: float) -> None:
            raise ConnectionResetError(104, "Connection reset by peer")

    await flush_adapter(Quick(), log, timeout=3)
    await flush_adapter(object(), log)  # an adapter without pending writes
    await asyncio.wait_for(flush_adapter(Stuck(), log, timeout=0.05), STOP_LIMIT)
    await flush_adapter(Broken(), log)
    assert calls == [3]
    assert "event=flush_timed_out" in caplog.text and "event=flush_failed" in caplog.text


async def test_a_tick_in_progress_is_delivered_before_the_timers_stop():
    stop = asyncio.Event()
    delivered: list[list[str]] = []
    ticking = asyncio.Event()

    class Core:
        async def tick(self, now):
            ticking.set()
            stop.set()  # the stop comes while the tick is being computed
            await asyncio.sleep(0)
            return ["timed out"]

    async def deliver(items):
        delivered.append(items)

    await asyncio.wait_for(
        tick_forever(Core(), deliver, now=lambda: None, every=0, log=log, stop=stop), STOP_LIMIT
    )
    assert delivered == [["timed out"]]


async def test_telegram_serve_flushes_the_adapter_when_stopped(monkeypatch):
    server = FakeTelegram()
    await server.start()
    order: list[str] = []

    async def flush(self, timeout: float) -> None:
        order.append(f"flush {timeout}")

    monkeypatch.setattr(telegram_runner.TelegramAdapter, "flush", flush, raising=False)
    settings = load_settings(telegram_token=server.token, telegram_api_base_url=server.base_url)
    stop, ready = asyncio.Event(), asyncio.Event()
    from testkit.fakes.telegram_harness import help_core

    task = asyncio.create_task(telegram_runner.serve(settings, help_core(), stop=stop, ready=ready))
    try:
        await asyncio.wait_for(ready.wait(), 30)
        stop.set()
        await asyncio.wait_for(task, STOP_LIMIT)
        assert order == ["flush 4.0"]
    finally:
        task.cancel()
        await server.stop()


async def test_discord_close_flushes_and_stops_the_timers():
    class Core:
        ticks = 0

        async def tick(self, now):
            Core.ticks += 1
            return []

    flushed: list[float] = []
    adapter = DiscordAdapter(Core(), default_locale="en")
    adapter.flush = lambda timeout: _record(flushed, timeout)  # type: ignore[attr-defined]
    async with DiscordBot(adapter, start_core=False) as client:
        client._ticker = asyncio.create_task(client._tick_forever())
        await client.close()
    assert client._ticker.done() and not client._ticker.cancelled()  # it ended by itself
    assert flushed == [4.0]


async def _record(into: list[float], value: float) -> None:
    into.append(value)


# --- one platform, its own tables ---------------------------------------------------------------


@pytest.mark.parametrize("runner", [discord_runner, telegram_runner], ids=["discord", "telegram"])
async def test_a_single_platform_start_loads_only_its_tables(tmp_path, monkeypatch, runner):
    url = f"sqlite+aiosqlite:///{tmp_path}/bot.db"
    store = await Store.open(url)
    try:
        core = make_core(store)
        for platform, channel in (("discord", "700000000000000001"), ("telegram", "-100500")):
            line = Command(platform, channel, "1", "Ayse", "poker", ("open",), "en")
            opened = await core.handle(line)
            assert not [o for o in opened if o.kind is OutKind.ERROR]
    finally:
        await store.close()
    loaded: list[str] = []

    async def serve(settings, core, **options):
        loaded.extend(str(o.channel_id) for o in await core.start() if o.table_id is not None)

    monkeypatch.setattr(runner, "serve", serve)
    token = {"discord_token": "x" * 40, "telegram_token": "1:x"}
    settings = load_settings(database_url=url, default_locale="en", **token)
    await runner.serve_with_store(settings)
    wanted = "700000000000000001" if runner is discord_runner else "-100500"
    assert loaded and set(loaded) == {wanted}


async def test_serving_ends_with_the_odds_workers_ended(tmp_path, monkeypatch):
    from bot.core.poker import odds_cache
    from testkit.odds import positions

    url = f"sqlite+aiosqlite:///{tmp_path}/bot.db"
    started: list[bool] = []

    async def serve(settings, core, **options):
        odds_cache.ODDS.clear()
        await odds_cache.prepare(positions()[:1])  # as an Açık table's first message would
        started.append(odds_cache.Workers.running is not None)

    monkeypatch.setattr(telegram_runner, "serve", serve)
    settings = load_settings(database_url=url, default_locale="en", telegram_token="1:x")
    await telegram_runner.serve_with_store(settings)
    assert started == [True]
    assert odds_cache.Workers.running is None  # the core closed before the store
