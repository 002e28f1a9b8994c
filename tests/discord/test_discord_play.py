"""Whole Türk pokeri games driven through the Discord adapter with fake interactions: private
cards reach only that player (ephemeral replies, or DMs), stale and foreign buttons are refused,
a restart between two presses still works, and every interaction is acknowledged exactly once."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import discord
import pytest

from bot.adapters.discord import DiscordAdapter
from bot.core.messages import Outgoing, OutKind
from storage import Store
from testkit.fakes.cards import tile_picker
from testkit.fakes.core import NarrowCore
from testkit.fakes.discord_fakes import DiscordHarness, FakeUser, quick_boards
from testkit.helpers import make_core

CHANNEL = 500_000_000_000_000_001
AYSE, MEHMET, ZEYNEP = 101, 102, 103


class SpyCore:
    """The real core, with every item it answers recorded (to check where each one went): each
    answer as a batch, with the private texts the adapter was keeping for players (DMs closed)
    when the core gave it."""

    def __init__(self, core) -> None:
        self.core = core
        self.items: list[Outgoing] = []
        self.batches: list[tuple[list[Outgoing], set[tuple[str, str]]]] = []
        self.adapter: DiscordAdapter | None = None  # set by `build`

    def __getattr__(self, name: str):
        return getattr(self.core, name)

    async def _record(self, pending) -> list[Outgoing]:
        items = await pending
        inbox = self.adapter.inbox if self.adapter is not None else {}
        held = {(user, part.text) for user, parts in inbox.items() for part in parts}
        self.items += items
        self.batches.append((list(items), held))
        return items

    async def handle(self, command):
        return await self._record(self.core.handle(command))

    async def press(self, press):
        return await self._record(self.core.press(press))

    async def act(self, table_id, who, nonce, move):
        return await self._record(self.core.act(table_id, who, nonce, move))

    async def start(self):
        return await self._record(self.core.start())


def build(core, **kwargs) -> tuple[DiscordHarness, SpyCore]:
    spy = SpyCore(core)
    kwargs.setdefault("inbox_limit", 10_000)  # nothing kept for a player is dropped in a test
    adapter = DiscordAdapter(spy, default_locale="en", boards=quick_boards(), **kwargs)
    spy.adapter = adapter
    return DiscordHarness(adapter), spy


def session_of(spy: SpyCore, channel: int = CHANNEL):
    live = spy.core.tables.in_channel("discord", str(channel))
    return None if live is None else live.session


def turn_ids(harness: DiscordHarness, channel: int = CHANNEL) -> dict[str, str]:
    """Action -> custom id of the turn buttons on the current table message."""
    message = harness.channel(channel).table_message()
    assert message is not None
    return {cid.split(":")[2]: cid for cid in message.custom_ids() if cid.startswith("t:")}


def replaced_unseen(spy: SpyCore, batch: int, position: int) -> bool:
    """Whether a slotted private item was replaced by a newer one of the same player and slot
    before the player could see it: later in the same answer, or while the adapter was still
    keeping it for them (DMs closed). The newer one is what the player sees (the slot's rule)."""
    item = spy.batches[batch][0][position]
    if item.slot is None:
        return False
    for number in range(batch, len(spy.batches)):
        items, held = spy.batches[number]
        later = items[position + 1 :] if number == batch else items
        if any(
            j.kind is OutKind.PRIVATE and (j.user_id, j.slot) == (item.user_id, item.slot)
            for j in later
        ):
            return number == batch or (item.user_id, item.text) in held
    return False


def assert_private_items_stayed_private(harness: DiscordHarness, spy: SpyCore) -> None:
    """Every private item the core produced reached its player where they see it (a new
    message, an edit of their DM, or an edit of an ephemeral reply they are still looking at),
    unless a newer item of the same slot replaced it before they could see it; and it reached
    nobody else (a text the core sent to several players, like "no chips left", may reach each
    of them)."""
    meant = {(i.text, int(i.user_id)) for i in spy.items if i.kind is OutKind.PRIVATE}
    for batch, (items, _) in enumerate(spy.batches):
        for position, item in enumerate(items):
            if item.kind is not OutKind.PRIVATE or replaced_unseen(spy, batch, position):
                continue
            words, user = item.text, int(item.user_id)
            kept = harness.adapter.inbox.get(str(user), [])  # DMs closed, not back yet
            held = any(words in part.text for part in kept)
            seen = any(
                d.target == user and d.seen and words in d.text for d in harness.log.deliveries
            )
            assert held or seen, f"never delivered where {user} sees it: {words!r}"
    for words, _user in meant:
        holders = [d for d in harness.log.deliveries if words in d.text]
        for delivery in holders:
            assert delivery.audience in ("ephemeral", "dm"), delivery
            # the words were meant for this target too, alone or inside a longer private text
            assert any(words in w for w, t in meant if t == delivery.target), delivery


async def seat_two(harness: DiscordHarness, ayse: FakeUser, mehmet: FakeUser) -> None:
    await harness.slash(ayse, "poker open", CHANNEL, game="turkish", ante=10)
    await harness.slash(ayse, "poker join", CHANNEL, buy_in=200)
    await harness.slash(mehmet, "poker join", CHANNEL, locale="tr", buy_in=200)


async def act(harness: DiscordHarness, spy: SpyCore, users: dict[int, FakeUser], step: int):
    """The player to act presses a button: amounts through the modal, draws through the select."""
    session = session_of(spy)
    seat = session.seats[session.actor()]
    user = users[int(seat.user_id)]
    ids = turn_ids(harness)
    message = harness.channel(CHANNEL).table_message()
    if "draw" in ids:
        picker = await harness.press(user, ids["draw"], message)
        [shown] = [d for d in harness.log.deliveries if d.interaction == picker.id]
        assert shown.audience == "ephemeral" and shown.target == user.id and shown.view
        select = shown.view.children[0]
        values = [select.item.options[0].value] if step % 2 else []
        await harness.press(user, select.custom_id, picker.original, values=values)
        assert picker.original.view is None  # the picker is closed once used
        return
    amount = next((a for a in ("open", "bet", "raise") if a in ids), None)
    if amount is not None and step % 3 == 0:
        await harness.press(user, ids[amount], message)
        modal, _ = harness.modals[user.id]
        assert modal.amount.default is not None  # the button's minimum
        await harness.submit_modal(user, modal.amount.default)
        return
    for action in ("check", "pass", "call", "pat", "fold"):
        if action in ids:
            await harness.press(user, ids[action], message)
            return
    raise AssertionError(f"no button to press: {ids}")


async def test_two_hands_through_the_adapter(memory_store):
    core = make_core(memory_store, seed="discord")
    harness, spy = build(core)
    ayse = harness.user(AYSE, "Ayşe")
    mehmet = harness.user(MEHMET, "Mehmet", dms_open=False)
    users = {AYSE: ayse, MEHMET: mehmet}
    await seat_two(harness, ayse, mehmet)
    await harness.slash(ayse, "poker start", CHANNEL)
    steps = 0
    while session_of(spy).hand_no < 3 and steps < 200:
        if session_of(spy).actor() is None:
            break
        await act(harness, spy, users, steps)
        steps += 1
    assert session_of(spy).hand_no >= 3, "two whole hands were played"
    assert steps > 4
    assert harness.unanswered() == []
    assert_private_items_stayed_private(harness, spy)
    # Mehmet's DMs are closed: the channel was told once, without any card, and his cards came
    # with his next interaction instead.
    notices = [t for t in harness.log.channel_texts(CHANNEL) if f"<@{MEHMET}>" in t]
    assert len(notices) == 1 and "Show my hand" in notices[0]
    assert not any(d.audience == "dm" and d.target == MEHMET for d in harness.log.deliveries)
    # One table message is kept up to date; the modal and the select were used.
    tables = [m for m in harness.channel(CHANNEL).live() if m.custom_ids()]
    assert len(tables) == 1
    assert harness.channel(CHANNEL).edits > 0
    kinds = {a for acks in harness.log.acks.values() for a in acks}
    assert {"defer", "send_modal"} <= kinds


async def test_show_my_hand_is_ephemeral_to_the_presser_only(memory_store):
    core = make_core(memory_store, seed="hand")
    harness, spy = build(core, dm_fallback=False)
    ayse, mehmet = harness.user(AYSE, "Ayşe"), harness.user(MEHMET, "Mehmet")
    zeynep = harness.user(ZEYNEP, "Zeynep")
    await seat_two(harness, ayse, mehmet)
    await harness.slash(mehmet, "poker start", CHANNEL)
    message = harness.channel(CHANNEL).table_message()
    hand_id = next(cid for cid in message.custom_ids() if cid.startswith("h:"))
    engine = session_of(spy).engine
    # Ayşe's cards came from Mehmet's command and DMs are off: the channel only points her to
    # the button, without a card.
    [notice] = [t for t in harness.log.channel_texts(CHANNEL) if f"<@{AYSE}>" in t]
    assert "waiting" in notice and not cards_shown(notice)
    seats = session_of(spy).in_hand
    for user in (ayse, mehmet):
        before = len(harness.log.deliveries)
        pressed = await harness.press(user, hand_id, message)
        new = harness.log.deliveries[before:]
        assert new and all(d.audience == "ephemeral" and d.target == user.id for d in new)
        mine = engine.view(seats.index(_player_id(spy, user.id)))["hand"]
        assert len(cards_shown(new[-1].text)) == len(mine)
        assert pressed.response.thinking and pressed.response.ephemeral
    before = len(harness.log.deliveries)
    await harness.press(zeynep, hand_id, message)  # not at the table
    [refusal] = harness.log.deliveries[before:]
    assert refusal.audience == "ephemeral" and refusal.target == ZEYNEP
    assert "not" in refusal.text
    assert harness.unanswered() == []
    assert_private_items_stayed_private(harness, spy)


def _player_id(spy: SpyCore, user_id: int) -> int:
    session = session_of(spy)
    return next(s.player_id for s in session.seats if s.user_id == str(user_id))


def cards_shown(text: str) -> list[str]:
    from testkit.fakes.cards import cards_in

    return cards_in(text)


async def test_stale_foreign_and_out_of_turn_buttons_are_refused(memory_store):
    core = make_core(memory_store, seed="stale")
    harness, spy = build(core, dm_fallback=False)
    ayse, mehmet = harness.user(AYSE, "Ayşe"), harness.user(MEHMET, "Mehmet")
    await seat_two(harness, ayse, mehmet)
    await harness.slash(ayse, "poker start", CHANNEL)
    old_message = harness.channel(CHANNEL).table_message()
    old_ids = turn_ids(harness)
    actor = session_of(spy).seats[session_of(spy).actor()]
    player = ayse if actor.user_id == str(AYSE) else mehmet
    other = mehmet if player is ayse else ayse
    plain = next(cid for a, cid in old_ids.items() if a in ("check", "pass", "call", "fold"))

    def refusals_of(interaction) -> list[str]:
        return [d.text for d in harness.log.deliveries if d.interaction == interaction.id]

    version = spy.core.tables.in_channel("discord", str(CHANNEL)).version
    # DMs are off: the other player's cards, kept for them, come first with their next
    # interaction, in a message of their own (it is their hand's slot message), then the refusal.
    waiting = [part.text for part in harness.adapter.inbox.get(str(other.id), [])]
    assert waiting and all(part.slot for part in harness.adapter.inbox[str(other.id)])
    out_of_turn = await harness.press(other, plain, old_message)
    *cards, text = refusals_of(out_of_turn)
    assert cards == waiting
    assert "not your turn" in text
    assert spy.core.tables.in_channel("discord", str(CHANNEL)).version == version
    await harness.press(player, plain, old_message)  # accepted: the turn moves on
    stale = await harness.press(player, plain, old_message)
    assert "earlier turn" in refusals_of(stale)[0]
    foreign = await harness.press(player, "t:987654:check:abcdef:-", old_message)
    assert "closed or does not exist" in refusals_of(foreign)[0]
    table = plain.split(":")[1]
    forged = await harness.press(player, f"t:{table}:check:zzzzzz:-", old_message)
    assert "earlier turn" in refusals_of(forged)[0]
    for interaction in (out_of_turn, stale, foreign, forged):
        answers = [d for d in harness.log.deliveries if d.interaction == interaction.id]
        assert len(answers) == (1 + len(waiting) if interaction is out_of_turn else 1)
        for delivery in answers:
            assert delivery.audience == "ephemeral" and delivery.target == interaction.user.id
        assert interaction.response.kind == "defer"
    assert harness.unanswered() == []


async def test_restart_between_two_presses(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path}/bot.db"
    store = await Store.open(url)
    try:
        harness, spy = build(make_core(store, seed="restart"), dm_fallback=False)
        ayse, mehmet = harness.user(AYSE, "Ayşe"), harness.user(MEHMET, "Mehmet")
        await seat_two(harness, ayse, mehmet)
        await harness.slash(ayse, "poker start", CHANNEL)
        message = harness.channel(CHANNEL).table_message()
        ids = turn_ids(harness)
        actor_user = session_of(spy).seats[session_of(spy).actor()].user_id
    finally:
        await store.close()
    # A new process: new store connection, core, adapter and client.
    store = await Store.open(url)
    try:
        again, spy2 = build(make_core(store, seed="restart-2"), dm_fallback=False)
        users = {AYSE: again.user(AYSE, "Ayşe"), MEHMET: again.user(MEHMET, "Mehmet")}
        await again.adapter.deliver_unasked(await spy2.start())
        await again.settle()
        assert again.channel(CHANNEL).table_message() is not None  # the table is shown again
        before = session_of(spy2).actor()
        plain = next(cid for a, cid in ids.items() if a in ("check", "pass", "call", "fold"))
        pressed = await again.press(users[int(actor_user)], plain, message)  # the old message
        errors = [d.text for d in again.log.deliveries if d.interaction == pressed.id]
        assert errors == []
        assert session_of(spy2) is None or session_of(spy2).actor() != before
        assert again.unanswered() == []
    finally:
        await store.close()


async def test_moderators_by_permission_or_role(memory_store):
    core = make_core(memory_store, seed="mod")
    harness, spy = build(core, moderator_role="Croupier", dm_fallback=False)
    ayse, mehmet = harness.user(AYSE, "Ayşe"), harness.user(MEHMET, "Mehmet")
    await seat_two(harness, ayse, mehmet)
    refused = await harness.slash(ayse, "table kick", CHANNEL, player="Mehmet")
    [text] = [d.text for d in harness.log.deliveries if d.interaction == refused.id]
    assert "moderator" in text
    assert len(session_of(spy).seats) == 2
    mehmet.roles = [type("Role", (), {"name": "Croupier", "id": 9})()]
    await harness.slash(mehmet, "table kick", CHANNEL, player="Ayşe")
    assert [s.name for s in session_of(spy).seats] == ["Mehmet"]
    perms = discord.Permissions(manage_messages=True)
    await harness.slash(ayse, "table reset", CHANNEL, reason="test", _kw={"permissions": perms})
    assert session_of(spy) is None
    assert harness.unanswered() == []


async def test_every_command_defers_before_the_core_answers():
    gate = asyncio.Event()

    class SlowCore(NarrowCore):
        async def handle(self, command):
            await gate.wait()
            return [Outgoing(OutKind.PRIVATE, "slow answer", user_id=command.user_id)]

        async def press(self, press):
            await gate.wait()
            return []

    harness = DiscordHarness(DiscordAdapter(SlowCore(), boards=quick_boards()))
    user = harness.user(AYSE, "Ayşe")
    task = asyncio.create_task(harness.slash(user, "balance", CHANNEL))
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    [interaction] = harness.interactions
    assert harness.log.acks[interaction.id] == ["defer"]
    assert harness.log.deliveries == []
    gate.set()
    await task
    [delivery] = harness.log.deliveries
    assert (delivery.audience, delivery.target, delivery.text) == ("ephemeral", AYSE, "slow answer")


async def test_public_and_private_answers_of_account_commands(memory_store):
    core = make_core(memory_store, seed="acct")
    harness, _ = build(core)
    ayse = harness.user(AYSE, "Ayşe")
    await harness.slash(ayse, "help", CHANNEL, locale="tr")
    [public] = harness.log.channel_texts(CHANNEL)
    assert "Komutlar" in public
    balance = await harness.slash(ayse, "balance", CHANNEL)
    [mine] = [d for d in harness.log.deliveries if d.interaction == balance.id]
    assert mine.audience == "ephemeral" and mine.target == AYSE and "1" in mine.text
    empty = await harness.slash(ayse, "poker table", CHANNEL)
    [refusal] = [d for d in harness.log.deliveries if d.interaction == empty.id]
    assert refusal.audience == "ephemeral" and "no open table" in refusal.text
    assert harness.unanswered() == []


async def test_an_expired_interaction_is_left_alone(memory_store):
    core = make_core(memory_store, seed="late")
    harness, _ = build(core)
    ayse = harness.user(AYSE, "Ayşe")
    await harness.slash(ayse, "poker open", CHANNEL)
    message = harness.channel(CHANNEL).table_message()
    hand_id = next(cid for cid in message.custom_ids() if cid.startswith("h:"))
    before = len(harness.log.deliveries)
    late = await harness.press(ayse, hand_id, message, expired=True)
    assert harness.log.deliveries[before:] == []
    assert late.response.kind is None


async def test_unasked_items_of_other_platforms_are_skipped(memory_store):
    core = make_core(memory_store, seed="mixed")
    harness, _ = build(core)
    telegram = Outgoing(OutKind.PUBLIC, "telegram group", channel_id="-100123", table_id="77")
    ours = Outgoing(OutKind.PUBLIC, "discord channel", channel_id=str(CHANNEL))
    await harness.adapter.deliver_unasked([telegram, ours])
    await harness.settle()
    assert harness.log.channel_texts(CHANNEL) == ["discord channel"]
    assert -100123 not in harness.client.channels


async def test_rack_autocomplete_offers_my_tiles():
    class RackCore(NarrowCore):
        async def handle(self, command):
            assert command.args == ("rack",)
            rack = "Your rack (6): R1 R2 R3 K13 Y7 F\nArranged: [R1 R2 R3]\nThe okey is B4."
            tiles = tile_picker("R1", "R2", "R3", "K13", "Y7", "F")
            return [Outgoing(OutKind.PRIVATE, rack, user_id=command.user_id, picker=tiles)]

    harness = DiscordHarness(DiscordAdapter(RackCore()))
    user = harness.user(AYSE, "Ayşe")
    choices = await harness.autocomplete(user, "okey discard", "tile", "r", CHANNEL)
    assert [c.value for c in choices] == ["R1", "R2", "R3"]
    choices = await harness.autocomplete(user, "okey finish", "tile", "", CHANNEL)
    assert [c.value for c in choices] == ["R1", "R2", "R3", "K13", "Y7", "F"]


@pytest.mark.parametrize(
    ("perms", "roles", "role", "expected"),
    [
        (discord.Permissions.none(), [], None, False),
        (discord.Permissions(manage_guild=True), [], None, True),
        (discord.Permissions(manage_messages=True), [], None, True),
        (discord.Permissions.none(), [("Croupier", 5)], "Croupier", True),
        (discord.Permissions.none(), [("Croupier", 5)], "5", True),
        (discord.Permissions.none(), [("Player", 6)], "Croupier", False),
    ],
)
def test_is_moderator(perms, roles, role, expected):
    from types import SimpleNamespace

    from bot.adapters.discord import is_moderator

    user = SimpleNamespace(roles=[SimpleNamespace(name=n, id=i) for n, i in roles])
    interaction = SimpleNamespace(permissions=perms, user=user)
    assert is_moderator(interaction, role) is expected


async def test_a_fresh_table_item_posts_the_table_again_at_the_bottom(memory_store):
    """`fresh` (the core sets it for `/poker table`): a new message at the bottom of the
    channel, and the old one is deleted, buttons and all."""

    class FreshOnTable:
        def __init__(self, core) -> None:
            self.core = core

        def __getattr__(self, name: str):
            return getattr(self.core, name)

        async def handle(self, command):
            items = await self.core.handle(command)
            if command.args[:1] == ("table",):  # what the core does now (see `Outgoing.fresh`)
                items = [
                    replace(i, fresh=True) if i.kind is OutKind.EDIT_TABLE else i for i in items
                ]
            return items

        async def press(self, press):
            return await self.core.press(press)

    harness, _ = build(FreshOnTable(make_core(memory_store, seed="again")))
    ayse, mehmet = harness.user(AYSE, "Ayşe"), harness.user(MEHMET, "Mehmet")
    await seat_two(harness, ayse, mehmet)
    channel = harness.channel(CHANNEL)
    first = channel.table_message()
    await harness.slash(ayse, "poker rules", CHANNEL)
    assert channel.table_message() is first
    await harness.slash(mehmet, "poker table", CHANNEL)
    second = channel.table_message()
    assert second.id != first.id and first.deleted
    assert second is channel.live()[-1]
    assert harness.unanswered() == []


async def test_closed_tables_are_forgotten(memory_store):
    core = make_core(memory_store, seed="prune")
    harness, spy = build(core, dm_fallback=False)
    ayse, mehmet = harness.user(AYSE, "Ayşe"), harness.user(MEHMET, "Mehmet")
    await seat_two(harness, ayse, mehmet)
    table = str(session_of(spy).table_id)
    assert harness.adapter.prune() == 0  # still open
    await harness.slash(ayse, "poker leave", CHANNEL)
    await harness.slash(mehmet, "poker leave", CHANNEL)
    assert session_of(spy) is None  # the last player out closed it
    assert harness.adapter.prune() == 1
    assert table not in harness.adapter.boards.boards and table not in harness.adapter.buttons


async def test_a_channel_the_bot_may_not_post_in_is_reported_to_the_sender(memory_store):
    from testkit.fakes.discord_fakes import http_error

    core = make_core(memory_store, seed="forbidden")
    harness, _ = build(core)
    ayse = harness.user(AYSE, "Ayşe")
    channel = harness.channel(CHANNEL)

    async def refuse(*args, **kwargs):
        raise http_error(discord.Forbidden, 403, 50013)

    channel.send = refuse
    opened = await harness.slash(ayse, "poker open", CHANNEL)
    [reply] = [d for d in harness.log.deliveries if d.interaction == opened.id]
    assert reply.audience == "ephemeral" and "cannot post in this channel" in reply.text
    assert harness.unanswered() == []


async def test_the_hand_button_speaks_the_tables_language(memory_store):
    core = make_core(memory_store, seed="dil")
    harness, _ = build(core)
    mehmet = harness.user(MEHMET, "Mehmet")
    await harness.slash(mehmet, "poker open", CHANNEL, locale="tr")
    labels = harness.channel(CHANNEL).table_message().labels()
    assert [label for cid, label in labels.items() if cid.startswith("h:")] == ["Elimi göster"]


async def test_a_batch_writes_only_the_newest_table_state():
    class BurstCore(NarrowCore):
        async def handle(self, command):
            return [
                Outgoing(OutKind.EDIT_TABLE, f"state {n}", channel_id=str(CHANNEL), table_id="4")
                for n in range(3)
            ] + [Outgoing(OutKind.PUBLIC, "Bot 1 checks.", channel_id=str(CHANNEL), table_id="4")]

    harness = DiscordHarness(DiscordAdapter(BurstCore(), boards=quick_boards()))
    await harness.slash(harness.user(AYSE, "Ayşe"), "poker rules", CHANNEL)
    channel = harness.channel(CHANNEL)
    assert (channel.posts, channel.edits) == (2, 0)
    assert [m.content for m in channel.live()] == ["state 2", "Bot 1 checks."]
