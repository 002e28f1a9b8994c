"""Pictures through the Discord adapter: each player's own hand picture reaches only that player
(their ephemeral reply or a DM) exactly once, the table and showdown pictures go on the channel,
no private picture ever reaches a channel message or edit, and every call carries its file the
way the real discord.py methods take it."""

from __future__ import annotations

import inspect
from typing import Any

import discord

from bot.adapters.discord import DiscordAdapter
from bot.adapters.discord.parts import Part, chunks, newest_picture
from bot.core.messages import Outgoing, OutKind
from testkit.fakes.discord_fakes import (
    DiscordHarness,
    FakeChannel,
    FakeClient,
    FakeFollowup,
    FakeInteraction,
    FakeUser,
    PartialMessage,
    quick_boards,
)
from testkit.helpers import make_core

CHANNEL = 500_000_000_000_000_002
AYSE, MEHMET = 201, 202
PNG = b"\x89PNG\r\n\x1a\n"


def real_call(method: Any, kwargs: dict[str, Any]) -> None:
    """Fail when discord.py's own `method` would not accept these keyword arguments."""
    inspect.signature(method).bind(None, **kwargs)


def png_of(file: discord.File) -> bytes:
    return file.fp.getvalue()  # type: ignore[attr-defined]


# ---- fakes that also keep the files each call carried --------------------------------------
class PicPartial(PartialMessage):
    async def edit(self, **kwargs: Any) -> None:
        real_call(discord.PartialMessage.edit, kwargs)
        await super().edit(**kwargs)
        files = [f for f in kwargs.get("attachments") or [] if isinstance(f, discord.File)]
        self.channel.messages[self.id].files = files
        self.channel.log.deliveries[-1].file = files[0] if files else None


class PicChannel(FakeChannel):
    async def send(self, content: str | None = None, **kwargs: Any):
        real_call(discord.abc.Messageable.send, {"content": content, **kwargs})
        return await super().send(content, **kwargs)

    def get_partial_message(self, message_id: int) -> PicPartial:
        return PicPartial(self, message_id)


class PicClient(FakeClient):
    def get_partial_messageable(self, channel_id: int) -> FakeChannel:
        if channel_id not in self.channels:
            self.channels[channel_id] = PicChannel(channel_id, self.log)
        return self.channels[channel_id]


class PicUser(FakeUser):
    async def send(self, content: str | None = None, **kwargs: Any):
        real_call(discord.abc.Messageable.send, {"content": content, **kwargs})
        message = await super().send(content, **kwargs)
        self.log.deliveries[-1].file = kwargs.get("file")
        return message


class PicFollowup(FakeFollowup):
    async def send(self, content: str | None = None, **kwargs: Any):
        real_call(discord.Webhook.send, {"content": content, **kwargs})
        message = await super().send(content, **kwargs)
        self.interaction.log.deliveries[-1].file = kwargs.get("file")
        return message


class PicInteraction(FakeInteraction):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.followup = PicFollowup(self)

    async def edit_original_response(self, **kwargs: Any):
        real_call(discord.Interaction.edit_original_response, kwargs)
        before = len(self.log.deliveries)
        message = await super().edit_original_response(**kwargs)
        files = [f for f in kwargs.get("attachments") or [] if isinstance(f, discord.File)]
        if files and len(self.log.deliveries) > before:
            self.log.deliveries[-1].file = files[0]
        return message


class PicHarness(DiscordHarness):
    def __init__(self, adapter: Any) -> None:
        super().__init__(adapter)
        self.client = PicClient(self.log)
        adapter.attach(self.client)

    def user(self, user_id: int, name: str, dms_open: bool = True) -> FakeUser:
        user = PicUser(user_id, name, self.log, dms_open)
        self.client.users[user_id] = user
        return user

    def interaction(self, user: FakeUser, channel_id: int, **kwargs: Any) -> FakeInteraction:
        interaction = PicInteraction(self.client, user, channel_id, **kwargs)
        self.interactions.append(interaction)
        return interaction


class SpyCore:
    """The real core, with every item it answers recorded."""

    def __init__(self, core: Any) -> None:
        self.core = core
        self.items: list[Outgoing] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.core, name)

    async def handle(self, command: Any) -> list[Outgoing]:
        items = await self.core.handle(command)
        self.items += items
        return items

    async def press(self, press: Any) -> list[Outgoing]:
        items = await self.core.press(press)
        self.items += items
        return items

    async def act(self, *args: Any) -> list[Outgoing]:
        items = await self.core.act(*args)
        self.items += items
        return items


def build(memory_store: Any, seed: str, **kwargs: Any) -> tuple[PicHarness, SpyCore]:
    spy = SpyCore(make_core(memory_store, seed=seed, pictures=True))
    kwargs.setdefault("inbox_limit", 10_000)
    adapter = DiscordAdapter(spy, default_locale="en", boards=quick_boards(), **kwargs)
    return PicHarness(adapter), spy


def session_of(spy: SpyCore) -> Any:
    live = spy.core.tables.in_channel("discord", str(CHANNEL))
    return None if live is None else live.session


