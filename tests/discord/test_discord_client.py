"""The gateway client without a gateway: its start-up registers the persistent buttons, the
translator and the commands (to one guild when DISCORD_GUILD_ID is set), resumes open tables,
and `serve` refuses to start without a token."""

from __future__ import annotations

import pytest

from bot.adapters.discord import DiscordAdapter, DiscordBot, serve
from bot.adapters.discord.activity import OpenTableButton
from bot.adapters.discord.commands import Translator
from bot.adapters.discord.components import DYNAMIC_ITEMS
from bot.core.messages import Outgoing, OutKind
from bot.settings import load_settings
from testkit.fakes.core import NarrowCore

CHANNEL = "700000000000000001"


class StartCore(NarrowCore):
    """A core whose start-up resumes one table; nothing else is asked of it here."""

    def __init__(self) -> None:
        self.started = 0

    async def start(self):
        self.started += 1
        return [Outgoing(OutKind.PUBLIC, "table 5 resumed", channel_id=CHANNEL, table_id="5")]

    async def handle(self, command):
        return []

    async def press(self, press):
        return []


class Sent:
    def __init__(self) -> None:
        self.texts: list[str] = []

    async def send(self, content=None, **kwargs):
        self.texts.append(content)


async def test_setup_hook_registers_buttons_commands_and_resumes_tables():
    core = StartCore()
    adapter = DiscordAdapter(core, default_locale="en")
    client = DiscordBot(adapter, shard_count=2, guild_id=42)
    synced: list[object] = []

    async def sync(*, guild=None):
        synced.append(guild)
        return client.tree.get_commands(guild=guild)

    client.tree.sync = sync  # no network: record where the commands would go
    channel = Sent()
    client.get_partial_messageable = lambda channel_id, **kw: channel
    try:
        await client.setup_hook()
        await adapter.flush(5)
        assert client.adapter is adapter and adapter.client is client
        assert client.shard_count == 2
        stored = set(client._connection._view_store._dynamic_items.values())
        assert stored == {*DYNAMIC_ITEMS, OpenTableButton}  # "Open the table" (activity.py)
        assert isinstance(client.tree.translator, Translator)
        [guild] = synced
        assert guild.id == 42
        names = {c.name for c in client.tree.get_commands(guild=guild)}
        assert {"poker", "okey", "table", "balance", "help"} <= names
        assert core.started == 1 and channel.texts == ["table 5 resumed"]
    finally:
        if client._ticker is not None:
            client._ticker.cancel()


async def test_without_guild_the_commands_sync_globally():
    client = DiscordBot(DiscordAdapter(StartCore()), start_core=False)
    synced: list[object] = []

    async def sync(*, guild=None):
        synced.append(guild)
        return []

    client.tree.sync = sync
    try:
        await client.setup_hook()
        assert synced == [None]
        assert client.shard_count is None  # Discord recommends the number of shards
    finally:
        if client._ticker is not None:
            client._ticker.cancel()


async def test_serve_needs_a_token(monkeypatch):
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    settings = load_settings(discord_token=None)
    with pytest.raises(ValueError, match="DISCORD_TOKEN"):
        await serve(settings, StartCore())


async def test_the_timer_delivers_what_core_tick_returns(monkeypatch):
    import asyncio

    import bot.adapters.discord as package

    monkeypatch.setattr(package, "TICK_SECONDS", 0)
    ticked = asyncio.Event()

    class TickCore(StartCore):
        async def tick(self, now):
            ticked.set()
            return [Outgoing(OutKind.PUBLIC, "Ayşe timed out", channel_id=CHANNEL)]

    client = DiscordBot(DiscordAdapter(TickCore()), start_core=False)
    channel = Sent()
    client.get_partial_messageable = lambda channel_id, **kw: channel
    ticker = asyncio.create_task(client._tick_forever())
    try:
        await asyncio.wait_for(ticked.wait(), 5)
        for _ in range(10):
            if channel.texts:
                break
            await client.adapter.flush(5)
        assert channel.texts[0] == "Ayşe timed out"
    finally:
        ticker.cancel()


async def test_a_failing_tick_is_logged_and_the_timer_goes_on(monkeypatch, caplog):
    import asyncio

    import bot.adapters.discord as package

    monkeypatch.setattr(package, "TICK_SECONDS", 0)
    monkeypatch.setattr(package, "PRUNE_EVERY", 2)
    later = asyncio.Event()

    class FlakyCore(StartCore):
        ticks = 0

        async def tick(self, now):
            self.ticks += 1
            if self.ticks == 1:
                raise RuntimeError("database is locked")
            if self.ticks == 3:
                later.set()
            return []

    adapter = DiscordAdapter(FlakyCore())
    pruned: list[int] = []
    adapter.prune = lambda: pruned.append(adapter.core.ticks) or 0
    client = DiscordBot(adapter, start_core=False)
    ticker = asyncio.create_task(client._tick_forever())
    try:
        await asyncio.wait_for(later.wait(), 5)
    finally:
        ticker.cancel()
    assert "tick_failed" in caplog.text  # the first tick's error, and the loop went on
    assert pruned[:1] == [2]  # forgotten closed tables every PRUNE_EVERY ticks


async def test_shared_core_mode_runs_no_timer_of_its_own():
    client = DiscordBot(DiscordAdapter(StartCore()), start_core=False, timers=False)

    async def sync(*, guild=None):
        return []

    client.tree.sync = sync
    await client.setup_hook()
    assert client._ticker is None


def test_python_m_bot_runs_discord_with_its_token(monkeypatch, tmp_path):
    import bot.adapters.discord as package
    from bot.__main__ import main

    monkeypatch.chdir(tmp_path)  # no .env from the working tree
    for name in ("TELEGRAM_TOKEN", "DISCORD_GUILD_ID", "DISCORD_SHARDS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("DISCORD_SHARDS", "3")
    monkeypatch.setenv("WEB_ENABLED", "false")  # Discord alone (with the web table: run_platforms)
    started = []
    monkeypatch.setattr(package, "run", lambda settings: started.append(settings))
    assert main([]) == 0
    [settings] = started
    assert settings.discord_token.get_secret_value() == "not-a-real-token"
    assert settings.discord_shards == 3
