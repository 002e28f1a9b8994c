"""Starting the web table: its settings, the secret kept in the database and never logged, the
links, and the chat adapters' platform calls and rate-limit waits counted."""

from __future__ import annotations

import asyncio

import pytest

from bot.adapters.discord.outbox import Lanes
from bot.adapters.telegram import MeteredRateLimiter
from bot.adapters.web.metrics import Metrics
from bot.adapters.web.runner import base_url, link_maker, web_signer
from bot.adapters.web.tokens import Identity, Signer
from bot.logs import REDACTOR
from bot.settings import SettingsError, load_settings


def test_web_settings_and_their_checks():
    settings = load_settings()
    assert (settings.web_port, settings.web_listen, settings.web_max_viewers_per_table) == (
        8080,
        "127.0.0.1",
        100,
    )
    assert settings.web_public_url is None and settings.web_secret is None
    good = load_settings(web_public_url="https://cards.example.org/", telegram_webapp_name="table")
    assert good.web_public_url == "https://cards.example.org"
    for bad in (
        {"web_public_url": "http://cards.example.org"},
        {"web_secret": "short"},
        {"telegram_webapp_name": "no spaces allowed"},
        {"web_port": 70000},
    ):
        with pytest.raises(SettingsError):
            load_settings(**bad)


def test_links_point_at_the_public_address_else_loopback():
    assert base_url(load_settings(web_listen="0.0.0.0", web_port=9000)) == "http://127.0.0.1:9000"
    public = load_settings(web_public_url="https://cards.example.org")
    assert base_url(public) == "https://cards.example.org"
    make = link_maker(Signer("x" * 20), "https://cards.example.org")
    link = make("telegram", "42", "Ayşe", "7", "tr")
    assert link.startswith("https://cards.example.org/t/")


async def test_the_generated_secret_is_kept_shared_and_redacted(memory_store):
    settings = load_settings()
    first = await web_signer(settings, memory_store)
    second = await web_signer(settings, memory_store)  # a restart, or another process
    token = first.link(Identity("test", "ayse", "Ayse", "1", "en"))
    assert second.read_link(token) is not None
    secret = await memory_store.shared_secret("web", "another-candidate-value")
    assert secret != "another-candidate-value"
    assert REDACTOR.clean(f"secret={secret}") == "secret=[redacted]"
    configured = await web_signer(load_settings(web_secret="s" * 24), memory_store)
    assert configured.read_link(token) is None


def test_discord_lanes_tell_each_wait():
    waits = []
    now = [0.0]

    async def sleep(seconds: float) -> None:
        now[0] += seconds

    lanes = Lanes(clock=lambda: now[0], sleep=sleep, posts_per_window=1, window=5.0)
    lanes.on_wait = lambda: waits.append(now[0])

    async def run() -> None:
        await lanes.pace("c")
        await lanes.pace("c")

    asyncio.run(run())
    assert waits == [0.0]


async def test_the_telegram_rate_limiter_counts_calls():
    metrics = Metrics()
    limiter = MeteredRateLimiter(metrics, max_retries=0)

    async def call(*args, **kwargs):
        return True

    await limiter.initialize()
    assert await limiter.process_request(call, (), {}, "sendMessage", {"chat_id": 1}, None)
    await limiter.shutdown()
    assert b'bot_platform_calls_total{platform="telegram"} 1.0' in metrics.render()


async def test_both_chat_platforms_are_served_with_the_process_metrics(monkeypatch, tmp_path):
    import bot.__main__ as entry
    from bot.adapters import discord, telegram

    served: dict[str, dict] = {}

    def recorder(name):
        async def serve(settings, core, **options):
            served[name] = options

        return serve

    monkeypatch.setattr(discord, "serve", recorder("discord"))
    monkeypatch.setattr(telegram, "serve", recorder("telegram"))
    settings = load_settings(
        discord_token="fake-discord-token",
        telegram_token="123456:fake-telegram-token",
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}",
        web_enabled=False,
        pictures=False,
    )
    await entry.run_platforms(settings, ["discord", "telegram"])
    assert set(served) == {"discord", "telegram"}
    assert isinstance(served["discord"]["metrics"], Metrics)
    assert served["discord"]["metrics"] is served["telegram"]["metrics"]
