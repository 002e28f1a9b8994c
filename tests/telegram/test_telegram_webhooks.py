"""Two real `python -m bot` processes in webhook mode behind one URL, against the fake Bot API,
sharing one SQLite file: only the process with TELEGRAM_SET_WEBHOOK registers the webhook (and
the command menu), both accept updates that carry the shared secret and refuse the others,
both answer, neither deletes the webhook when it stops; and (with the scale branch) a table
opened through one process is served by the other."""

from __future__ import annotations

import asyncio
import signal
import socket
import sys
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp

from testkit.fakes.telegram_server import FakeTelegram

ROOT = Path(__file__).resolve().parents[2]
SECRET = "shared-secret_0f3a"  # TELEGRAM_WEBHOOK_SECRET of both processes
HEADER = "X-Telegram-Bot-Api-Secret-Token"
GROUP = -100500
AYSE, MEHMET = 11, 12
STOP_LIMIT = 10  # seconds: what docker and systemd allow before SIGKILL


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class BotProcess:
    """One `python -m bot` child; its stderr (the log) is read all along, so it never blocks."""

    def __init__(self, name: str, proc: asyncio.subprocess.Process, port: int) -> None:
        self.name = name
        self.proc = proc
        self.port = port
        self.log: list[str] = []
        self._line = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.proc.stderr is not None
        while line := await self.proc.stderr.readline():
            self.log.append(line.decode())
            self._line.set()

    @property
    def text(self) -> str:
        return "".join(self.log)

    async def wait_log(self, needle: str, timeout: float = 60) -> None:
        """Wait until a log line contains `needle`."""

        async def scan() -> None:
            while needle not in self.text:
                if self._reader.done():
                    raise AssertionError(f"{self.name} ended without {needle!r}:\n{self.text}")
                self._line.clear()
                await asyncio.wait_for(self._line.wait(), 1)

        await asyncio.wait_for(_retrying(scan), timeout)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/tg-hook"

    async def stop(self) -> None:
        """SIGTERM; the process must exit by itself, with code 0, within `STOP_LIMIT` s."""
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), STOP_LIMIT)
            finally:
                if self.proc.returncode is None:
                    self.proc.kill()
                    await self.proc.wait()
        await self._reader
        assert self.proc.returncode == 0, self.text
        assert "Traceback" not in self.text, self.text


async def _retrying(scan: Any) -> None:
    """Run `scan()` again after each of its one-second waits for a new line ran out."""
    while True:
        try:
            await scan()
            return
        except TimeoutError:
            continue


async def spawn(tmp_path: Path, server: FakeTelegram, name: str, *, leader: bool) -> BotProcess:
    port = free_port()
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(ROOT),
        "DEFAULT_LOCALE": "en",
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/bot.db",  # one file, both processes
        "TELEGRAM_TOKEN": server.token,
        "TELEGRAM_API_BASE_URL": server.base_url,
        # the public URL would be the reverse proxy's; here it is the leader's own port
        "TELEGRAM_WEBHOOK_URL": f"http://127.0.0.1:{port}/tg-hook",
        "TELEGRAM_WEBHOOK_LISTEN": "127.0.0.1",
        "TELEGRAM_WEBHOOK_PORT": str(port),
        "TELEGRAM_WEBHOOK_SECRET": SECRET,
        "TELEGRAM_SET_WEBHOOK": "true" if leader else "false",
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        env=env,
        cwd=tmp_path,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    bot = BotProcess(name, proc, port)
    await bot.wait_log("event=telegram_started")
    return bot


@asynccontextmanager
async def two_processes(tmp_path: Path, before_b: Any = None):
    """The fake Bot API and processes A (registers the webhook) and B (listens only), started
    one after the other (the first one creates the database); `before_b(server, a, http)` runs
    in between when given. Both are stopped at the end."""
    server = FakeTelegram()
    await server.start()
    server.user(AYSE, "Ayşe", "en")
    server.user(MEHMET, "Mehmet", "en")
    server.started_users |= {AYSE, MEHMET}
    bots: list[BotProcess] = []
    try:
        async with aiohttp.ClientSession() as http:
            bots.append(await spawn(tmp_path, server, "A", leader=True))
            if before_b is not None:
                await before_b(server, bots[0], http)
            bots.append(await spawn(tmp_path, server, "B", leader=False))
            yield server, bots[0], bots[1], http
    finally:
        try:
            for bot in bots:
                await bot.stop()
        finally:
            await server.stop()


async def post(http: aiohttp.ClientSession, bot: BotProcess, update: dict, secret: str | None):
    """POST an update to a process's webhook as Telegram would; returns the HTTP status."""
    headers = {HEADER: secret} if secret is not None else {}
    async with http.post(bot.url, json=update, headers=headers) as response:
        return response.status


