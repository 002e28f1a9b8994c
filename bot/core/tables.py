"""The table service: open tables in memory, one lock each, every accepted step committed first.

Each step runs under the table's asyncio lock on the live session. If the session refuses, or the
commit fails, the session is rebuilt from the last committed snapshot, so a refusal changes
nothing. Only after `store.commit` succeeds are the step's messages returned. Computer players
(bots, and players who timed out repeatedly) then act, one commit per move.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from bot.core.config import CoreConfig
from bot.core.deliver import deliver, log_moves, table_message
from bot.core.errors import Refusal
from bot.core.messages import Outgoing
from bot.core.session import Note, Step, TableSession, Who, msg
from bot.logs import kv
from games.base import IllegalAction
from storage import ActionEntry, InsufficientFunds, StaleVersion, StorageError

if TYPE_CHECKING:
    from storage import Store, TableRecord

log = logging.getLogger("bot.core.tables")

MAX_AUTO_MOVES = 400  # computer moves in a row before the loop yields (a safety bound)


def new_nonce() -> str:
    """A short random turn nonce (6 hex digits)."""
    return secrets.token_hex(3)


class LiveTable:
    """An open table held in memory: its record, last committed snapshot, session and lock."""

    def __init__(self, record: TableRecord, session: TableSession) -> None:
        self.id = record.id
        self.platform = record.platform
        self.channel_id = record.channel_id
        self.game = record.game
        self.version = record.version
        self.snapshot: dict[str, Any] = record.snapshot
        self.session = session
        self.lock = asyncio.Lock()
        self.closed = False


class TableService:
    """Opens, loads, runs and closes tables; the only code that commits play to the store."""

    def __init__(
        self,
        store: Store,
        config: CoreConfig,
        clock: Callable[[], datetime],
        seeds: Callable[[str], bytes],  # hand id -> its seed (`bot.core.fairness`)
        kinds: Mapping[str, type[TableSession]],
    ) -> None:
        self.store = store
        self.config = config
        self.clock = clock
        self.seeds = seeds
        self.kinds = kinds
        self.tables: dict[int, LiveTable] = {}
        self.channels: dict[tuple[str, str], int] = {}

    # --- finding and loading --------------------------------------------------------------------

    def in_channel(self, platform: str, channel_id: str) -> LiveTable | None:
        """The open table of a channel, or None."""
        table_id = self.channels.get((platform, channel_id))
        return None if table_id is None else self.tables.get(table_id)

    def get(self, table_id: str) -> LiveTable | None:
        """An open table by the id a button carries, or None."""
        if not (table_id.isascii() and table_id.isdigit()) or len(table_id) > 18:
            return None  # a forged id: other scripts' digits or absurdly long
        return self.tables.get(int(table_id))

    def _session(self, game: str, snapshot: dict[str, Any], table_id: int) -> TableSession:
        """Rebuild a table's session from its snapshot, bound to this service."""
        session = self.kinds[game].from_dict(snapshot)
        session.table_id = table_id
        self._bind(session)
        return session

    def _bind(self, session: TableSession) -> None:
        session.now = self.clock()
        session.seeds = self.seeds
        session.pictures = self.config.pictures

    def _register(self, live: LiveTable) -> None:
        self.tables[live.id] = live
        self.channels[(live.platform, live.channel_id)] = live.id

    def _unregister(self, live: LiveTable) -> None:
        live.closed = True
        self.tables.pop(live.id, None)
        if self.channels.get((live.platform, live.channel_id)) == live.id:
            del self.channels[(live.platform, live.channel_id)]

    async def load(self) -> list[Outgoing]:
        """Load every open table from the store; each posts its table message again."""
        out: list[Outgoing] = []
        wanted = self.config.platforms
        for record in await self.store.load_open_tables():
            if wanted is not None and record.platform not in wanted:
                continue  # another process or front end runs that platform's tables
            if record.game not in self.kinds:
                log.warning(kv(event="unknown_game", table=record.id, game=record.game))
                continue
            live = LiveTable(record, self._session(record.game, record.snapshot, record.id))
            self._register(live)
            # the table message is posted anew (the adapter may have lost the old one), saying
            # once that the table is back; the note is not kept in the move log
            back = msg("table.resumed", table=live.id)
            out.append(table_message(live.session, live.channel_id, fresh=True, note=back))
            log.info(kv(event="table_loaded", table=live.id, game=live.game, version=live.version))
        return out

    # --- opening --------------------------------------------------------------------------------

    async def open(
        self, platform: str, channel_id: str, who: Who, session: TableSession, first: str | None
    ) -> list[Outgoing]:
        """Create a table for `session` in a channel (one per channel); `first` is a sub-command
        the opener runs at once (Okey: `join`)."""
        if self.in_channel(platform, channel_id) is not None:
            raise Refusal("err.table_exists")
        self._bind(session)
        session.nonce = new_nonce()
        snapshot = session.to_dict()
        try:
            record = await self.store.create_table(
                platform, channel_id, session.game, session.options, snapshot
            )
        except StorageError as exc:
            log.info(kv(event="open_refused", channel=channel_id, reason=type(exc).__name__))
            raise Refusal("err.table_exists") from None
        session.table_id = record.id
        opened = msg("table.opened", table=record.id, game=msg(f"game.{session.game}"))
        log_moves(session, [Note([opened])])
        live = LiveTable(record, session)
        # the id is known only now: the log's first line is stored with the next commit, and
        # until then a refused step's restore keeps it
        live.snapshot = session.to_dict()
        self._register(live)
        log.info(kv(event="table_open", table=record.id, game=session.game, channel=channel_id))
        if first is None:
            return [table_message(session, channel_id)]
        return await self.run(live, who, lambda s: s.command(who, first, ()))

    # --- running steps --------------------------------------------------------------------------

    def _restore(self, live: LiveTable) -> None:
        """Throw away uncommitted changes: rebuild the session from the last snapshot."""
        live.session = self._session(live.game, live.snapshot, live.id)

    async def run(
        self, live: LiveTable, who: Who | None, change: Callable[[TableSession], Step]
    ) -> list[Outgoing]:
        """Apply one change under the table's lock, commit it, then let computer players act."""
        async with live.lock:
            if live.closed:
                raise Refusal("err.no_table")
            session = live.session
            self._bind(session)
            try:
                step = change(session)
                index = None if who is None else session.find(who.player_id)
                if who is not None and index is not None:
                    seat = session.seats[index]  # they are here: no more computer stand-in
                    seat.locale = who.locale
                    seat.away, seat.timeouts = False, 0
            except IllegalAction as exc:
                self._restore(live)
                raise Refusal(f"illegal.{exc.code}", reason=str(exc), **_safe(exc.params)) from None
            except Exception:
                self._restore(live)
                raise
            if step.player_id is None and who is not None:
                step.player_id = who.player_id
            out = await self._commit(live, step)
            out += await self._autoplay(live)
            return out

    async def _commit(self, live: LiveTable, step: Step) -> list[Outgoing]:
        session = live.session
        now = self.clock()
        session.nonce = new_nonce()
        session.touched = now
        actor = session.actor()
        if actor is not None and session.auto_seat() is None:
            session.deadline = now + timedelta(seconds=self.config.turn_seconds)
        else:
            session.deadline = None
        if step.status == "closed":
            session.phase = "closed"
        log_moves(session, step.notes)  # before the snapshot, so that the log is kept
        snapshot = session.to_dict()
        entry = ActionEntry(
            seat=step.seat,
            player_id=step.player_id,
            action=step.action or {"kind": "update"},
            at=now,
        )
        try:
            version = await self.store.commit(
                live.id,
                live.version,
                snapshot,
                action=entry,
                transfers=step.transfers,
                status=step.status,
                results=step.results,
                penalties=step.penalties,
                seeds=step.seeds,
            )
        except InsufficientFunds:
            self._restore(live)
            raise Refusal("err.funds") from None
        except StaleVersion:
            await self._reload(live)
            raise Refusal("err.stale") from None
        except StorageError as exc:
            self._restore(live)
            log.warning(kv(event="commit_failed", table=live.id, error=type(exc).__name__))
            raise Refusal("err.storage") from None
        live.version = version
        live.snapshot = snapshot
        log.info(
            kv(
                event="step",
                table=live.id,
                version=version,
                action=entry.action.get("kind"),
                seat=step.seat,
            )
        )
        if step.status == "closed":
            self._unregister(live)
        return deliver(session, live.channel_id, step.notes)

    async def _reload(self, live: LiveTable) -> None:
        """Another writer got there first: take the stored state as the truth."""
        record = await self.store.get_table(live.id)
        live.version = record.version
        live.snapshot = record.snapshot
        self._restore(live)
        if record.status != "open":
            self._unregister(live)

    async def _autoplay(self, live: LiveTable) -> list[Outgoing]:
        out: list[Outgoing] = []
        for _ in range(MAX_AUTO_MOVES):
            if live.closed:
                break
            index = live.session.auto_seat()
            if index is None:
                break
            self._bind(live.session)
            player_id = live.session.seats[index].player_id
            try:
                step = live.session.auto_move(index, afk=False)
            except (IllegalAction, Refusal) as exc:
                self._restore(live)
                log.error(kv(event="auto_move_refused", table=live.id, error=str(exc)))
                break
            step.seat = index if step.seat is None else step.seat
            step.player_id = player_id
            out += await self._commit(live, step)
        return out

    # --- timers and closing ---------------------------------------------------------------------

    async def tick(self, now: datetime) -> list[Outgoing]:
        """Time out players who waited too long to act and close tables nobody started."""
        out: list[Outgoing] = []
        idle = timedelta(seconds=self.config.idle_close_seconds)
        for live in list(self.tables.values()):
            session = live.session
            try:
                if session.deadline is not None and now >= session.deadline:
                    out += await self.run(live, None, self._time_out)
                elif session.phase == "waiting" and now - session.touched >= idle:
                    out += await self.run(live, None, lambda s: s.close())
            except Refusal as exc:
                log.info(kv(event="tick_skipped", table=live.id, reason=exc.key))
        return out

    def _time_out(self, session: TableSession) -> Step:
        index = session.actor()
        if index is None or session.deadline is None or session.now < session.deadline:
            raise Refusal("err.no_turn")
        seat = session.seats[index]
        seat.timeouts += 1
        step = session.auto_move(index, afk=True)
        step.notes.insert(0, Note([msg("turn.timeout", name=seat.name)], announce=True))
        if seat.timeouts >= self.config.afk_limit and not seat.away:
            seat.away = True
            step.notes.append(Note([msg("turn.away", name=seat.name)], announce=True))
        step.seat = index
        step.player_id = seat.player_id
        if step.action is not None:
            step.action = {**step.action, "timeout": True}
        return step

    async def reset(self, live: LiveTable, who: Who, reason: str) -> dict[int, int]:
        """A moderator ends the table: every player gets back their chips in it; logged. The
        session is left closed, so that its last table message has no buttons."""
        async with live.lock:
            if live.closed:
                raise Refusal("err.no_table")
            refunds = live.session.refunds()
            paid = await self.store.reset_table(live.id, who.player_id, reason, refunds)
            self._unregister(live)
            live.session.phase = "closed"
            log.info(kv(event="table_reset", table=live.id, moderator=who.player_id))
            return paid


def _safe(params: Mapping[str, Any]) -> dict[str, Any]:
    """IllegalAction parameters usable in a translated text (never a card list)."""
    return {k: v for k, v in params.items() if isinstance(v, int | str) and k != "reason"}
