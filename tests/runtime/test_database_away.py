"""Started while the database is away, the bot says so in one log line (where, never the
password), retries with the capped, jittered backoff of `bot.adapters.reach`, starts as soon as
the database answers, and a stop signal during the wait ends it cleanly (exit 0, no traceback).
In-process with an injected wait (on SQLite: a folder that cannot be made until the wait clears
it; on PostgreSQL: a closed loopback port where the wait opens a relay to the test server), and
real `python -m bot` processes."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from bot.adapters.reach import Backoff
from bot.adapters.store_open import database_away, database_target, open_store
from storage import InvalidRequest, Unavailable
from tests.runtime.test_shutdown import bot_env, read_until, stopped_by, unreachable_line
from tests.runtime.test_unreachable import Waits, closed_port

log = logging.getLogger("test.database")
PASSWORD = "pg-Passw0rd-never-logged"


class Relay:
    """A loopback TCP relay to `host:port`, listening on `listen` once `start`ed: the database
    'comes up' at the address the bot was given."""

    def __init__(self, listen: int, host: str, port: int) -> None:
        self.listen, self.host, self.port = listen, host, port
        self.server: asyncio.Server | None = None
        self.pumps: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._pair, "127.0.0.1", self.listen)

    async def _pair(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(self.host, self.port)
        for src, dst in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.create_task(self._pump(src, dst))
            self.pumps.add(task)
            task.add_done_callback(self.pumps.discard)

    @staticmethod
    async def _pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError):
            while data := await src.read(65536):
                dst.write(data)
                await dst.drain()
        dst.close()

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
        for task in list(self.pumps):
            task.cancel()


async def test_the_bot_waits_for_the_database_and_opens_it_when_it_comes(
    backend, db_url, tmp_path, caplog
):
    relay: Relay | None = None
    if backend == "sqlite":
        blocker = tmp_path / "away"
        blocker.write_text("a file where the database's folder should be")
        url = f"sqlite+aiosqlite:///{blocker}/bot.db"
        target = f"{blocker}/bot.db"

        async def come_up() -> None:
            blocker.unlink()

    else:
        real = make_url(db_url)
        port = closed_port()
        url = real.set(port=port, password=PASSWORD).render_as_string(hide_password=False)
        target = f"127.0.0.1:{port}/{real.database}"
        relay = Relay(port, real.host or "127.0.0.1", real.port or 5432)
        come_up = relay.start
    waits = Waits()

    async def wait(stop: asyncio.Event, seconds: float) -> bool:
        if len(waits.delays) == 2:  # two attempts failed: now the database comes
            await come_up()
        return await waits(stop, seconds)

    try:
        with caplog.at_level(logging.DEBUG, logger="test.database"):
            store = await open_store(
                url, asyncio.Event(), log, backoff=Backoff(jitter=0), wait=wait
            )
        assert store is not None
        try:
            await store.ping()
            assert await store.load_open_tables() == []  # migrated, usable
        finally:
            await store.close()
    finally:
        if relay is not None:
            await relay.stop()
    assert waits.delays == [1, 2, 4]  # the backoff: 1, 2, 4 s ... (at most 60 s apart)
    lines = [r for r in caplog.records if r.name == "test.database"]
    [warning] = [r for r in lines if r.levelno >= logging.WARNING]
    text = warning.getMessage()
    assert "event=unreachable platform=database" in text and f"target={target}" in text
    assert "retry_in=1.0s" in text and "Unavailable" in text
    assert [r.levelname for r in lines if "still_unreachable" in r.getMessage()] == ["DEBUG"] * 2
    assert any("event=reachable" in r.getMessage() and r.levelno == logging.INFO for r in lines)
    assert PASSWORD not in caplog.text and "Traceback" not in caplog.text
    assert not any(r.exc_info for r in caplog.records)


async def test_a_stop_during_the_wait_opens_nothing_and_raises_nothing(tmp_path, caplog):
    url = f"postgresql+asyncpg://bot:{PASSWORD}@127.0.0.1:{closed_port()}/bot"
    stop = asyncio.Event()
    waits = Waits(stop_after=2)
    with caplog.at_level(logging.DEBUG, logger="test.database"):
        assert await open_store(url, stop, log, wait=waits) is None
    assert len(waits.delays) == 2 and PASSWORD not in caplog.text


def test_what_counts_as_a_database_away():
    class Orig(Exception):
        def __init__(self, sqlstate: str) -> None:
            self.sqlstate = sqlstate

    def dbapi(state: str) -> DBAPIError:
        return DBAPIError("SELECT 1", None, Orig(state))

    assert database_away(Unavailable("cannot open the database: [Errno 111] refused"))
    assert database_away(dbapi("57P03"))  # the database system is starting up
    assert database_away(dbapi("53300"))  # too many connections
    assert database_away(dbapi("08006"))  # connection failure
    assert not database_away(dbapi("42P01"))  # a missing table: a bug, raised
    assert not database_away(InvalidRequest("bad database URL"))
    assert database_target(f"postgresql+asyncpg://bot:{PASSWORD}@db.internal:5433/masa") == (
        "db.internal:5433/masa"
    )
    assert database_target("postgresql+asyncpg://bot@db/masa") == "db/masa"
    assert database_target("sqlite+aiosqlite:///data/bot.db") == "data/bot.db"


# --- real processes -----------------------------------------------------------------------------


async def spawn(tmp_path: Path, args: list[str], **env: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        *args,
        env=bot_env(tmp_path, PICTURES="false", **env),
        cwd=tmp_path,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


@pytest.mark.parametrize("runner", ["console", "telegram", "telegram-alone"])
async def test_a_bot_started_without_its_database_waits_and_sigterm_stops_it(tmp_path, runner):
    port = closed_port()
    url = f"postgresql+asyncpg://bot:{PASSWORD}@127.0.0.1:{port}/masa"
    if runner == "console":
        args, env = ["-m", "bot", "--console", "--verbose"], {}  # DEBUG lines on stderr
    else:  # the platforms' runner; the Bot API is never asked before the store opens
        args = ["-m", "bot"]
        env = {
            "TELEGRAM_TOKEN": "123456:TEST-token-of-a-bot-without-database",
            "TELEGRAM_API_BASE_URL": f"http://127.0.0.1:{closed_port()}/bot",
        }
        if runner == "telegram-alone":  # no web table: `serve_on_store`
            env["WEB_ENABLED"] = "false"
    proc = await spawn(tmp_path, args, DATABASE_URL=url, LOG_LEVEL="DEBUG", **env)
    printed, line = await unreachable_line(proc)
    assert "WARNING" in line and "platform=database" in line
    assert f"target=127.0.0.1:{port}/masa" in line and "retry_in=" in line
    assert "Traceback" not in printed and PASSWORD not in printed


async def test_the_console_starts_once_its_database_can_be_opened(tmp_path):
    blocker = tmp_path / "data"
    blocker.write_text("a file where the database's folder should be")
    proc = await spawn(
        tmp_path, ["-m", "bot", "--console"], DATABASE_URL=f"sqlite+aiosqlite:///{blocker}/bot.db"
    )
    try:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        seen = await read_until(proc.stderr, "event=unreachable")
        blocker.unlink()  # the database can be made now: the next attempt opens it
        await read_until(proc.stdout, "[console] Type `name: /help`")
        proc.stdin.write(b"ayse: /poker open\nayse: /poker join\n")
        await proc.stdin.drain()
        await read_until(proc.stdout, "ayse sits down")
        out, err = await stopped_by(proc, signal.SIGTERM)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode == 0, err
    assert "Traceback" not in seen + out + err
    assert (blocker / "bot.db").is_file()


def test_the_database_password_is_among_the_secrets_no_log_line_shows():
    from bot.__main__ import secrets_of
    from bot.settings import load_settings

    url = f"postgresql+asyncpg://bot:{PASSWORD}@db.internal/masa"
    assert PASSWORD in secrets_of(load_settings(database_url=url, _env_file=None))
    plain = load_settings(database_url="sqlite+aiosqlite:///data/bot.db", _env_file=None)
    assert secrets_of(plain) == []