async def command(
    server: FakeTelegram,
    http: aiohttp.ClientSession,
    bot: BotProcess,
    user: int,
    text: str,
    expect: str,
) -> None:
    """`user` types `text` in the group, delivered to `bot`; waits until the group shows
    `expect` in what the bot sent or edited after it."""
    since = len(server.calls)
    update = server.message_update(server.group(GROUP), server.users[user], text)
    assert await post(http, bot, update, SECRET) == 200
    await server.wait_until(
        lambda: any(expect in t for t in group_texts(server, since)),
        f"{text!r} through {bot.name} shows {expect!r} in the group",
        timeout=15,
    )


def table_buttons(server: FakeTelegram) -> tuple[int, list[str]]:
    """The newest group message with buttons: its id and the buttons' callback data."""
    for message_id in reversed(server.messages_sent_ids(GROUP)):
        rows = server.last_keyboard(GROUP, message_id)
        data = [b["callback_data"] for row in rows for b in row if "callback_data" in b]
        if data:
            return message_id, data
    raise AssertionError("no table message with buttons")


async def press_as_both(server: FakeTelegram, http: aiohttp.ClientSession, bot: BotProcess):
    """Ayşe and then Mehmet press the same move button of the table message, through `bot`:
    the one to act is served, the other is refused (not their turn, or the turn moved on)."""

    def plain_buttons() -> tuple[int, list[str]]:  # moves without an amount or cards
        message_id, data = table_buttons(server)
        return message_id, [d for d in data if d.count(":") == 2]

    def shown() -> bool:
        try:
            return bool(plain_buttons()[1])
        except AssertionError:
            return False

    await server.wait_until(shown, "the table message with move buttons", timeout=15)
    message_id, plain = plain_buttons()
    answered = len(server.calls_to("answerCallbackQuery"))
    for user in (AYSE, MEHMET):
        update = server.press_update(server.users[user], GROUP, message_id, plain[0])
        assert await post(http, bot, update, SECRET) == 200
    await server.wait_for("answerCallbackQuery", count=answered + 2, timeout=15)
    answers = server.calls_to("answerCallbackQuery")[answered:]
    refused = [c for c in answers if c.params.get("show_alert")]
    assert len(refused) == 1, [c.params for c in answers]
    assert not server.open_callbacks


def group_texts(server: FakeTelegram, since: int = 0) -> list[str]:
    """What the bot put into the group after call number `since` (sends and edits)."""
    return [c.visible_text() for c in server.calls[since:] if c.chat_id == GROUP and c.ok]


async def test_two_processes_share_one_webhook(tmp_path):
    async with two_processes(tmp_path) as (server, a, b, http):
        [hook] = server.calls_to("setWebhook")  # A's; B never touched it
        assert hook.params["url"] == a.url
        assert hook.params["secret_token"] == SECRET
        assert len(server.calls_to("setMyCommands")) == 3  # A's menu, in three languages
        assert "mode=webhook_listener" in b.text and "event=webhook_set" not in b.text
        ayse = server.users[AYSE]
        help_ = server.message_update(server.group(GROUP), ayse, "/help")
        for bot in (a, b):
            assert await post(http, bot, help_, None) == 403
            assert await post(http, bot, help_, "wrong") == 403
        assert server.calls_to("sendMessage") == []  # nothing unsigned was handled
        for n, bot in enumerate((a, b), start=1):
            update = server.message_update(server.group(GROUP), ayse, "/help")
            assert await post(http, bot, update, SECRET) == 200
            sent = await server.wait_for("sendMessage", count=n, timeout=30)
            assert "/poker open" in sent[-1].params["text"]  # the core's help, from each
        assert "event=webhook_forbidden" in a.text and "event=webhook_forbidden" in b.text
    assert server.calls_to("deleteWebhook") == []  # stopping leaves the webhook to the others
    assert len(server.calls_to("setWebhook")) == 1


async def test_a_listener_started_later_serves_open_tables_without_posting_them_again(tmp_path):
    async def open_a_table(server, a, http):
        await command(server, http, a, AYSE, "/poker open turkish 10", "10")
        await command(server, http, a, AYSE, "/poker join 200", "Ayşe")

    async with two_processes(tmp_path, open_a_table) as (server, _a, b, http):
        assert "event=table_loaded" in b.text  # B loaded the open table at start...
        table_posts = [t for t in group_texts(server) if "is back" in t]  # table.resumed
        assert table_posts == []  # ...but only the registering process posts resumed tables
        await command(server, http, b, MEHMET, "/poker join 200", "Mehmet")
        await command(server, http, b, MEHMET, "/poker start", "Mehmet")
        await press_as_both(server, http, b)


async def test_a_table_opened_through_one_process_is_served_by_the_other(tmp_path):
    async with two_processes(tmp_path) as (server, a, b, http):
        await command(server, http, a, AYSE, "/poker open turkish 10", "10")
        await command(server, http, a, AYSE, "/poker join 200", "Ayşe")
        await command(server, http, b, MEHMET, "/poker join 200", "Mehmet")  # B serves A's table
        await command(server, http, a, AYSE, "/poker start", "Mehmet")  # A sees B's change
        await press_as_both(server, http, b)
