"""Discord shards over several processes: the shard settings reach the gateway client, a process
posts again only the resumed tables of guilds its shards own, and it delivers to channels it has
never seen (a timer another process's shard would have fired) over REST, through discord.py's
real partial messageables against an in-memory REST API."""

from __future__ import annotations

import pytest

from bot.adapters.discord import DiscordAdapter, DiscordBot, build_client
from bot.adapters.discord.shards import Ownership, shard_of
from bot.core.messages import Outgoing, OutKind
from bot.settings import load_settings
from testkit.fakes.core import NarrowCore
from testkit.fakes.discord_fakes import quick_boards
from testkit.fakes.discord_rest import FakeRest

SNOWFLAKE = 700_000_000_000_000_000  # channel ids as big as Discord's


def guild_on_shard(shard: int, count: int) -> int:
    """A guild id Discord routes to `shard` of `count`."""
    guild = (123456 * count + shard) << 22
    assert shard_of(guild, count) == shard
    return guild


class StartCore(NarrowCore):
    """A core that resumes the given tables at start-up; nothing else is asked of it."""

    def __init__(self, resumed: list[Outgoing] | None = None) -> None:
        self.resumed = resumed or []

    async def start(self):
        return self.resumed

    async def handle(self, command):
        return []

    async def press(self, press):
        return []


def client_for(core: StartCore, **kwargs) -> tuple[DiscordBot, DiscordAdapter, FakeRest]:
    """The real gateway client with its REST calls answered by a `FakeRest` and no command
    sync (nothing leaves the process)."""
    adapter = DiscordAdapter(core, default_locale="en", boards=quick_boards())
    client = DiscordBot(adapter, timers=False, **kwargs)

    async def sync(*, guild=None):
        return []

    client.tree.sync = sync
    return client, adapter, FakeRest().install(client)


@pytest.fixture(autouse=True)
def clean_env(monkeypatch, tmp_path):
    for name in ("DISCORD_SHARDS", "DISCORD_SHARD_COUNT", "DISCORD_SHARD_IDS", "DISCORD_GUILD_ID"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no stray .env


def test_shard_settings_reach_the_client(monkeypatch):
    monkeypatch.setenv("DISCORD_SHARD_COUNT", "4")
    monkeypatch.setenv("DISCORD_SHARD_IDS", "3,1")
    settings = load_settings(discord_token="t")
    client = build_client(settings, DiscordAdapter(StartCore()))
    assert client.shard_count == 4
    assert client.shard_ids == [1, 3]  # discord.py starts exactly these shards
    assert client.ownership.owns_guild(guild_on_shard(3, 4))
    assert not client.ownership.owns_guild(guild_on_shard(2, 4))


def test_the_old_shards_setting_is_the_count_and_runs_every_shard(monkeypatch):
    monkeypatch.setenv("DISCORD_SHARDS", "3")
    client = build_client(load_settings(discord_token="t"), DiscordAdapter(StartCore()))
    assert client.shard_count == 3 and client.shard_ids is None
    assert client.ownership.everything


def test_without_shard_settings_discord_picks_the_count():
    client = build_client(load_settings(discord_token="t"), DiscordAdapter(StartCore()))
    assert client.shard_count is None and client.shard_ids is None


def test_ownership_follows_discords_formula():
    ours = Ownership((0, 2), 4)
    owned = [shard for shard in range(4) if ours.owns_guild(guild_on_shard(shard, 4))]
    assert owned == [0, 2]
    assert ours.owns_guild(None)  # direct messages come to shard 0
    assert not Ownership((1,), 4).owns_guild(None)
    assert Ownership(None, 4).owns_guild(guild_on_shard(3, 4))


async def test_a_process_posts_again_only_the_tables_of_its_own_shards():
    mine, theirs, gone = SNOWFLAKE + 1, SNOWFLAKE + 2, SNOWFLAKE + 3
    resumed = [
        Outgoing(
            OutKind.EDIT_TABLE, f"table {n} resumed", str(channel), table_id=str(n), fresh=True
        )
        for n, channel in ((1, mine), (2, theirs), (3, gone))
    ]
    client, adapter, rest = client_for(StartCore(resumed), shard_count=2, shard_ids=(1,))
    rest.add_channel(mine, guild_on_shard(1, 2))
    rest.add_channel(theirs, guild_on_shard(0, 2))  # `gone` was deleted: Discord says 404
    await client.setup_hook()
    await adapter.flush(5)
    assert rest.texts_in(mine) == ["table 1 resumed"]
    assert rest.texts_in(theirs) == [] and rest.texts_in(gone) == []
    assert f"/channels/{theirs}/messages" not in rest.paths("POST")


async def test_a_process_running_every_shard_posts_every_table_without_looking_up_guilds():
    channel = SNOWFLAKE + 1
    resumed = [
        Outgoing(OutKind.EDIT_TABLE, "table 1 resumed", str(channel), table_id="1", fresh=True)
    ]
    client, adapter, rest = client_for(StartCore(resumed), shard_count=2)
    rest.add_channel(channel, guild_on_shard(0, 2))
    await client.setup_hook()
    await adapter.flush(5)
    assert rest.texts_in(channel) == ["table 1 resumed"]
    assert rest.paths("GET") == []


async def test_a_timer_for_a_channel_outside_the_cache_is_delivered_over_rest():
    # This process runs shard 0; the table's guild is on shard 1 (another process), so the
    # channel is not in this client's cache, yet a timer fired here must reach it.
    client, adapter, rest = client_for(StartCore(), shard_count=2, shard_ids=(0,))
    channel = SNOWFLAKE + 5
    rest.add_channel(channel, guild_on_shard(1, 2))
    assert client.get_channel(channel) is None
    await adapter.deliver_unasked(
        [
            Outgoing(OutKind.PUBLIC, "Ayşe took too long.", str(channel), table_id="9"),
            Outgoing(OutKind.EDIT_TABLE, "Table 9: Mehmet to act", str(channel), table_id="9"),
        ]
    )
    await adapter.flush(5)
    assert rest.texts_in(channel) == ["Ayşe took too long.", "Table 9: Mehmet to act"]
    await adapter.deliver_unasked(
        [Outgoing(OutKind.EDIT_TABLE, "Table 9: Zeynep to act", str(channel), table_id="9")]
    )
    await adapter.flush(5)
    # the table message is edited in place, by id, still without the channel in the cache
    assert rest.texts_in(channel) == ["Ayşe took too long.", "Table 9: Zeynep to act"]
    assert any(path.startswith(f"/channels/{channel}/messages/") for path in rest.paths("PATCH"))
