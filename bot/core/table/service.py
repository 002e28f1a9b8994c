"""The table service: open tables in memory, one lock each, every accepted step committed first.

Each step runs under the table's asyncio lock on the live session. If the session refuses, or the
commit fails, the session is rebuilt from the last committed snapshot, so a refusal changes
nothing. Only after `store.commit` succeeds are the step's messages returned. Computer players
(bots, and players who timed out repeatedly) then act, one commit per move.

Several processes may serve the same tables (docs/architecture.md, "Several processes"): the
memory copy is a cache, trusted until the store says otherwise: a step is applied to it and
committed with the store's compare-and-set on the version, and one that loses the race to another
process's commit is tried once more on the reloaded state; one refused or only answered on a copy
not read in that step is checked with one read (`bot.core.table.trust`). Timers live in the store
(the `deadline` every commit writes) and `tick` claims the due tables, so each time-out happens
once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from bot.core.config import CoreConfig
from bot.core.errors import Refusal, storage_refusal
from bot.core.messages import Outgoing
from bot.core.table import rematch, trust
from bot.core.table.deliver import deliver, deliver_meanwhile, log_moves, table_message
from bot.core.table.due import due
from bot.core.table.live import (
    LiveTable,
    LostRace,
    logged_action,
    new_nonce,
    safe_params,
    table_number,
)
from bot.core.table.private import seat_guard
from bot.core.table.reacting import fold
from bot.core.table.rooms import SHARED
from bot.core.table.session import (
    Note,
    Step,
    TableSession,
    Who,
    is_computer,
    json_copy,
    msg,
)
from bot.core.table.speed import call, due_call, turn_deadline
from bot.logs import kv
from games.base import IllegalAction
from storage import (
    ActionEntry,
    CommunityFull,
    InsufficientFunds,
    NotFound,
    StaleVersion,
    StorageError,
    TableClosed,
    Unavailable,
)

if TYPE_CHECKING:
    from storage import Store

log = logging.getLogger("bot.core.tables")

MAX_AUTO_MOVES = 400  # computer moves in a row before the loop yields (a safety bound)
CLAIM_BATCH = 50  # due tables claimed per store round trip
CLAIM_ROUNDS = 20  # claims per tick at most (a bound when very many tables are due)
CLAIM_LEASE = timedelta(seconds=30)  # a claimed table is due again if no commit follows
# a computer player to act is played at once by the process that committed the step before;
# only if that process dies first do the others' timers take over, this much later


class TableService:
    """Opens, loads, runs and closes tables; the only code that commits play to the store."""

    def __init__(
        self,
        store: Store,
        config: CoreConfig,
        clock: Callable[[], datetime],
        seeds: Callable[[str], bytes],  # hand id -> its seed (`bot.core.table.fairness`)
        kinds: Mapping[str, type[TableSession]],
    ) -> None:
        self.store = store
        self.config = config
        self.clock = clock
        self.seeds = seeds
        self.kinds = kinds
        self.tables: dict[int, LiveTable] = {}
        self.channels: dict[tuple[str, str], int] = {}
        # tournaments whose table this process has just closed: `Core` hands them to the
        # tournament service once the step's lock is released (`ended_tournaments`)
        self.ended: set[int] = set()
        # tournaments one of whose tables has just finished a round (its match goes on): their
        # standings show the new penalty totals (`rounds_ended`)
        self.rounds: set[int] = set()
        # told (table id, version) after each commit of this process (`Core.subscribe`)
        self.listeners: list[Callable[[str, int], None]] = []

    def notify(self, table_id: int, version: int) -> None:
        """Tell every listener that the table has a new committed version (a listener's bug is
        logged and never spoils the step); a copy in memory older than it is read before use."""
        live = self.tables.get(table_id)
        if live is not None and version > live.told:
            live.told = version
        for listener in list(self.listeners):
            try:
                listener(str(table_id), version)
            except Exception:
                log.exception(kv(event="listener_failed", table=table_id))

    # --- finding and loading --------------------------------------------------------------------

    def in_channel(self, platform: str, channel_id: str) -> LiveTable | None:
        """The open table of a channel as this process last saw it, or None (no store read:
        adapters and tests ask it; play goes through `find`)."""
        table_id = self.channels.get((platform, channel_id))
        return None if table_id is None else self.tables.get(table_id)

    def get(self, table_id: str) -> LiveTable | None:
        """An open table by the id a button carries, as this process last saw it, or None."""
        number = table_number(table_id)
        return None if number is None else self.tables.get(number)

    async def find(
        self, platform: str, channel_id: str, player_id: int | None = None
    ) -> LiveTable | None:
        """The open table of a channel as the store has it now: loaded when another process
        opened it, brought up to date when another process changed it, dropped when another
        process closed it; None when the channel has no open table. With `player_id`, a
        channel without a table of its own falls back to the table of one of its shared rooms
        (`bot.core.table.rooms`) where that player sits, so `/okey rack` typed in the parent works."""
        found = await self._find(platform, channel_id)
        if found is None and player_id is not None:
            room = self.seated_in_room(platform, channel_id, player_id)
            if room is not None:
                found = await self._find(platform, room.channel_id)
        return found

    def seated_in_room(self, platform: str, parent: str, player_id: int) -> LiveTable | None:
        """The open table of a shared room of `parent` where `player_id` sits (this process's
        tables), or None."""
        prefix = parent + SHARED
        for live in list(self.tables.values()):
            if (
                live.platform == platform
                and live.channel_id.startswith(prefix)
                and live.session.find(player_id) is not None
            ):
                return live
        return None

    def ended_tournaments(self) -> set[int]:
        """The tournaments whose tables closed since the last call (and forget them)."""
        ended, self.ended = self.ended, set()
        return ended

    def rounds_ended(self) -> set[int]:
        """The tournaments one of whose tables finished a round (the match going on) since the
        last call (and forget them)."""
        rounds, self.rounds = self.rounds, set()
        return rounds

    async def _find(self, platform: str, channel_id: str) -> LiveTable | None:
        known = self.in_channel(platform, channel_id)
        scope = trust.scope()
        if scope is not None and known is None:
            scope.empty.add((platform, channel_id))  # checked by an open's insert, else after
            return None
        if scope is not None and known is not None and known.told <= known.version:
            scope.unread.setdefault(known.id, known)  # checked by its commit, else after
            return known
        head = await self.store.channel_head(platform, channel_id)
        known = self.in_channel(platform, channel_id)
        if head is None:
            if known is not None:
                self._unregister(known)  # closed by another process
            return None
        if known is None or known.id != head.id:
            return await self._load_id(head.id)
        if known.version != head.version:
            async with known.lock:  # (a step of this process may have moved it on meanwhile)
                if known.version < head.version and not known.closed:
                    await self._reload(known)
        return None if known.closed else known

    async def fetch(self, table_id: str) -> LiveTable | None:
        """An open table by the id a button carries, loaded from the store when this process
        has not seen it (another process opened it); None when there is no such open table.
        A table in memory is brought up to date by `run`, under its lock."""
        number = table_number(table_id)
        if number is None:
            return None
        return self.tables.get(number) or await self._load_id(number)

    async def current(self, table_id: str, told: int | None = None) -> LiveTable | None:
        """`fetch`, then brought up to date under its lock (one read of the version, a reload
        when another process moved it on); None when it is not open (read only). `told`: a
        version another process is known to have committed; older in memory, the table is
        reloaded at once (one read, not two)."""
        live = await self.fetch(table_id)
        if live is None:
            return None
        async with live.lock:
            if told is not None and live.version < told and not live.closed:
                await self._reload(live)
            else:
                await self._refresh(live)
        return None if live.closed else live

    async def _load_id(self, table_id: int) -> LiveTable | None:
        """Load an open table of a platform this process serves into memory, or None."""
        try:
            record = await self.store.get_table(table_id)
        except NotFound:
            return None
        if record.status != "open" or not self._serves(record.platform):
            return None
        if record.game not in self.kinds:
            log.warning(kv(event="unknown_game", table=record.id, game=record.game))
            return None
        known = self.tables.get(table_id)
        if known is not None:  # another task loaded it meanwhile
            return known
        live = LiveTable(record, self._session(record.game, record.snapshot, record.id))
        self._register(live)
        log.info(kv(event="table_fetched", table=live.id, game=live.game, version=live.version))
        return live

    def _serves(self, platform: str) -> bool:
        wanted = self.config.platforms
        return wanted is None or platform in wanted

    async def _refresh(self, live: LiveTable) -> None:
        """Under the table's lock: make the memory copy current (one read of the version;
        a reload when another process moved it on; dropped when another process closed it)."""
        if live.closed:
            return
        head = await self.store.table_head(live.id)
        moved = head is None or head.status != "open" or head.version != live.version
        trust.checked(live.id, moved)
        if head is None or head.status != "open":
            self._unregister(live)
        elif moved:
            await self._reload(live)

    async def _moved(self, live: LiveTable) -> bool:
        """Whether another process moved the table on or closed it (reloaded or dropped then)."""
        version = live.version
        await self._refresh(live)
        return live.closed or live.version != version

    def _session(self, game: str, snapshot: dict[str, Any], table_id: int) -> TableSession:
        """Rebuild a table's session from its snapshot, bound to this service. The session gets
        its own copy: a change it makes and never commits must not reach the snapshot that an
        undo (`_restore`) rebuilds from."""
        session = self.kinds[game].from_dict(json_copy(snapshot))
        session.table_id = table_id
        self._bind(session)
        return session

    def _bind(self, session: TableSession) -> None:
        session.now = self.clock()
        session.seeds = self.seeds
        session.pictures = self.config.pictures
        session.idle_hands = self.config.idle_close_hands
        session.idle_seconds = self.config.idle_close_seconds
        session.rematch_seconds = self.config.rematch_seconds

    def _register(self, live: LiveTable) -> None:
        place = (live.platform, live.channel_id)
        old = self.tables.get(self.channels.get(place, 0))
        if old is not None and old is not live:
            self._unregister(old)  # a channel has one open table: the old one was closed
        self.tables[live.id] = live
        self.channels[place] = live.id

    def _unregister(self, live: LiveTable) -> None:
        live.closed = True
        self.tables.pop(live.id, None)
        if self.channels.get((live.platform, live.channel_id)) == live.id:
            del self.channels[(live.platform, live.channel_id)]

    async def load(self) -> list[Outgoing]:
        """Load every open table from the store; each posts its table message again."""
        out: list[Outgoing] = []
        for record in await self.store.load_open_tables():
            if not self._serves(record.platform):
                continue  # another process or front end runs that platform's tables
            if record.game not in self.kinds:
                log.warning(kv(event="unknown_game", table=record.id, game=record.game))
                continue
            live = LiveTable(record, self._session(record.game, record.snapshot, record.id))
            self._register(live)
            await live.session.prepare(None)
            # the table message is posted anew (the adapter may have lost the old one), saying
            # once that the table is back; the note is not kept in the move log
            back = msg("table.resumed", table=live.id)
            out.append(
                table_message(
                    live.session, live.channel_id, fresh=True, note=back, version=live.version
                )
            )
            log.info(kv(event="table_loaded", table=live.id, game=live.game, version=live.version))
        return out

    # --- opening --------------------------------------------------------------------------------

    async def open(
        self,
        platform: str,
        channel_id: str,
        who: Who | None,
        session: TableSession,
        first: str | None,
        community: str | None = None,
        tournament: int | None = None,
    ) -> list[Outgoing]:
        """Create a table for `session` in a channel (one per channel) of `community` (its
        results count there); `first` is a sub-command the opener (`who`) runs at once (Okey:
        `join`). `tournament`: the tournament the table plays a match of."""
        if self.in_channel(platform, channel_id) is not None:
            raise Refusal("err.table_exists")
        self._bind(session)
        session.nonce = new_nonce()
        snapshot = session.to_dict()
        try:
            record = await self.store.create_table(
                platform,
                channel_id,
                session.game,
                session.options,
                snapshot,
                deadline=due(session, self.clock(), None, self.config.idle_close_seconds),
                community=community,
                tournament=tournament,
                max_open=self.config.max_open_tables,  # counted in the same transaction
            )
        except CommunityFull as exc:
            raise Refusal("err.community_tables", max=exc.most) from None
        except Unavailable as exc:  # nothing was created: the opener may try again
            log.warning(kv(event="open_failed", channel=channel_id, error=type(exc).__name__))
            raise Refusal(storage_refusal(exc)) from None
        except StorageError as exc:
            log.info(kv(event="open_refused", channel=channel_id, reason=type(exc).__name__))
            raise Refusal("err.table_exists") from None
        session.table_id = record.id
        trust.committed()  # (the store found the channel free)
        opened = msg("table.opened", table=record.id, game=msg(f"game.{session.game}"))
        log_moves(session, [Note([opened])])
        live = LiveTable(record, session)
        # the id is known only now: the log's first line is stored with the next commit, and
        # until then a refused step's restore keeps it
        live.snapshot = session.to_dict()
        self._register(live)
        log.info(kv(event="table_open", table=record.id, game=session.game, channel=channel_id))
        if first is None or who is None:
            return [table_message(session, channel_id, version=record.version)]
        return await self.run(live, who, lambda s: s.command(who, first, ()), checked=True)

    # --- running steps --------------------------------------------------------------------------

    def _restore(self, live: LiveTable) -> None:
        """Throw away uncommitted changes: rebuild the session from the last snapshot."""
        live.session = self._session(live.game, live.snapshot, live.id)

    async def run(
        self,
        live: LiveTable,
        who: Who | None,
        change: Callable[[TableSession], Step],
        *,
        checked: bool = False,
    ) -> list[Outgoing]:
        """Apply one change under the table's lock, commit it, then let computer players act.

        The memory copy is trusted (read first only when another process is known to have moved
        it): the commit's compare-and-set checks it. A change that loses the race to another
        process's commit is applied once more to the fresh state: a press whose turn has passed
        meanwhile is then refused as stale, never applied twice. Unless `checked` (the caller
        read the version, or checks the outcome: `trust.run`), a refusal or a mere answer is
        checked with one read of the version, and the change applied again if it moved on."""
        async with live.lock:
            if live.told > live.version:
                await self._refresh(live)
                checked = True
            return await self._run_locked(live, who, change, retry=True, checked=checked)

    async def _run_locked(
        self,
        live: LiveTable,
        who: Who | None,
        change: Callable[[TableSession], Step],
        *,
        retry: bool,
        checked: bool,
    ) -> list[Outgoing]:
        lost = 0  # races lost on a copy known current (one on an unread copy is its reading)
        while True:
            if live.closed:
                raise Refusal("err.no_table")
            await live.session.prepare(None)  # the public odds, off the event loop
            try:
                step = self._apply(live, who, change)
            except Refusal:
                if checked or not await self._moved(live):
                    raise
                checked = True
                continue
            if step.answer_only:
                out = deliver(live.session, live.channel_id, step.notes, live.version)
                self._restore(live)  # (a person's press only looked)
                if checked or not await self._moved(live):
                    return out
                checked = True
                continue
            try:
                out = await self._commit(live, step)
            except LostRace:  # reloaded: the fresh state is known current
                lost += checked
                checked = True
                if lost >= (2 if retry else 1):
                    raise Refusal("err.stale") from None
                continue
            return out + await self._autoplay(live)

    def _apply(
        self, live: LiveTable, who: Who | None, change: Callable[[TableSession], Step]
    ) -> Step:
        """Run `change` on the live session; a refusal or a bug leaves the session as stored."""
        session = live.session
        self._bind(session)
        if who is not None and not is_computer(who):
            session.hear(session.now)  # a person acts here (`TableSession.abandoned`)
        try:
            guard = seat_guard(session, who)  # a private table's seats (`table.private`)
            step = change(session)
            guard()
            index = None if who is None else session.find(who.player_id)
            if who is not None and index is not None:
                seat = session.seats[index]  # they are here: no more computer stand-in
                seat.locale, seat.symbols = who.locale, who.symbols
                seat.away, seat.timeouts, seat.away_hands = False, 0, 0
        except IllegalAction as exc:
            self._restore(live)
            raise Refusal(
                f"illegal.{exc.code}", reason=str(exc), **safe_params(exc.params)
            ) from None
        except Exception:
            self._restore(live)
            raise
        if step.player_id is None and who is not None:
            step.player_id = who.player_id
        return step

    async def _commit(self, live: LiveTable, step: Step) -> list[Outgoing]:
        session = live.session
        now = self.clock()
        rematch.offer_after_close(session, step)  # everyone left: they may play again
        session.nonce = new_nonce()
        session.touched = now
        session.deadline = turn_deadline(session, now, self.config.turn_seconds)
        if step.status == "closed":
            session.phase = "closed"
        if (reacted := fold(live.reactions)) is not None:  # before the step's own moves
            session.log_moves([reacted])
        log_moves(session, step.notes)  # before the snapshot, so that the log is kept
        snapshot = session.to_dict()
        due_at = due(session, now, step.status, self.config.idle_close_seconds)
        entry = ActionEntry(
            seat=step.seat,
            player_id=step.player_id,
            action=logged_action(step),
            at=now,
        )
        commit = asyncio.ensure_future(
            self.store.commit(
                live.id,
                live.version,
                snapshot,
                action=entry,
                transfers=step.transfers,
                status=step.status,
                results=step.results,
                penalties=step.penalties,
                seeds=step.seeds,
                deadline=due_at,
                computers=step.computers,
                people=_people(session, step) if self.config.ratings else (),
            )
        )
        # the messages are put into words while the writer thread commits (and its disk syncs);
        # they are handed out only once the commit has succeeded
        words = await deliver_meanwhile(commit, session, live.channel_id, step.notes, live.version)
        try:
            version = await commit
        except InsufficientFunds:
            self._restore(live)
            raise Refusal(step.funds_refusal) from None
        except CommunityFull as exc:
            self._restore(live)
            raise Refusal("err.computers_community", max=exc.most) from None
        except StaleVersion:
            trust.checked(live.id, moved=True)
            await self._reload(live)
            raise LostRace from None
        except TableClosed:
            trust.checked(live.id, moved=True)
            self._unregister(live)  # another process closed or reset it
            raise Refusal("err.no_table") from None
        except StorageError as exc:
            self._restore(live)
            log.warning(kv(event="commit_failed", table=live.id, error=type(exc).__name__))
            raise Refusal(storage_refusal(exc)) from None
        live.version = version
        live.snapshot = snapshot
        live.reactions.clear()
        trust.committed()
        self.notify(live.id, version)
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
            if session.options.get("tournament"):
                self.ended.add(int(session.options["tournament"]))
        elif step.results and session.options.get("tournament"):  # a round over, the match on
            self.rounds.add(int(session.options["tournament"]))
        if isinstance(words, Exception):
            raise words  # a bug in putting the step into words: the step is committed all the same
        out, made_for = words  # (for the version a commit makes: one more)
        if made_for != version:
            out = deliver(session, live.channel_id, step.notes, version)
        return out

    async def _reload(self, live: LiveTable) -> None:
        """Another writer got there first: take the stored state as the truth."""
        try:
            record = await self.store.get_table(live.id)
        except NotFound:
            self._unregister(live)
            return
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
            live.session.stood_in = True  # a computer moves (`TableSession.count_quiet`)
            try:
                step = live.session.auto_move(index, afk=False)
            except (IllegalAction, Refusal) as exc:
                self._restore(live)
                log.error(kv(event="auto_move_refused", table=live.id, error=str(exc)))
                break
            step.seat = index if step.seat is None else step.seat
            step.player_id = player_id
            try:
                out += await self._commit(live, step)
            except LostRace:  # another process plays the table on: its messages are its own
                log.info(kv(event="auto_move_lost", table=live.id))
                break
        return out

    # --- timers and closing ---------------------------------------------------------------------

    async def tick(self, now: datetime) -> list[Outgoing]:
        """Time out players who waited too long to act and close tables nobody started: the
        store hands out the due tables (of this process's platforms), each to one process."""
        out: list[Outgoing] = []
        for _ in range(CLAIM_ROUNDS):
            heads = await self.store.claim_due(
                now, platforms=self.config.platforms, limit=CLAIM_BATCH, lease=CLAIM_LEASE
            )
            for head in heads:
                live = self.tables.get(head.id) or await self._load_id(head.id)
                if live is None:
                    continue
                try:
                    out += await self._expire(live, now)
                except Refusal as exc:  # e.g. lost to a player's move: that commit set a new timer
                    log.info(kv(event="tick_skipped", table=live.id, reason=exc.key))
            if len(heads) < CLAIM_BATCH:
                break
        return out

    async def _expire(self, live: LiveTable, now: datetime) -> list[Outgoing]:
        """Run a claimed table's timer on its current state: the turn's time-out, a stalled
        computer move or the idle close; when nothing is due after all, put the timer back."""
        async with live.lock:
            await self._refresh(live)
            if live.closed:
                return []
            session = live.session
            idle = timedelta(seconds=self.config.idle_close_seconds)
            if session.deadline is not None and now >= session.deadline:
                return await self._run_locked(live, None, self._time_out, retry=False, checked=True)
            called = due_call(session, now)
            if called is not None:  # a relaxed turn's call, once: the timer moves on past it
                rearmed = await self.store.rearm(live.id, live.version, called[1])
                return call(session, live.channel_id, called[0], now) if rearmed else []
            if session.auto_seat() is not None:
                return await self._autoplay(live)
            if session.phase == "waiting" and now - session.touched >= idle:
                return await self._run_locked(
                    live, None, lambda s: s.close(), retry=False, checked=True
                )
            if rematch.ended(session, now):  # (closing first: that takes the offer too)
                return await self._run_locked(live, None, rematch.expire, retry=False, checked=True)
            idle_after = self.config.idle_close_seconds
            await self.store.rearm(live.id, live.version, due(session, now, None, idle_after))
            return []

    def _time_out(self, session: TableSession) -> Step:
        index = session.actor()
        if index is None or session.deadline is None or session.now < session.deadline:
            raise Refusal("err.no_turn")
        seat = session.seats[index]
        seat.timeouts += 1
        session.stood_in = True
        # away from this time-out on: this very move is already the kept seat's (no wait)
        away = seat.timeouts >= self.config.afk_limit and not seat.away
        seat.away = seat.away or away
        step = session.auto_move(index, afk=not seat.kept)
        step.notes.insert(0, Note([msg("turn.timeout", name=seat.name)], announce=True))
        if away:
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
            await self._refresh(live)
            if live.closed:
                raise Refusal("err.no_table")
            kind = self.kinds[live.game]
            # Refunds from the committed snapshot, locked in the reset's own transaction: another
            # process may have committed a hand since this memory copy was read.
            paid = await self.store.reset_table(
                live.id,
                who.player_id,
                reason,
                refunds_of=lambda snapshot: kind.from_dict(snapshot).refunds(),
            )
            self._unregister(live)
            live.session.phase = "closed"
            if live.session.options.get("tournament"):  # its tournament takes it from here
                self.ended.add(int(live.session.options["tournament"]))
            self.notify(live.id, live.version + 1)
            log.info(kv(event="table_reset", table=live.id, moderator=who.player_id))
            return paid


def _people(session: TableSession, step: Step) -> frozenset[int]:
    """The players of the step's results who are people, for the ratings (docs/ratings.md):
    all but the computer players seated at the table (a person the computer stands in for
    while they are away is still a person)."""
    computers = {seat.player_id for seat in session.seats if is_computer(seat)}
    return frozenset(r.player_id for r in step.results if r.player_id not in computers)