async def act(harness: PicHarness, spy: SpyCore, users: dict[int, FakeUser], step: int) -> None:
    """The player to act presses a button: amounts through the modal, draws through the select."""
    session = session_of(spy)
    user = users[int(session.seats[session.actor()].user_id)]
    message = harness.channel(CHANNEL).table_message()
    ids = {cid.split(":")[2]: cid for cid in message.custom_ids() if cid.startswith("t:")}
    if "draw" in ids:
        picker = await harness.press(user, ids["draw"], message)
        select = picker.original.view.children[0]
        values = [select.item.options[0].value] if step % 2 else []
        await harness.press(user, select.custom_id, picker.original, values=values)
        return
    amount = next((a for a in ("open", "bet", "raise") if a in ids), None)
    if amount is not None and step % 3 == 0:
        await harness.press(user, ids[amount], message)
        modal, _ = harness.modals[user.id]
        await harness.submit_modal(user, modal.amount.default)
        return
    for action in ("call", "check", "pass", "pat", "fold"):
        if action in ids:
            await harness.press(user, ids[action], message)
            return
    raise AssertionError(f"no button to press: {ids}")


async def play(harness: PicHarness, spy: SpyCore, game: str, dms: bool = True) -> dict:
    ayse = harness.user(AYSE, "Ayşe")
    mehmet = harness.user(MEHMET, "Mehmet", dms_open=dms)
    users = {AYSE: ayse, MEHMET: mehmet}
    await harness.slash(ayse, "poker open", CHANNEL, game=game, ante=10)
    await harness.slash(ayse, "poker join", CHANNEL, buy_in=200)
    await harness.slash(mehmet, "poker join", CHANNEL, buy_in=200)
    await harness.slash(ayse, "poker start", CHANNEL)
    steps = 0
    while session_of(spy).hand_no < 3 and session_of(spy).actor() is not None and steps < 200:
        await act(harness, spy, users, steps)
        steps += 1
    assert session_of(spy).hand_no >= 3, "two whole hands were played"
    return users


def private_pictures(spy: SpyCore) -> list[tuple[bytes, int]]:
    return [
        (i.picture, int(i.user_id))
        for i in spy.items
        if i.kind is OutKind.PRIVATE and i.picture is not None
    ]


def public_pictures(spy: SpyCore, kind: OutKind) -> set[bytes]:
    return {i.picture for i in spy.items if i.kind is kind and i.picture is not None}


def assert_no_private_picture_in_a_channel(harness: PicHarness, spy: SpyCore) -> None:
    public = public_pictures(spy, OutKind.PUBLIC) | public_pictures(spy, OutKind.EDIT_TABLE)
    private = {png for png, _ in private_pictures(spy)}
    for delivery in harness.log.deliveries:
        if delivery.audience == "channel" and delivery.file is not None:
            assert png_of(delivery.file) in public, delivery.how
            assert png_of(delivery.file) not in private, delivery.how
    for channel in harness.client.channels.values():
        for message in channel.messages.values():
            if message.ephemeral_to is None:
                assert all(png_of(f) not in private for f in message.files)


async def test_each_hand_picture_reaches_only_its_player_once(memory_store):
    harness, spy = build(memory_store, "pic-discord")
    await play(harness, spy, "turkish")
    mine = private_pictures(spy)
    assert {user for _, user in mine} == {AYSE, MEHMET}
    for png, user in set(mine):
        assert png.startswith(PNG)
        carried = [d for d in harness.log.deliveries if d.file and png_of(d.file) == png]
        assert all(d.audience in ("ephemeral", "dm") and d.target == user for d in carried)
        assert len(carried) == mine.count((png, user)), "each picture exactly once"
    # both ways a private picture travels were used: the player's own reply and a DM
    ways = {d.audience for d in harness.log.deliveries if d.file and d.audience != "channel"}
    assert ways == {"ephemeral", "dm"}
    assert {d.how for d in harness.log.deliveries if d.audience == "ephemeral" and d.file} >= {
        "edit_original"
    }
    assert_no_private_picture_in_a_channel(harness, spy)
    assert harness.unanswered() == []


async def test_table_and_showdown_pictures_go_on_the_channel(memory_store):
    harness, spy = build(memory_store, "pic-showdown")
    await play(harness, spy, "acik")
    channel_files = [
        png_of(d.file) for d in harness.log.deliveries if d.audience == "channel" and d.file
    ]
    showdowns = public_pictures(spy, OutKind.PUBLIC)
    assert showdowns and showdowns <= set(channel_files)
    tables = public_pictures(spy, OutKind.EDIT_TABLE)
    assert set(channel_files) & tables
    # the table message carries the newest table picture it was given, as an edit's attachment
    assert any(d.how == "edit" and d.file is not None for d in harness.log.deliveries)
    assert_no_private_picture_in_a_channel(harness, spy)


