"""The traffic benchmark's Discord: the real `DiscordAdapter` (its `Boards` as production builds
them, on the loop's clock) with discord.py's command tree, `DynamicItem` buttons and modal. The
channel is real discord.py: its messages are posted, edited and deleted by discord.py's own HTTP
layer (rate-limit buckets included) against a fake Discord REST API on loopback
(`testkit/fakes/discord_rest_server.py`) that applies Discord's 5 requests per 5 s per channel and route.
Interactions and direct messages are the Discord fakes (`testkit/fakes/discord_fakes.py`); each
interaction runs as a task of its own, as discord.py dispatches it, and the time of its first
acknowledgement is noted."""

from __future__ import annotations

import asyncio
import random
import re
from collections import Counter
from typing import Any

import discord
from discord.http import Route

from bot.adapters.discord import DiscordAdapter
from bot.adapters.discord.board import Boards
from testkit.fakes.discord_fakes import (
    Delivery,
    DiscordHarness,
    FakeInteraction,
    FakeMessage,
    FakeResponse,
    FakeUser,
)
from testkit.fakes.discord_rest_server import FakeDiscordRest
from testkit.traffic_play import QUICK, GameSpec, Seen, is_reaction, loop_time
from testkit.traffic_stats import Traffic, worst_window

CHANNEL = 500_000_000_000_000_777
NEW = {"send", "send_message", "followup", "edit_original"}
ANSWER_TIMEOUT = 60.0
SETTLE_QUIET = 5.0


def custom_ids(message: dict[str, Any]) -> list[str]:
    """The custom ids of a message's components (as the REST API holds them), in order."""
    return [
        item["custom_id"]
        for row in message.get("components", [])
        for item in row.get("components", [])
        if item.get("custom_id")
    ]


class _StampedDeliveries(list[Delivery]):
    """The fakes' delivery log, each delivery stamped with the loop's time."""

    def append(self, delivery: Delivery) -> None:
        delivery.at = loop_time()  # type: ignore[attr-defined]
        super().append(delivery)


class TimedResponse(FakeResponse):
    """`interaction.response`, noting when the interaction was first acknowledged."""

    acked_at: float | None = None

    def _ack(self, kind: str) -> None:
        if self.acked_at is None:
            self.acked_at = loop_time()
        super()._ack(kind)


class TimedHarness(DiscordHarness):
    """The Discord harness with timed acknowledgements; what interactions show in the channel
    (a public response, an edit of the message a button is on) is mirrored into the fake REST
    API's messages, so players see the channel whichever way the adapter wrote it."""

    def __init__(self, adapter: Any, rest: FakeDiscordRest) -> None:
        super().__init__(adapter)
        self.log.deliveries = _StampedDeliveries()
        self.rest = rest

    def interaction(self, user: FakeUser, channel_id: int, **kwargs: Any) -> FakeInteraction:
        interaction = super().interaction(user, channel_id, **kwargs)
        interaction.response = TimedResponse(interaction)
        show, edit_source = interaction._show, interaction._edit_source
        rest = self.rest

        def shown(
            content: str, ephemeral: bool, view: Any, how: str, file: Any = None
        ) -> FakeMessage:
            message = show(content, ephemeral, view, how, file)
            if not ephemeral:
                rest.mirror(message.id, interaction.channel_id, content, _components(view))
            return message

        def edited(content: str | None, view: Any) -> None:
            edit_source(content, view)
            source = interaction.message
            if source is not None and source.ephemeral_to is None and source.id in rest.messages:
                components = _components(view) if view is not None else None
                rest.mirror(source.id, interaction.channel_id, source.content, components)

        interaction._show, interaction._edit_source = shown, edited  # type: ignore[method-assign]
        return interaction


def _components(view: Any) -> list[Any]:
    """A view's components as the REST API holds them."""
    return view.to_components() if view is not None else []


class RestClient:
    """What the adapter sees as its client: channels are discord.py's (over HTTP to the fake
    REST API), users and their direct messages are the fakes'."""

    def __init__(self, real: discord.Client, fake: Any) -> None:
        self.real, self.fake = real, fake
        self.adapter: Any = None

    def get_partial_messageable(self, channel_id: int) -> Any:
        return self.real.get_partial_messageable(channel_id)

    def get_user(self, user_id: int) -> Any:
        return self.fake.get_user(user_id)

    async def fetch_user(self, user_id: int) -> Any:
        return await self.fake.fetch_user(user_id)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.fake, name)  # anything else the adapter may ask of its client


