"""Several Telegram processes share each table's one message through the store: the next move
delivered by another process edits the message the first one posted, a fresh post retires the
other process's message, an older state never replaces a newer one, a restart posts the table
again (deleting the stored old one), and one process alone reads the store only on a miss."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from telegram.ext import AIORateLimiter

from bot.adapters.telegram import build_application
from bot.adapters.telegram.adapter import TelegramAdapter
from bot.core.messages import Button, Outgoing, OutKind
from storage import Store
from testkit.fakes.telegram_harness import ManualClock, ManualSleep, ScriptedCore
from testkit.fakes.telegram_server import FakeTelegram
from testkit.shared_store import BrokenStore, CountingStore

GROUP = -100700
TABLE = "7"


def state(version: int, *, fresh: bool = False, text: str | None = None) -> Outgoing:
    """The table message at `version` (its buttons carry the version as their turn)."""
    buttons = ((Button("Check", TABLE, "check", f"n{version}"),),)
    body = text or f"table at v{version}"
    return Outgoing(
        OutKind.EDIT_TABLE,
        body,
        str(GROUP),
        table_id=TABLE,
        buttons=buttons,
        fresh=fresh,
        version=version,
    )


class Process:
    """One bot process: its own application and adapter (its own memory) on the shared fake
    Bot API and the shared store."""

    def __init__(self, server: FakeTelegram, store: Any) -> None:
        limiter = AIORateLimiter(overall_max_rate=0, group_max_rate=0)
        self.application = build_application(server.token, server.base_url, limiter)
        self.adapter = TelegramAdapter(
            ScriptedCore(),
            default_locale="en",
            clock=ManualClock(),
            sleep=ManualSleep(),
            table_messages=store,
        )
        self.adapter.install(self.application)

    async def show(self, *items: Outgoing) -> None:
        """Deliver the items and wait until the group traffic went out."""
        await self.adapter.deliver(list(items))
        assert self.adapter.delivery is not None
        await self.adapter.delivery.outbox.drain(10)


@asynccontextmanager
async def processes(*stores: Any) -> AsyncIterator[tuple[FakeTelegram, list[Process]]]:
    """One fake Bot API and a process per store given (the same store for shared tables)."""
    server = FakeTelegram()
    await server.start()
    running = [Process(server, store) for store in stores]
    try:
        for process in running:
            await process.application.initialize()
        yield server, running
    finally:
        for process in running:
            await process.adapter.flush(10)
            await process.application.shutdown()
        await server.stop()


def sends(server: FakeTelegram) -> int:
    return len(server.calls_to("sendMessage"))


def text_of(server: FakeTelegram, message_id: int) -> str:
    return server.messages[(GROUP, message_id)]["text"]


async def test_the_next_move_delivered_by_another_process_edits_the_same_message(
    memory_store: Store,
) -> None:
    async with processes(memory_store, memory_store) as (server, (a, b)):
        await a.show(state(1))
        [posted] = server.messages_sent_ids(GROUP)
        await b.show(state(2))
        [edit] = server.calls_to("editMessageText")
        assert edit.params["message_id"] == posted
        assert sends(server) == 1  # no second table message
        assert server.messages_sent_ids(GROUP) == [posted]
        assert text_of(server, posted) == "table at v2"
        assert server.last_keyboard(GROUP, posted)[0][0]["callback_data"] == "7:check:n2"
        await a.show(state(3))  # and back: A still knows it
        assert text_of(server, posted) == "table at v3" and sends(server) == 1


async def test_one_process_reads_the_store_only_on_a_miss(memory_store: Store) -> None:
    counting = CountingStore(memory_store)
    async with processes(counting) as (server, (a,)):
        await a.show(state(1))
        assert counting.calls == ["read", "write"]  # a new table: nothing stored yet
        for version in range(2, 7):
            await a.show(state(version))
        assert counting.calls == ["read", "write"]  # moves cost no store call
        assert len(server.calls_to("editMessageText")) == 5
        await a.show(state(7, fresh=True))  # a new hand: posted anew, stored
        assert counting.calls == ["read", "write", "write"]
        [newest] = server.messages_sent_ids(GROUP)
        stored = await memory_store.table_message("telegram", TABLE)
        assert stored is not None and (stored.message_id, stored.version) == (str(newest), 7)


async def test_a_fresh_post_by_another_process_retires_the_old_message(
    memory_store: Store,
) -> None:
    async with processes(memory_store, memory_store) as (server, (a, b)):
        await a.show(state(1))
        [first] = server.messages_sent_ids(GROUP)
        await b.show(state(2, fresh=True))  # B announces a hand: the table goes to the bottom
        [second] = server.messages_sent_ids(GROUP)
        assert second != first  # A's message was deleted by B
        # A remembers the deleted message: its edit fails, it reads the store and follows B
        await a.show(state(3))
        assert server.messages_sent_ids(GROUP) == [second]
        assert text_of(server, second) == "table at v3"
        assert sends(server) == 2


async def test_an_older_state_never_replaces_a_newer_one(memory_store: Store) -> None:
    async with processes(memory_store, memory_store) as (server, (a, b)):
        await a.show(state(5, fresh=True))
        [newer] = server.messages_sent_ids(GROUP)
        await b.show(state(4, fresh=True))  # late: B posts, loses the store's compare-and-set
        assert server.messages_sent_ids(GROUP) == [newer]  # B deleted its own, not A's
        assert text_of(server, newer) == "table at v5"
        stored = await memory_store.table_message("telegram", TABLE)
        assert stored is not None and (stored.message_id, stored.version) == (str(newer), 5)
        await b.show(state(6))  # B now edits A's message
        assert server.messages_sent_ids(GROUP) == [newer]
        assert text_of(server, newer) == "table at v6"


async def test_a_restarted_process_posts_the_table_again_and_deletes_the_old_one(
    memory_store: Store,
) -> None:
    async with processes(memory_store, memory_store) as (server, (before, after)):
        await before.show(state(3))
        [old] = server.messages_sent_ids(GROUP)
        # the restarted process (empty memory) resumes the table: posted again with its note
        await after.show(state(3, fresh=True, text="table at v3\nThe table is back"))
        [new] = server.messages_sent_ids(GROUP)
        assert new != old and text_of(server, new).endswith("The table is back")
        stored = await memory_store.table_message("telegram", TABLE)
        assert stored is not None and stored.message_id == str(new)


async def test_a_message_deleted_by_someone_is_posted_again_and_stored(
    memory_store: Store,
) -> None:
    counting = CountingStore(memory_store)
    async with processes(counting) as (server, (a,)):
        await a.show(state(1))
        [first] = server.messages_sent_ids(GROUP)
        del server.messages[(GROUP, first)]  # a chat admin deleted it
        await a.show(state(2))
        [again] = server.messages_sent_ids(GROUP)
        assert again != first and text_of(server, again) == "table at v2"
        # one read after the failed edit (the store still named the deleted one), one write
        assert counting.calls == ["read", "write", "read", "write"]
        stored = await memory_store.table_message("telegram", TABLE)
        assert stored is not None and stored.message_id == str(again)


async def test_a_failing_store_never_stops_the_table() -> None:
    async with processes(BrokenStore()) as (server, (a,)):
        await a.show(state(1))
        await a.show(state(2))
        [posted] = server.messages_sent_ids(GROUP)
        assert text_of(server, posted) == "table at v2" and sends(server) == 1
