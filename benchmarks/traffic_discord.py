"""The traffic benchmark's Discord: the real `DiscordAdapter` (its `Boards` as production builds
them, on the loop's clock) with discord.py's command tree, `DynamicItem` buttons and modal, over
the Discord fakes (`tests/fakes/discord_fakes.py`). Each interaction runs as a task of its own, as
discord.py dispatches it, and the time of its first acknowledgement is noted. The table's channel
applies Discord's per-channel rate limit: 5 new messages per 5 s, and 5 edits per 5 s; a write
over the limit waits for the bucket to reset, as discord.py's HTTP layer does on a spent bucket."""

from __future__ import annotations

import asyncio
import random
import re
from collections import Counter
from typing import Any

from benchmarks.traffic_play import QUICK, GameSpec, Seen, loop_time
from benchmarks.traffic_stats import Traffic, worst_window
from bot.adapters.discord import DiscordAdapter
from bot.adapters.discord.board import Boards
from tests.fakes.discord_fakes import (
    Delivery,
    DiscordHarness,
    FakeChannel,
    FakeInteraction,
    FakeResponse,
    FakeUser,
    PartialMessage,
)

CHANNEL = 500_000_000_000_000_777
BUCKET_SIZE, BUCKET_SECONDS = 5, 5.0  # Discord: 5 messages per 5 s per channel
NEW = {"send", "send_message", "followup", "edit_original"}
ANSWER_TIMEOUT = 60.0
SETTLE_QUIET = 5.0


class Bucket:
    """A Discord rate-limit bucket: `size` requests, then a wait until it resets."""

    def __init__(self, size: int = BUCKET_SIZE, seconds: float = BUCKET_SECONDS) -> None:
        self.size, self.seconds = size, seconds
        self.remaining, self.reset_at = size, float("-inf")
        self.waited = 0.0  # seconds writers spent waiting for a reset

    async def take(self) -> None:
        """Wait until the bucket has room, then use one request of it."""
        while True:
            now = loop_time()
            if now >= self.reset_at:
                self.remaining, self.reset_at = self.size, now + self.seconds
            if self.remaining > 0:
                self.remaining -= 1
                return
            self.waited += self.reset_at - now
            await asyncio.sleep(self.reset_at - now)


class _StampedDeliveries(list[Delivery]):
    """The fakes' delivery log, each delivery stamped with the loop's time."""

    def append(self, delivery: Delivery) -> None:
        delivery.at = loop_time()  # type: ignore[attr-defined]
        super().append(delivery)


class ThrottledPartial(PartialMessage):
    """A message handle whose edits wait for the channel's edit bucket; deletes are logged."""

    channel: ThrottledChannel

    async def edit(self, **kwargs: Any) -> None:
        await self.channel.edit_bucket.take()
        await super().edit(**kwargs)

    async def delete(self) -> None:
        await super().delete()
        self.channel.log.deliveries.append(Delivery("channel", self.channel.id, "", "delete"))


class ThrottledChannel(FakeChannel):
    """A text channel with Discord's per-channel rate limits."""

    def __init__(self, channel_id: int, log: Any) -> None:
        super().__init__(channel_id, log)
        self.post_bucket, self.edit_bucket = Bucket(), Bucket()

    async def send(self, content: str | None = None, **kwargs: Any) -> Any:
        await self.post_bucket.take()
        return await super().send(content, **kwargs)

    def get_partial_message(self, message_id: int) -> ThrottledPartial:
        return ThrottledPartial(self, message_id)


class TimedResponse(FakeResponse):
    """`interaction.response`, noting when the interaction was first acknowledged."""

    acked_at: float | None = None

    def _ack(self, kind: str) -> None:
        if self.acked_at is None:
            self.acked_at = loop_time()
        super()._ack(kind)


class TimedHarness(DiscordHarness):
    """The Discord harness with timed acknowledgements and a rate-limited table channel."""

    def __init__(self, adapter: Any) -> None:
        super().__init__(adapter)
        self.log.deliveries = _StampedDeliveries()
        self.client.channels[CHANNEL] = ThrottledChannel(CHANNEL, self.log)

    def interaction(self, user: FakeUser, channel_id: int, **kwargs: Any) -> FakeInteraction:
        interaction = super().interaction(user, channel_id, **kwargs)
        interaction.response = TimedResponse(interaction)
        return interaction