class DiscordSurface:
    """One channel with the bot, its players, and the traffic counted from the deal on."""

    platform = "discord"

    def __init__(self, core: Any, names: list[str]) -> None:
        self.core = core
        boards = Boards(clock=loop_time)  # production's intervals, on the loop's clock
        self.rest = FakeDiscordRest()
        adapter = DiscordAdapter(core, default_locale="en", boards=boards)
        self.harness = TimedHarness(adapter, self.rest)
        self.users = {
            str(101 + i): self.harness.user(101 + i, name) for i, name in enumerate(names)
        }
        self.traffic = Traffic("discord", "")
        self.client = discord.Client(intents=discord.Intents.none())
        self._from = (0, 0)
        self._base = Route.BASE
        # members whose own answers `settle` does not wait for (a flood's: they never stop)
        self.ignored: set[int] = set()

    async def __aenter__(self) -> DiscordSurface:
        Route.BASE = await self.rest.start()
        await self.client.__aenter__()
        data = await self.client.http.static_login("fake-token")
        self.client._connection.user = discord.ClientUser(state=self.client._connection, data=data)
        self.harness.adapter.client = RestClient(self.client, self.harness.client)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.harness.adapter.boards.settle()
        await self.client.close()
        await self.rest.stop()
        Route.BASE = self._base

    def table_message(self) -> dict[str, Any] | None:
        """The newest channel message with a turn or "Show my hand" button."""
        for message in reversed(self.rest.channel_messages(CHANNEL)):
            if any(cid.startswith(("t:", "h:")) for cid in custom_ids(message)):
                return message
        return None

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

    # ---- reactions (issue 37) ----------------------------------------------------------------
    @staticmethod
    def user_id(user: FakeUser) -> str:
        return str(user.id)

    async def open_reactions(self, user: FakeUser) -> Any:
        """Press `😀` on the table message: the ephemeral picker it answered with (its message
        and the custom id of each reaction), or None."""
        message = self.table_message()
        smile = [
            c
            for c in (custom_ids(message) if message else [])
            if c.startswith("t:") and c.split(":")[2] == "r"
        ]
        if not smile:
            return None
        pressed = await self.press(user, smile[0], self._fake_message(message))
        if pressed is None:
            return None
        shown = [d for d in self.harness.log.deliveries if d.interaction == pressed.id and d.view]
        if not shown:
            return None
        codes = {
            c.custom_id.split(":")[2]: c.custom_id
            for c in shown[-1].view.children
            if getattr(c, "custom_id", None)
        }
        return pressed.original, codes

    async def react(self, user: FakeUser, picker: Any, reaction: Any) -> bool:
        """Press one reaction in the user's ephemeral picker; False when never answered."""
        original, codes = picker
        return await self.press(user, codes[f"r.{reaction.value}"], original) is not None

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
            ids = [
                (None, child.custom_id)
                for _message, view in views
                for child in view.children
                if getattr(child, "custom_id", None)
            ]
        else:
            message = self.table_message()
            ids = [(message, cid) for cid in custom_ids(message)] if message is not None else []
        found: dict[str, Seen] = {}
        for message, custom_id in ids:
            parts = custom_id.split(":")
            if (
                len(parts) == 5
                and parts[0] == "t"
                and parts[3] == nonce
                and not is_reaction(parts[2])
            ):
                found.setdefault(parts[2], Seen(parts[2], (custom_id, message)))
        return list(found.values())

    async def nudge(self, user_id: str) -> None:
        """Press "Show my hand" on the table message (my private buttons went missing)."""
        message = self.table_message()
        hand = [c for c in (custom_ids(message) if message else []) if c.startswith("h:")]
        if hand:
            await self.press(self.users[user_id], hand[0], self._fake_message(message))

    async def act(self, user_id: str, button: Seen, rng: random.Random) -> bool:
        user = self.users[user_id]
        custom_id, message = button.handle
        nonce = custom_id.split(":")[3]
        pressed = await self.press(user, custom_id, self._fake_message(message))
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
    def _fake_message(self, message: dict[str, Any] | None) -> FakeMessage | None:
        """The message a component sits on, as the interaction fakes carry it."""
        if message is None:
            return None
        channel = self.harness.channel(CHANNEL)
        return FakeMessage(int(message["id"]), channel, message.get("content", ""))

    def count_from_now(self) -> None:
        """Count traffic from here on (after the table was opened and seated)."""
        self._from = (len(self.harness.log.deliveries), len(self.rest.calls))

    def _moved(self) -> int:
        """How much the bot has done: requests to the REST API and deliveries, but those to
        `ignored` members."""
        deliveries = self.harness.log.deliveries
        if self.ignored:
            deliveries = [d for d in deliveries if d.target not in self.ignored]
        return len(deliveries) + len(self.rest.calls)

    async def settle(self) -> None:
        """Wait until the delayed table edits are written and nothing moved for a while (a
        flooding member's own answers aside: with them nothing would ever be quiet)."""
        while True:
            count = self._moved()
            await self.harness.adapter.boards.settle()
            await asyncio.sleep(SETTLE_QUIET)
            if self._moved() == count:
                return

    def tally(self) -> None:
        """Fill the traffic counts from the requests and deliveries since `count_from_now`."""
        t = self.traffic
        since = self.harness.log.deliveries[self._from[0] :]
        rest = [c for c in self.rest.calls[self._from[1] :] if c.channel_id == CHANNEL and c.ok]
        answers = [d for d in since if d.audience == "channel" and d.target == CHANNEL]
        kinds = [c.kind for c in rest] + [d.how for d in answers]
        new_at = [c.at for c in rest if c.kind == "post"]
        new_at += [d.at for d in answers if d.how in NEW]  # type: ignore[attr-defined]
        t.group_calls, t.new_group = len(kinds), len(new_at)
        t.group_kinds = dict(Counter(kinds))
        t.private_calls = len([d for d in since if d.audience in ("ephemeral", "dm")])
        t.worst_5s_new_group = worst_window(new_at, 5.0)
        t.rate_limited = self.rest.rate_limited

    async def open_table(self, spec: GameSpec) -> None:
        self.traffic.game = spec.label
        humans = list(self.users.values())[: spec.humans]
        host = humans[0]
        if spec.game == "okey":
            await self.command(host, "okey start", rounds=1, stake=50, speed=spec.speed)
            for user in humans[1:]:
                await self.command(user, "okey join")
        else:
            await self.command(host, "poker open", game=spec.game, ante=10, speed=spec.speed)
            for user in humans:
                await self.command(user, "poker join", buy_in=300)
        for _ in range(spec.bots):
            await self.command(host, f"{spec.group} addbot")
        self.count_from_now()
        await self.command(host, "okey begin" if spec.game == "okey" else "poker start")
