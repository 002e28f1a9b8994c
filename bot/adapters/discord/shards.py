"""Which process a Discord table belongs to when the shards are spread over several processes.

Discord sends a guild's events to one shard, `(guild_id >> 22) % shard_count`, so a table's
commands and presses reach the process that runs that shard: the table belongs to it. At start-up
every process loads the open tables, but only the owner posts a table's message again.
Deliveries outside start-up (a timer another process fired, say) go to any channel by id over
REST (`client.get_partial_messageable`), whichever process sends them.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import Any

import discord

from bot.adapters.discord.outbox import TRANSPORT_ERRORS, status_of
from bot.core.messages import Outgoing
from bot.core.table.rooms import parent_of
from bot.logs import kv

log = logging.getLogger("bot.discord")
OWNER_ERRORS: tuple[type[BaseException], ...] = (*TRANSPORT_ERRORS, discord.ClientException)


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends the guild's events to."""
    return (guild_id >> 22) % shard_count


class Ownership:
    """Whether a channel's guild is served by this process's shards (`shard_ids` of
    `shard_count`; None: every shard, so every channel is ours)."""

    def __init__(self, shard_ids: Iterable[int] | None, shard_count: int | None) -> None:
        self.shard_ids = None if shard_ids is None else frozenset(shard_ids)
        self.shard_count = shard_count

    @property
    def everything(self) -> bool:
        """Whether this process runs every shard."""
        return self.shard_ids is None or self.shard_count is None

    def owns_guild(self, guild_id: int | None) -> bool:
        """Whether the guild's events come to this process (direct messages go to shard 0)."""
        if self.everything:
            return True
        assert self.shard_ids is not None and self.shard_count is not None
        return shard_of(guild_id or 0, self.shard_count) in self.shard_ids

    async def guild_of(self, client: Any, channel_id: int) -> int | None:
        """The channel's guild id (from the cache, else one REST fetch); None for a direct
        message. Raises what discord.py raises when the channel cannot be fetched."""
        channel = client.get_channel(channel_id)
        if channel is None:
            channel = await client.fetch_channel(channel_id)
        guild = getattr(channel, "guild", None)
        return None if guild is None else guild.id

    async def owned(self, client: Any, items: Sequence[Outgoing]) -> list[Outgoing]:
        """The items of channels this process owns (all of them when it runs every shard; an
        item without a channel is nobody's, so dropped). A channel that cannot be looked up (deleted, no access, a network fault) is left to its
        owner: its items are dropped here, and logged."""
        if self.everything:
            return list(items)
        verdicts: dict[str, bool] = {}
        kept = []
        for item in items:
            channel = None if item.channel_id is None else parent_of(item.channel_id)
            if channel is None or not channel.isdigit():
                continue
            if channel not in verdicts:
                try:
                    verdicts[channel] = self.owns_guild(await self.guild_of(client, int(channel)))
                except OWNER_ERRORS as exc:
                    log.warning(kv(event="owner_unknown", channel=channel, status=status_of(exc)))
                    verdicts[channel] = False
            if verdicts[channel]:
                kept.append(item)
        return kept