async def test_closed_dms_keep_only_the_newest_picture_for_the_next_reply(memory_store):
    harness, spy = build(memory_store, "pic-closed")
    users = await play(harness, spy, "turkish", dms=False)
    assert not any(d.audience == "dm" and d.target == MEHMET for d in harness.log.deliveries)
    kept = harness.adapter.inbox.get(str(MEHMET), [])
    [waiting] = [p.picture for p in kept if p.picture is not None]
    assert (waiting, MEHMET) == private_pictures(spy)[-1]
    # His next interaction brings the kept words; of the pictures only the newest (his hand
    # from "Show my hand") goes, as the kept one shows an older state or the same hand.
    message = harness.channel(CHANNEL).table_message()
    hand_id = next(cid for cid in message.custom_ids() if cid.startswith("h:"))
    before = len(harness.log.deliveries)
    await harness.press(users[MEHMET], hand_id, message)
    new = harness.log.deliveries[before:]
    assert new and all(d.audience == "ephemeral" and d.target == MEHMET for d in new)
    assert any(kept[0].text in d.text for d in new)
    shown = [png_of(d.file) for d in new if d.file]
    assert [(png, MEHMET) for png in shown] == private_pictures(spy)[-1:]
    assert str(MEHMET) not in harness.adapter.inbox
    assert_no_private_picture_in_a_channel(harness, spy)


async def test_unasked_pictures_for_closed_dms_keep_the_words_and_the_newest_picture(
    memory_store,
):
    harness, _ = build(memory_store, "pic-unasked")
    harness.user(MEHMET, "Mehmet", dms_open=False)
    pictures = [PNG + bytes([n]) for n in range(3)]
    items = [
        Outgoing(OutKind.PRIVATE, f"cards {n}", user_id=str(MEHMET), picture=png)
        for n, png in enumerate(pictures)
    ]
    for item in items:  # e.g. timer moves, one answer each
        await harness.adapter.deliver([item])
        await harness.settle()
    kept = harness.adapter.inbox[str(MEHMET)]
    assert [p.text for p in kept] == ["cards 0", "cards 1", "cards 2"]
    assert [p.picture for p in kept] == [None, None, pictures[2]]
    assert not any(d.file for d in harness.log.deliveries)


def tile_ids(harness: PicHarness, user_id: int) -> list[str]:
    """Custom ids of the newest private message to `user_id` that has tile buttons."""
    for delivery in reversed(harness.log.deliveries):
        if delivery.target == user_id and delivery.audience != "channel" and delivery.view:
            ids = [c.custom_id for c in delivery.view.children]
            if any(":d." in cid or ":f." in cid for cid in ids):
                return ids
    return []


async def test_okey_racks_come_with_their_tile_buttons_only_to_their_player(memory_store):
    harness, spy = build(memory_store, "pic-okey")
    ayse, mehmet = harness.user(AYSE, "Ayşe"), harness.user(MEHMET, "Mehmet")
    users = {AYSE: ayse, MEHMET: mehmet}
    await harness.slash(ayse, "okey start", CHANNEL, rounds=1, stake=50)
    await harness.slash(mehmet, "okey join", CHANNEL)
    await harness.slash(ayse, "okey begin", CHANNEL)
    for _ in range(30):
        session = session_of(spy)
        if session is None or session.actor() is None:
            break
        user = users[int(session.seats[session.actor()].user_id)]
        message = harness.channel(CHANNEL).table_message()
        ids = {cid.split(":")[2]: cid for cid in message.custom_ids() if cid.startswith("t:")}
        if "ts" in ids:
            await harness.press(user, ids["ts"], message)
            continue
        mine = tile_ids(harness, user.id)
        finish = [cid for cid in mine if ":f." in cid]
        await harness.press(user, finish[0] if finish else mine[0], None)
    mine = private_pictures(spy)
    assert {user for _, user in mine} == {AYSE, MEHMET}
    for png, user in set(mine):
        carried = [d for d in harness.log.deliveries if d.file and png_of(d.file) == png]
        assert all(d.audience in ("ephemeral", "dm") and d.target == user for d in carried)
        assert len(carried) == mine.count((png, user))
    # a rack with tile buttons is one message: the words, the buttons and the picture
    assert any(d.file and d.view and d.audience != "channel" for d in harness.log.deliveries)
    assert_no_private_picture_in_a_channel(harness, spy)
    assert harness.unanswered() == []


def test_a_picture_part_is_never_merged_and_only_the_newest_picture_stays():
    a, b = PNG + b"a", PNG + b"b"
    parts = [Part("one"), Part("two", picture=a), Part("three"), Part("four")]
    assert chunks(parts) == [Part("one"), Part("two", None, a), Part("three\n\nfour")]
    assert chunks([Part("x", picture=a), Part("y", picture=b)]) == [
        Part("x", None, a),
        Part("y", None, b),
    ]
    long = Part("w" * 2500, picture=a)
    [clipped] = chunks([long])
    assert len(clipped.text) == 2000 and clipped.picture == a
    kept = newest_picture([Part("old", picture=a), Part("words"), Part("new", picture=b)])
    assert kept == [Part("old"), Part("words"), Part("new", None, b)]
