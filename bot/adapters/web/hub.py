"""The viewers of each table and the state frames they get after every committed step.

The core tells the hub (table id, version) after each commit (`CoreApi.subscribe`; with
PostgreSQL also other processes' commits, `LiveTableApi.follow`). The hub then builds every
viewer's view of that table from one read of the store (`LiveTableApi.table_views`; one per
language the viewers read, since each gets the last moves and the previous hand's lines in
their own) and sends each its `state` frame; equal views (every spectator's of one language)
are serialised once. A table's broadcasts never overlap: a version told while one runs makes
it run once more when it ends, so a burst of steps (computer moves) costs one or two rounds,
and the last state always goes out. A version not newer than the last one sent is ignored (the
same commit heard twice: in-process and through PostgreSQL).

A reaction at a table (`LiveTableApi.watch_reactions`) is no new version: every page of that
table gets a small `reaction` frame (the seat's index and the reaction's value, nothing else),
which it shows beside the seat for a few seconds unless its player muted reactions there.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from aiohttp import web

from bot.adapters.web.avatars import Avatars
from bot.adapters.web.tokens import Identity
from bot.adapters.web.wire import frame, state_text, view_text
from bot.core.api import LiveTableApi, RematchView, TableView
from bot.core.i18n import t
from bot.logs import kv

log = logging.getLogger("bot.web")


@dataclass(eq=False)
class Viewer:
    """One open page: its socket and who it is."""

    ws: web.WebSocketResponse
    who: Identity
    group: str = ""  # the table's command group (`poker` or `okey`), from its first view
    seated: bool = False


@dataclass
class _Table:
    viewers: dict[Viewer, None] = field(default_factory=dict)  # a set, in the order pages opened
    version: int = 0  # the newest version told
    sent: int = -1  # the version the last broadcast started from
    task: asyncio.Task[None] | None = None
    again: bool = False


class Hub:
    """Viewers by table; sends each the table's state after every committed step."""

    def __init__(
        self,
        cores: dict[str, LiveTableApi],
        *,
        on_sent: Callable[[str, int, int], None] | None = None,
        clock: Callable[[], float] = time.time,
        avatars: Avatars | None = None,
    ) -> None:
        self.cores = cores
        self.avatars = avatars or Avatars()  # seat pictures (URLs) by player
        self.clock = clock  # seconds since the epoch: each state frame's `now`
        self.tables: dict[tuple[str, str], _Table] = {}  # (platform, table id)
        self.on_sent = on_sent  # (table id, viewers, bytes) after a broadcast, for metrics
        self._unsubscribe: list[Callable[[], None]] = []
        self._sending: set[asyncio.Task[None]] = set()  # reaction frames on their way

    def start(self) -> None:
        """Listen to every core's commits."""
        for platform, core in self.cores.items():
            self._unsubscribe.append(core.subscribe(self._listener(platform)))
            self._unsubscribe.append(core.watch_reactions(self._reactions(platform)))

    def _listener(self, platform: str) -> Callable[[str, int], None]:
        def told(table_id: str, version: int) -> None:
            self.changed(platform, table_id, version)

        return told

    def _reactions(self, platform: str) -> Callable[[str, int, str], None]:
        def reacted(table_id: str, seat: int, reaction: str) -> None:
            self.reacted(platform, table_id, seat, reaction)

        return reacted

    def reacted(self, platform: str, table_id: str, seat: int, reaction: str) -> None:
        """A seated player reacted: every page of the table gets a `reaction` frame (soon)."""
        table = self.tables.get((platform, table_id))
        if table is None or not table.viewers:
            return
        text = frame("reaction", seat=seat, reaction=reaction)
        task = asyncio.get_running_loop().create_task(self._send_all(list(table.viewers), text))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _send_all(self, viewers: list[Viewer], text: str) -> None:
        for viewer in viewers:
            await send(viewer, text)

    async def stop(self) -> None:
        """Stop listening and close every socket."""
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe.clear()
        for task in list(self._sending):
            task.cancel()
        for table in list(self.tables.values()):
            if table.task is not None:
                table.task.cancel()
            for viewer in list(table.viewers):
                with contextlib.suppress(Exception):
                    await viewer.ws.close(code=1001, message=b"server stopping")
        self.tables.clear()

    # --- viewers ---------------------------------------------------------------------------

    def count(self, platform: str, table_id: str) -> int:
        """How many pages look at the table."""
        table = self.tables.get((platform, table_id))
        return 0 if table is None else len(table.viewers)

    def viewers(self) -> int:
        """How many pages are connected in all."""
        return sum(len(t.viewers) for t in self.tables.values())

    def pages_of(self, platform: str, table_id: str, user_id: str) -> list[Viewer]:
        """The pages of one user at a table (a reload, another device), oldest first."""
        table = self.tables.get((platform, table_id))
        if table is None:
            return []
        return [v for v in table.viewers if v.who.user_id == user_id]

    def add(self, viewer: Viewer, version: int = 0) -> None:
        """Start sending `viewer` its table's states."""
        key = (viewer.who.platform, viewer.who.table_id)
        table = self.tables.setdefault(key, _Table())
        table.viewers[viewer] = None
        table.version = max(table.version, version)

    def remove(self, viewer: Viewer) -> None:
        """Stop sending `viewer` anything."""
        key = (viewer.who.platform, viewer.who.table_id)
        table = self.tables.get(key)
        if table is None:
            return
        table.viewers.pop(viewer, None)
        if not table.viewers and table.task is None:
            del self.tables[key]

    # --- broadcasts --------------------------------------------------------------------------

    def changed(self, platform: str, table_id: str, version: int) -> None:
        """The table has a new committed version: every viewer gets its new state (soon)."""
        table = self.tables.get((platform, table_id))
        if table is None or not table.viewers or version <= table.sent:
            return
        table.version = max(table.version, version)
        if table.task is not None:
            table.again = True
            return
        table.task = asyncio.get_running_loop().create_task(self._broadcast(platform, table_id))

    async def _broadcast(self, platform: str, table_id: str) -> None:
        key = (platform, table_id)
        table = self.tables[key]
        try:
            while True:
                table.again = False
                table.sent = table.version
                await self.send_states(platform, table_id, list(table.viewers), table.sent)
                if not table.again:
                    break
        except Exception:
            log.exception(kv(event="web_broadcast_failed", table=table_id))
        finally:
            table.task = None
            if not table.viewers:
                self.tables.pop(key, None)

    async def send_states(
        self, platform: str, table_id: str, viewers: list[Viewer], version: int | None = None
    ) -> None:
        """Send each of `viewers` (all of one table) its state now (at `version` or newer, when
        known), the moves in the viewer's language (one read of the views per language); a
        closed table says so and closes their sockets."""
        core = self.cores.get(platform)
        if core is None or not viewers:
            return
        by_locale: dict[str, list[Viewer]] = {}
        for viewer in viewers:
            by_locale.setdefault(viewer.who.locale, []).append(viewer)
        shared: dict[TableView, str] = {}  # every spectator's view (of one language) is the same
        sent = 0
        now = datetime.fromtimestamp(self.clock(), UTC)  # every frame's `now` (the countdown)
        for locale, group in by_locale.items():
            users = [v.who.user_id for v in group]
            views = await core.table_views(table_id, platform, users, version, locale=locale)
            if views is None:
                await self._table_closed(core, platform, table_id, viewers)
                return
            for viewer in group:
                view = views[viewer.who.user_id]
                if view.hidden:  # watching was turned off meanwhile: told, the page closed
                    await self._closed([viewer], "err.private_no_watchers")
                    continue
                common = shared.get(view)
                if common is None:
                    pictures = self.avatars.seats(platform, (s.user_id for s in view.seats))
                    common = shared[view] = view_text(view, pictures)
                text = state_text(common, viewer.who.name, now=now)
                viewer.group, viewer.seated = view.group, view.me is not None
                if await send(viewer, text):
                    sent += len(text.encode())
        if self.on_sent is not None:
            self.on_sent(table_id, len(viewers), sent)

    async def _closed(self, viewers: list[Viewer], key: str = "err.no_such_table") -> None:
        for viewer in viewers:
            await send(viewer, frame("closed", text=t(viewer.who.locale, key)))
            with contextlib.suppress(Exception):
                await viewer.ws.close()

    async def _table_closed(
        self, core: LiveTableApi, platform: str, table_id: str, viewers: list[Viewer]
    ) -> None:
        """Tell `viewers` their table closed and close their sockets; a player of its "Play
        again" offer gets the offer with it (`closed_frame`; one read for them all)."""
        users = list(dict.fromkeys(v.who.user_id for v in viewers))
        try:
            offers = await core.rematch_offers(table_id, platform, users)
        except Exception as exc:  # (the database away) the close is said all the same
            log.warning(
                kv(event="web_rematch_offer_failed", table=table_id, error=type(exc).__name__)
            )
            offers = {}
        for viewer in viewers:
            await send(viewer, closed_frame(viewer.who.locale, offers.get(viewer.who.user_id)))
            with contextlib.suppress(Exception):
                await viewer.ws.close()


def closed_frame(locale: str, offer: RematchView | None) -> str:
    """The `closed` frame (docs/web.md, "Protocol"): why, in `locale`, and for a player of the
    closed table's "Play again" offer the offer (counts only, and the words of its button)."""
    text = t(locale, "err.no_such_table")
    if offer is None:
        return frame("closed", text=text)
    counts = {"pressed": offer.pressed, "total": offer.total}
    key = "web.rematch.waiting" if offer.done else "web.rematch.play"
    rematch = {**counts, "done": offer.done, "label": t(locale, key, **counts)}
    return frame("closed", text=text, rematch=rematch)


async def send(viewer: Viewer, text: str) -> bool:
    """Send one frame; False when the page is gone (its handler cleans up)."""
    if viewer.ws.closed:
        return False
    try:
        await viewer.ws.send_str(text)
    except (ConnectionError, RuntimeError):
        return False
    return True
