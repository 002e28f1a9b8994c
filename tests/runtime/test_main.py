"""`python -m bot`: front-end choice, a bad setting's one-line error, the console answering /help."""

import io
import subprocess
import sys
from pathlib import Path

from bot.__main__ import choose_platforms
from bot.adapters.console import run_console
from bot.adapters.runtime import core_config
from bot.settings import load_settings
from storage import Store
from testkit.helpers import make_core

ROOT = Path(__file__).resolve().parents[2]


def test_choose_platforms():
    assert choose_platforms(False, False, False) == ["console"]
    assert choose_platforms(True, False, False) == ["discord"]
    assert choose_platforms(True, True, False) == ["discord", "telegram"]
    assert choose_platforms(True, True, True) == ["console"]


def test_chat_platform_cores_follow_the_pictures_setting(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # no stray .env
    monkeypatch.delenv("PICTURES", raising=False)
    on = core_config(load_settings(), "telegram")
    assert on.pictures is True and on.platforms == ("telegram",)
    monkeypatch.setenv("PICTURES", "false")
    assert core_config(load_settings(), "discord").pictures is False


def test_chat_platform_cores_follow_the_time_limits(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TURN_SECONDS", "30")
    monkeypatch.setenv("IDLE_CLOSE_SECONDS", "600")
    config = core_config(load_settings(), "discord")
    assert (config.turn_seconds, config.idle_close_seconds) == (30, 600)


def test_bad_setting_stops_with_one_line(tmp_path):
    env = {"DEFAULT_LOCALE": "xx", "PATH": "/usr/bin:/bin"}
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "--console"],
        input="",
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [proc.stderr.strip()] and proc.stderr.startswith(
        "error: setting DEFAULT_LOCALE:"
    )
    assert "Traceback" not in proc.stderr


async def test_console_answers_help_and_refuses_unknown(tmp_path):
    out = io.StringIO()
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path}/bot.db")
    try:
        await run_console(
            make_core(store), ["ayse: /help", "", "bad line", "ayse: /frobnicate", "ayse: 3"], out
        )
    finally:
        await store.close()
    text = out.getvalue()
    assert "[#table] Commands:" in text
    assert "[console] Type `name: /command`, e.g. `ayse: /help`" in text
    assert "[! ayse] Unknown command: /frobnicate" in text
    assert "[console] There is no choice (3) on screen." in text


def test_make_run_answers_help(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "--console"],
        input="ayse: /help\n",
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "DEFAULT_LOCALE": "en", "PYTHONPATH": str(ROOT)},
        cwd=tmp_path,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "[#table] Commands:" in proc.stdout


def test_invitations_are_signed_with_the_web_secret(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("WEB_SECRET", raising=False)
    assert core_config(load_settings(), "telegram").invite_key is None  # the stored web key
    monkeypatch.setenv("WEB_SECRET", "s" * 40)
    config = core_config(load_settings(), "telegram")
    assert config.invite_key == "s" * 40 and "s" * 40 not in repr(config)