class DiscordSurface:
    """One channel with the bot, its players, and the traffic counted from the deal on."""

    platform = "discord"

    def __init__(self, core: Any, names: list[str]) -> None:
        self.core = core
        boards = Boards(clock=loop_time)  # production's intervals, on the loop's clock
        self.harness = TimedHarness(DiscordAdapter(core, default_locale="en", boards=boards))
        self.users = {
            str(101 + i): self.harness.user(101 + i, name) for i, name in enumerate(names)
        }
        self.traffic = Traffic("discord", "")
        self._from = 0

    async def __aenter__(self) -> DiscordSurface:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.harness.adapter.boards.settle()

    @property
    def channel(self) -> ThrottledChannel:
        return self.harness.client.channels[CHANNEL]

    # ---- commands and presses ----------------------------------------------------------------
    async def command(self, user: FakeUser, path: str, **options: Any) -> None:
        """Run a slash command in the channel and wait until the bot has done with it."""
        await self.harness.slash(user, path, CHANNEL, **options)
        await self.settle()

    async def _timed(self, work: Any) -> FakeInteraction | None:
        """Run an interaction's handling as its own task (as discord.py does); note the time
        from its start to its acknowledgement. None when it was never acknowledged."""
        self.traffic.presses += 1
        sent = loop_time()
        task = asyncio.create_task(work)
        try:
            interaction = await asyncio.wait_for(asyncio.shield(task), ANSWER_TIMEOUT)
        except TimeoutError:
            self.traffic.unanswered += 1
            return None
        acked = interaction.response.acked_at
        if acked is None:
            self.traffic.unanswered += 1
            return None
        self.traffic.answers.append(acked - sent)
        return interaction

    async def press(self, user: FakeUser, custom_id: str, message: Any, **kw: Any) -> Any:
        return await self._timed(self.harness.press(user, custom_id, message, **kw))

    # ---- what players see --------------------------------------------------------------------
    def session(self) -> Any:
        live = self.core.tables.in_channel("discord", str(CHANNEL))
        return None if live is None else live.session

    def seen(self, user_id: str, private: bool, nonce: str) -> list[Seen]:
        if private:
            views = [
                (None, d.view)
                for d in reversed(self.harness.log.deliveries)
                if d.audience in ("ephemeral", "dm") and d.target == int(user_id) and d.view
            ]
        else:
            message = self.channel.table_message()
            views = [(message, message.view)] if message is not None else []
        found: dict[str, Seen] = {}
        for message, view in views:
            for child in view.children:
                parts = (getattr(child, "custom_id", None) or "").split(":")
                if len(parts) == 5 and parts[0] == "t" and parts[3] == nonce:
                    found.setdefault(parts[2], Seen(parts[2], (child.custom_id, message)))
        return list(found.values())

    async def nudge(self, user_id: str) -> None:
        """Press "Show my hand" on the table message (my private buttons went missing)."""
        message = self.channel.table_message()
        hand = [c for c in (message.custom_ids() if message else []) if c.startswith("h:")]
        if hand:
            await self.press(self.users[user_id], hand[0], message)

    async def act(self, user_id: str, button: Seen, rng: random.Random) -> bool:
        user = self.users[user_id]
        custom_id, message = button.handle
        nonce = custom_id.split(":")[3]
        pressed = await self.press(user, custom_id, message)
        if pressed is None:
            return False
        if pressed.response.modal is not None:
            modal = pressed.response.modal
            await asyncio.sleep(rng.uniform(*QUICK))
            await self._timed(self.harness.submit_modal(user, self._amount(modal, rng)))
        else:
            shown = [d for d in self.harness.log.deliveries if d.interaction == pressed.id]
            select = next(
                (
                    c
                    for d in shown
                    if d.view is not None
                    for c in d.view.children
                    if (getattr(c, "custom_id", None) or "").startswith("d:")
                ),
                None,
            )
            if select is not None:
                await asyncio.sleep(rng.uniform(*QUICK))
                options = [o.value for o in select.item.options]
                picked = rng.sample(options, rng.randint(0, min(2, select.item.max_values)))
                await self.press(user, select.custom_id, pressed.original, values=picked)
        session = self.session()
        return session is None or session.nonce != nonce

    @staticmethod
    def _amount(modal: Any, rng: random.Random) -> str:
        """What a person types into the amount modal: its pre-filled least amount, or another
        amount between the least and the most the modal's label names."""
        field = modal.amount
        label = str(field.to_component_dict().get("label", ""))  # as Discord shows it
        bounds = [int(n) for n in re.findall(r"\d+", label)]
        least = int(field.default) if field.default and field.default.isdigit() else None
        if len(bounds) >= 2 and bounds[0] <= bounds[-1]:
            low, high = bounds[0], bounds[-1]
            return str(rng.choice([low, min(2 * low, high), max(low, high // 2), high]))
        return str(least if least is not None else 10)

    # ---- counting ----------------------------------------------------------------------------
    def count_from_now(self) -> None:
        """Count traffic from here on (after the table was opened and seated)."""
        self._from = len(self.harness.log.deliveries)

    async def settle(self) -> None:
        """Wait until the delayed table edits are written and nothing moved for a while."""
        while True:
            count = len(self.harness.log.deliveries)
            await self.harness.adapter.boards.settle()
            await asyncio.sleep(SETTLE_QUIET)
            if len(self.harness.log.deliveries) == count:
                return

    def tally(self) -> None:
        """Fill the traffic counts from the deliveries since `count_from_now`."""
        t = self.traffic
        since = self.harness.log.deliveries[self._from :]
        group = [d for d in since if d.audience == "channel" and d.target == CHANNEL]
        new = [d for d in group if d.how in NEW]
        t.group_calls, t.new_group = len(group), len(new)
        t.group_kinds = dict(Counter(d.how for d in group))
        t.private_calls = len([d for d in since if d.audience in ("ephemeral", "dm")])
        t.worst_5s_new_group = worst_window([d.at for d in new], 5.0)  # type: ignore[attr-defined]
        t.throttled_seconds = self.channel.post_bucket.waited + self.channel.edit_bucket.waited

    async def open_table(self, spec: GameSpec) -> None:
        self.traffic.game = spec.game
        humans = list(self.users.values())[: spec.humans]
        host = humans[0]
        if spec.game == "okey":
            await self.command(host, "okey start", rounds=1, stake=50)
            for user in humans[1:]:
                await self.command(user, "okey join")
        else:
            await self.command(host, "poker open", game=spec.game, ante=10)
            for user in humans:
                await self.command(user, "poker join", buy_in=300)
        for _ in range(spec.bots):
            await self.command(host, f"{spec.group} addbot")
        self.count_from_now()
        await self.command(host, "okey begin" if spec.game == "okey" else "poker start")
