"""A platform that cannot be reached at start: one log line names it, the bot keeps retrying
with a capped, jittered exponential backoff, and SIGTERM ends it cleanly (exit 0, no traceback).
Real `python -m bot` processes pointed at a closed loopback port (Telegram's Bot API; Discord's
REST base, where the login goes first), the backoff itself with an injected wait."""

from __future__ import annotations

import asyncio
import logging
import random
import signal
import socket
import sys

import pytest

from bot.adapters.reach import Backoff, keep_trying
from testkit.fakes.telegram_server import FakeTelegram
from tests.runtime.test_shutdown import bot_env, read_until, stopped_by, unreachable_line

log = logging.getLogger("test.reach")

# `python -m bot` with discord.py's REST base moved (the process is otherwise the real one).
DISCORD_AT = (
    "import sys, discord.http; discord.http.Route.BASE = sys.argv[1]; "
    "from bot.__main__ import main; sys.exit(main([]))"
)


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def spawn(tmp_path, args: list[str], **env: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        *args,
        env=bot_env(tmp_path, LOG_LEVEL="DEBUG", PICTURES="false", **env),
        cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


@pytest.mark.parametrize("platform", ["telegram", "discord"])
async def test_an_unreachable_platform_is_retried_and_sigterm_stops_it(tmp_path, platform):
    port = closed_port()
    if platform == "telegram":
        token = "123456:TEST-token-of-the-unreachable-bot"
        args = ["-m", "bot"]
        env = {"TELEGRAM_TOKEN": token, "TELEGRAM_API_BASE_URL": f"http://127.0.0.1:{port}/bot"}
    else:
        token = "x" * 59
        args = ["-c", DISCORD_AT, f"http://127.0.0.1:{port}/api/v10"]
        env = {"DISCORD_TOKEN": token}
    proc = await spawn(tmp_path, args, **env)
    printed, line = await unreachable_line(proc)
    assert f"platform={platform}" in line and f"target=127.0.0.1:{port}" in line
    assert "WARNING" in line and "retry_in=" in line
    assert "Traceback" not in printed and token not in printed
    assert "event=store_closed" in printed


async def test_telegram_comes_up_once_the_bot_api_answers(tmp_path):
    port = closed_port()
    proc = await spawn(
        tmp_path,
        ["-m", "bot"],
        TELEGRAM_TOKEN=FakeTelegram.token,
        TELEGRAM_API_BASE_URL=f"http://127.0.0.1:{port}/bot",
    )
    server = FakeTelegram()
    try:
        assert proc.stderr is not None
        await read_until(proc.stderr, "event=unreachable")
        await server.start(port=port)
        await read_until(proc.stderr, "event=reachable")
        group, ayse = server.group(-100500), server.user(11, "Ayşe", "en")
        server.queue_update(server.message_update(group, ayse, "/help"))
        [sent] = await server.wait_for("sendMessage", timeout=60)
        assert "/poker open" in sent.params["text"]
        _out, err = await stopped_by(proc, signal.SIGTERM)
        assert proc.returncode == 0, err
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await server.stop()


def test_the_backoff_doubles_up_to_its_cap_with_jitter():
    plain = Backoff(first=1, cap=60, jitter=0, rng=random.Random(1))
    assert [plain.delay(n) for n in range(1, 9)] == [1, 2, 4, 8, 16, 32, 60, 60]
    jittered = Backoff(first=1, cap=60, jitter=0.25, rng=random.Random(1))
    delays = [jittered.delay(n) for n in range(1, 40)]
    assert all(
        0.75 * min(60, 2 ** (n - 1)) <= d <= min(60, 2 ** (n - 1)) for n, d in enumerate(delays, 1)
    )
    assert len({round(d, 6) for d in delays[10:]}) > 1  # capped delays still differ


class Waits:
    """The injected wait: records each delay; sets `stop` after `stop_after` waits."""

    def __init__(self, stop_after: int | None = None) -> None:
        self.delays: list[float] = []
        self.stop_after = stop_after

    async def __call__(self, stop: asyncio.Event, seconds: float) -> bool:
        self.delays.append(seconds)
        if self.stop_after is not None and len(self.delays) >= self.stop_after:
            stop.set()
        return stop.is_set()


async def test_keep_trying_logs_one_warning_and_returns_once_reached(caplog):
    tries: list[int] = []

    async def attempt() -> str:
        tries.append(1)
        if len(tries) < 5:
            raise ConnectionRefusedError(111, "Connection refused")
        return "ok"

    waits = Waits()
    with caplog.at_level(logging.DEBUG, logger="test.reach"):
        got = await keep_trying(
            attempt,
            platform="telegram",
            target="api.example:443",
            unreachable=lambda e: isinstance(e, OSError),
            stop=asyncio.Event(),
            log=log,
            backoff=Backoff(jitter=0),
            wait=waits,
        )
    assert got == "ok" and len(tries) == 5 and waits.delays == [1, 2, 4, 8]
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and "event=unreachable" in warnings[0].getMessage()
    assert any("event=reachable" in r.getMessage() for r in caplog.records)


async def test_keep_trying_stops_on_stop_and_raises_other_errors():
    async def refused() -> None:
        raise ConnectionRefusedError(111, "Connection refused")

    stop = asyncio.Event()
    waits = Waits(stop_after=3)
    got = await keep_trying(
        refused,
        platform="discord",
        target="discord.com",
        unreachable=lambda e: True,
        stop=stop,
        log=log,
        wait=waits,
    )
    assert got is None and len(waits.delays) == 3

    async def hangs() -> None:
        stop2.set()
        await asyncio.Event().wait()

    stop2 = asyncio.Event()
    assert (
        await keep_trying(
            hangs, platform="discord", target="x", unreachable=lambda e: True, stop=stop2, log=log
        )
        is None
    )  # an attempt in progress is cancelled by the stop

    async def rejected() -> None:
        raise PermissionError("token rejected")

    with pytest.raises(PermissionError):
        await keep_trying(
            rejected,
            platform="telegram",
            target="x",
            unreachable=lambda e: isinstance(e, ConnectionError),
            stop=asyncio.Event(),
            log=log,
        )
