"""No log line shows a secret: a real `python -m bot` process against the fake Bot API (with a
Discord token set too, so both platforms' secrets are configured), driven through a hand of
poker and stopped; nothing it printed contains the Telegram token (or its secret part), the
webhook secret derived from it, the Discord token or the seed of the hand still running. The
redacting filter is also tested in-process."""

from __future__ import annotations

import json
import logging
import re
import signal
from pathlib import Path

from bot.adapters.telegram import webhook_secret
from bot.logs import MASK, Redactor, redact, setup_logging
from bot.settings import load_settings
from storage import Store
from testkit.fakes.telegram_server import FakeTelegram
from tests.runtime.test_shutdown import read_until, spawn, stopped_by

GROUP = -100500
TOKEN = "987654321:AAE-secret-part-of-the-token_0123456789"
DISCORD_TOKEN = "MTA5-discord-token-value." + "d" * 30


async def running_seeds(tmp_path: Path) -> list[str]:
    """The seeds held in the open tables' snapshots (the hands still running)."""
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path}/bot.db")
    try:
        text = json.dumps([t.snapshot for t in await store.load_open_tables()])
    finally:
        await store.close()
    return re.findall(r'"seed": "([0-9a-f]{32,})"', text)


async def test_the_real_process_logs_no_token_secret_or_running_seed(tmp_path):
    server = FakeTelegram(token=TOKEN)
    await server.start()
    proc = await spawn(
        tmp_path,
        "-m",
        "testkit.fakes.discord_offline",
        TELEGRAM_TOKEN=TOKEN,
        TELEGRAM_API_BASE_URL=server.base_url,
        DISCORD_TOKEN=DISCORD_TOKEN,
        LOG_LEVEL="INFO",
        PICTURES="false",
    )
    try:
        assert proc.stdout is not None and proc.stderr is not None
        early_out = await read_until(proc.stdout, "connected")
        group = server.group(GROUP)
        ayse, mehmet = server.user(11, "Ayşe", "en"), server.user(12, "Mehmet", "en")
        for who, text in [
            (ayse, "/help"),
            (ayse, "/poker open"),
            (ayse, "/poker join"),
            (mehmet, "/poker join"),
            (mehmet, "/poker start"),
        ]:
            before = len(server.calls)
            server.queue_update(server.message_update(group, who, text))
            await server.wait_until(lambda n=before: len(server.calls) > n, text, timeout=60)
        await server.wait_until(
            lambda: any(
                "sha256" in c.visible_text().lower() or "hash" in c.visible_text().lower()
                for c in server.sent_to(GROUP)
            ),
            "the hand's posted hash",
            timeout=60,
        )
        out, err = await stopped_by(proc, signal.SIGTERM)
        assert proc.returncode == 0, err
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await server.stop()
    printed = early_out + out + err
    assert "event=telegram_started" in printed  # the log was written at INFO
    seeds = await running_seeds(tmp_path)
    assert seeds, "a hand should still be running"
    settings = load_settings(telegram_token=TOKEN)
    secrets = {
        "token": TOKEN,
        "token's secret part": TOKEN.partition(":")[2],
        "webhook secret": webhook_secret(settings),
        "Discord token": DISCORD_TOKEN,
        **{f"seed {i}": seed for i, seed in enumerate(seeds)},
    }
    for what, value in secrets.items():
        assert value not in printed, f"the {what} was printed"


def test_the_filter_masks_messages_arguments_and_tracebacks(caplog):
    redactor = Redactor()
    redactor.add("s3cr3t-value", "short", None)
    record = logging.LogRecord(
        "httpx", logging.INFO, __file__, 1, "POST %s/getMe", ("https://x/bots3cr3t-value",), None
    )
    try:
        raise RuntimeError("failed at https://x/bots3cr3t-value/getMe")
    except RuntimeError as exc:
        record.exc_info = (type(exc), exc, exc.__traceback__)
    assert redactor.filter(record)
    text = logging.Formatter().format(record)
    assert "s3cr3t-value" not in text and text.count(MASK) >= 2
    assert redactor.clean("short words stay") == "short words stay"  # too short to be a secret


def test_setup_logging_masks_on_every_handler_and_quiets_httpx(capsys):
    setup_logging("DEBUG", ["token-for-the-test-123"])
    try:
        redact("added-later-secret-456")
        logging.getLogger("bot.test").warning("token-for-the-test-123 and added-later-secret-456")
        assert logging.getLogger("httpx").getEffectiveLevel() == logging.WARNING
        assert logging.getLogger("httpcore").getEffectiveLevel() == logging.WARNING
    finally:
        setup_logging("INFO")
    err = capsys.readouterr().err
    assert f"{MASK} and {MASK}" in err and "secret-456" not in err
