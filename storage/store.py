"""The Store facade: the async repository API the bot core uses (see docs/storage.md).

Each method checks its arguments (``storage.validators``), opens a read or a write transaction
and hands the work to the module of its feature: ``players``, ``ledger`` and ``steps`` (chips and
steps of play), ``table_create``, ``table_reads`` and ``tables``, ``tournaments``, ``surfaces``,
``history``, ``boards`` and ``audit``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import UTC, date, datetime, timedelta
from functools import partial
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError, InterfaceError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from storage import audit as audit_ops
from storage import community as community_ops
from storage import history as history_ops
from storage import ledger as ledger_ops
from storage import migrate, retention, steps, table_create, table_reads
from storage import players as player_ops
from storage import surfaces as surface_ops
from storage import tables as table_ops
from storage import tournaments as tournament_ops
from storage import validators as check
from storage import web as web_ops
from storage.boards import (
    BOARDS,
    MIN_OKEY101_ROUNDS,
    Board,
    Okey101Standing,
    board_query,
    okey101_query,
)
from storage.community import ComputerLimit
from storage.db import Writer, create_engine
from storage.errors import InvalidRequest, Unavailable
from storage.history import HistoryEntry, PlayerStats
from storage.notify import listen_versions
from storage.records import (
    HOUSE,
    ActionEntry,
    ActionRecord,
    GameResult,
    PenaltyEntry,
    PlayerRecord,
    SeedRecord,
    TableHead,
    TableRecord,
    TournamentRecord,
    Transfer,
    check_amount,
    escrow,
    parse_account,
    wallet,
)
from storage.surfaces import SurfaceWrite, TableSurface

Clock = Callable[[], datetime]
ROOM_CHOICE_HOLD = timedelta(hours=1)  # a room choice lasts this long (page reloads included)
PRUNE_CHOICES = 500  # lapsed room choices deleted per write, at most


def utc_now() -> datetime:
    """The current time in UTC (the default clock)."""
    return datetime.now(UTC)


class Store:
    """Players, chips, tables and their history in one database; every method is a coroutine.

    Open with ``await Store.open(url)`` and close with ``await store.close()``. Each write is one
    transaction: it happens completely or, when it raises, not at all.
    """

    def __init__(self, engine: AsyncEngine, clock: Clock = utc_now) -> None:
        self.engine = engine
        self._writer = Writer(engine)
        self._clock = clock

    @classmethod
    async def open(cls, url: str, *, migrate: bool = True, clock: Clock = utc_now) -> Store:
        """Connect to ``url`` and, when ``migrate``, upgrade the schema to the newest revision."""
        try:
            engine = create_engine(url)
        except OSError as exc:  # the SQLite folder cannot be created
            raise Unavailable(f"cannot open the database: {exc}") from exc
        try:
            if migrate:
                await _upgrade(engine)
        except (OSError, OperationalError, InterfaceError) as exc:
            await engine.dispose()
            raise Unavailable(f"cannot open the database: {exc}") from exc
        except BaseException:
            await engine.dispose()
            raise
        return cls(engine, clock)

    async def close(self) -> None:
        """Close every database connection."""
        await self._writer.close()
        await self.engine.dispose()

    @property
    def write_engine(self) -> sa.Engine:
        """The synchronous engine write transactions execute on (to attach SQLAlchemy events)."""
        return self._writer.sync_engine

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- players -----------------------------------------------------------------------------

    async def player(
        self,
        platform: str,
        platform_user_id: str | int,
        display_name: str,
        locale: str | None = None,
    ) -> PlayerRecord:
        """Get or create the player; updates the display name, sets ``locale`` only if none yet."""
        platform = check.text(platform, "platform", 32)
        user_id = check.text(str(platform_user_id), "platform user id", 64)
        name = check.text(display_name, "display name", 1000)[:100]
        locale = check.optional_text(locale, "locale", 16)
        now = self._clock()
        return await self._writer.run(
            lambda conn: player_ops.get_or_create(conn, platform, user_id, name, locale, now)
        )

    async def get_player(self, player_id: int) -> PlayerRecord:
        """The player with this id; NotFound if there is none."""
        check.positive_int(player_id, "player id")
        async with self._writer.read() as conn:
            return await player_ops.get(conn, player_id)

    async def find_player(self, platform: str, platform_user_id: str | int) -> PlayerRecord | None:
        """The player known by this platform user id, or None; never creates or writes anything."""
        platform = check.text(platform, "platform", 32)
        user_id = check.text(str(platform_user_id), "platform user id", 64)
        async with self._writer.read() as conn:
            return await player_ops.find(conn, platform, user_id)

    async def set_locale(self, player_id: int, locale: str | None) -> None:
        """Set (or with None, clear) the player's chosen language."""
        check.positive_int(player_id, "player id")
        locale = check.optional_text(locale, "locale", 16)
        await self._writer.run(lambda conn: player_ops.set_locale(conn, player_id, locale))

    # -- chips -------------------------------------------------------------------------------

    async def balance(self, account: str) -> int:
        """Chips held by ``account`` (``wallet(id)``, ``escrow(id)`` or ``HOUSE``); 0 if never used."""
        parse_account(account)
        async with self._writer.read() as conn:
            return await ledger_ops.balance(conn, account)

    async def transfer(
        self,
        src: str,
        dst: str,
        amount: int,
        reason: str,
        idempotency_key: str | None = None,
    ) -> bool:
        """Move chips atomically; False (and nothing written) when the key was applied before.

        InsufficientFunds when ``src`` (other than the house) would go below zero.
        """
        item = Transfer(src, dst, amount, reason)
        item.validate()
        key = check.idempotency_key(idempotency_key)
        now = self._clock()
        return await self._writer.run_sync(lambda conn: steps.transfer_sync(conn, item, key, now))

    async def settle_bankroll(self, player_id: int, bankroll: int) -> int:
        """Bring a computer player's wallet back to ``bankroll`` chips through ``COMPUTERS`` in one
        transaction: topped up to it when below half of it, what it holds beyond twice the
        bankroll taken back ("computer bankroll", "computer winnings"); the wallet's balance
        after. Decided from the balance read under the wallet's lock, so calls at once (in one
        process or several on one database) never overdraw it. NotFound for an unknown player."""
        check.positive_int(player_id, "player id")
        target = check_amount(bankroll)
        now = self._clock()
        return await self._writer.run_sync(
            lambda conn: steps.settle_bankroll_sync(conn, player_id, target, now)
        )

    async def daily_grant(self, player_id: int, amount: int, day: date) -> bool:
        """Give the player ``amount`` chips from the house, at most once per ``day``."""
        day = check.day(day)
        return await self.transfer(
            HOUSE, wallet(player_id), amount, "daily grant", f"daily:{player_id}:{day.isoformat()}"
        )

    async def buy_in(
        self, table_id: int, player_id: int, amount: int, key: str | None = None
    ) -> bool:
        """Move chips from the player's wallet into the open table's escrow (once per ``key``)."""
        item = Transfer(wallet(player_id), escrow(table_id), check_amount(amount), "buy-in")
        return await self._table_transfer(table_id, item, key, need_open=True)

    async def cash_out(
        self, table_id: int, player_id: int, amount: int, key: str | None = None
    ) -> bool:
        """Move chips from the table's escrow back to the player's wallet (once per ``key``)."""
        item = Transfer(escrow(table_id), wallet(player_id), check_amount(amount), "cash-out")
        return await self._table_transfer(table_id, item, key, need_open=False)

    async def _table_transfer(
        self, table_id: int, item: Transfer, key: str | None, *, need_open: bool
    ) -> bool:
        checked_key = check.idempotency_key(key)
        now = self._clock()
        return await self._writer.run_sync(
            lambda conn: steps.table_transfer_sync(
                conn, table_id, item, checked_key, now, need_open=need_open
            )
        )

    # -- tables ------------------------------------------------------------------------------

    async def create_table(
        self,
        platform: str,
        channel_id: str | int,
        game: str,
        options: dict[str, Any],
        snapshot: dict[str, Any],
        *,
        deadline: datetime | None = None,
        community: str | None = None,
        tournament: int | None = None,
        max_open: int = 0,
    ) -> TableRecord:
        """Open a new table (version 1) in a channel; ChannelBusy if one is open there already.
        ``deadline``: when its timer is first due (see ``commit``). ``community``: the Discord
        server, Telegram group or "console" the channel belongs to (None: none); the table's
        results and Okey penalties are recorded in it. ``tournament``: the id of the tournament
        the table plays a match of (``tournament_tables`` finds it by that). ``max_open``: the
        most open tables outside tournaments the community may have (0: no limit), counted in
        the same transaction (``storage.community``): CommunityFull when it has them already."""
        if tournament is not None:
            check.positive_int(tournament, "tournament id")
        platform = check.text(platform, "platform", 32)
        channel = check.text(str(channel_id), "channel id", 64)
        community = None if community is None else check.text(str(community), "community", 64)
        game = check.text(game, "game", 32)
        check.json_object(options, "options")
        check.json_object(snapshot, "snapshot")
        most = check.most(max_open, "max_open")
        return await table_create.create_table(
            self._writer,
            platform,
            channel,
            game,
            options,
            snapshot,
            deadline=check.deadline(deadline),
            community=community,
            tournament=tournament,
            max_open=most if tournament is None else 0,  # tournament tables are not counted
            now=self._clock(),
        )

    async def get_table(self, table_id: int) -> TableRecord:
        """The table with this id (open or closed); NotFound if there is none."""
        check.positive_int(table_id, "table id")
        async with self._writer.read() as conn:
            return await table_reads.get_table(conn, table_id)

    async def table_in_channel(self, platform: str, channel_id: str | int) -> TableRecord | None:
        """The open table of a channel, or None."""
        async with self._writer.read() as conn:
            return await table_reads.table_in_channel(conn, platform, str(channel_id))

    async def load_open_tables(self) -> list[TableRecord]:
        """Every open table with its latest snapshot (to resume play at start-up), by id."""
        async with self._writer.read() as conn:
            return await table_reads.open_tables(conn)

    async def table_head(self, table_id: int) -> TableHead | None:
        """The table's id, place, game, status and version (no snapshot), or None: the one
        indexed read a process makes to learn whether its copy of the table is current."""
        check.positive_int(table_id, "table id")
        async with self._writer.read() as conn:
            return await table_reads.table_head(conn, table_id)

    async def channel_head(self, platform: str, channel_id: str | int) -> TableHead | None:
        """The head (see ``table_head``) of the channel's open table, or None."""
        async with self._writer.read() as conn:
            return await table_reads.channel_head(conn, platform, str(channel_id))

    async def claim_due(
        self,
        now: datetime,
        *,
        platforms: Sequence[str] | None = None,
        limit: int = 50,
        lease: timedelta = timedelta(seconds=30),
    ) -> list[TableHead]:
        """Claim up to ``limit`` open tables whose deadline is at or before ``now`` (earliest
        first; only ``platforms``' when given): their deadline moves to ``now + lease`` in the same
        transaction, so no other process claims them again unless the claimer's own commit does
        not come (it crashed) before the lease ends. PostgreSQL skips rows another claim holds
        locked (``FOR UPDATE SKIP LOCKED``); SQLite has one writer at a time anyway."""
        now = check.moment(now)
        check.positive_int(limit, "limit")
        until = now + lease
        return await self._writer.run(
            lambda conn: table_ops.claim_due(conn, now, until, platforms, limit)
        )

    async def rearm(self, table_id: int, version: int, deadline: datetime | None) -> bool:
        """Set the deadline of the table at ``version`` without a new version (a claimed table
        that turned out not to be due); False when the table moved on or closed meanwhile."""
        check.positive_int(table_id, "table id")
        check.positive_int(version, "version")
        due = check.deadline(deadline)
        return await self._writer.run(lambda conn: table_ops.rearm(conn, table_id, version, due))

    async def commit(
        self,
        table_id: int,
        expected_version: int,
        snapshot: dict[str, Any],
        *,
        action: ActionEntry | None = None,
        transfers: Sequence[Transfer] = (),
        status: str | None = None,
        results: Sequence[GameResult] = (),
        penalties: Sequence[PenaltyEntry] = (),
        seeds: Sequence[SeedRecord] = (),
        idempotency_key: str | None = None,
        deadline: datetime | None = None,
        computers: ComputerLimit | None = None,
    ) -> int:
        """Write one step of play in ONE transaction and return the table's new version.

        Compare-and-set the version (StaleVersion if it moved on), store the snapshot, append the
        action, apply the transfers, record results, penalties and seeds. Any error writes nothing.
        A repeated ``idempotency_key`` writes nothing and returns the version it produced first.
        ``deadline`` (aware, or None for no timer) is when the table's timer is next due.
        ``computers``: the step seats a computer player; CommunityFull when the table's community
        (outside tournaments) would then seat more than the limit, counted in the transaction.
        """
        items, result_list, penalty_list, seed_list = (
            list(transfers),
            list(results),
            list(penalties),
            list(seeds),
        )
        check.commit(table_id, expected_version, snapshot, action, items, status)
        check.records(table_id, result_list, penalty_list, seed_list)
        key = check.idempotency_key(idempotency_key)
        due = check.deadline(deadline)
        now = self._clock()
        referenced = {r.player_id for r in result_list} | {p.player_id for p in penalty_list}
        if action is not None and action.player_id is not None:
            referenced.add(action.player_id)
        try:
            return await self._writer.run_sync(
                lambda conn: steps.commit_sync(
                    conn,
                    table_id,
                    expected_version,
                    snapshot,
                    action=action,
                    transfers=items,
                    status=status,
                    results=result_list,
                    penalties=penalty_list,
                    seeds=seed_list,
                    key=key,
                    deadline=due,
                    now=now,
                    computers=computers,
                )
            )
        except IntegrityError:
            # A foreign key caught an unknown player (cheaper than looking them up on every
            # commit); name the culprit, or re-raise when it was something else.
            async with self._writer.read() as conn:
                await table_ops.check_players_exist(conn, referenced)
            raise

    async def actions(self, table_id: int) -> list[ActionRecord]:
        """The table's action log in sequence order."""
        check.positive_int(table_id, "table id")
        async with self._writer.read() as conn:
            return await table_reads.actions(conn, table_id)

    async def hand_actions(self, table_id: int, hand_id: str) -> list[ActionRecord]:
        """The action log entries of one hand, from the entry that dealt it to the next deal,
        read by key (the whole log for a hand of before migration 0007)."""
        check.positive_int(table_id, "table id")
        hand_id = check.text(hand_id, "hand id", 64)
        async with self._writer.read() as conn:
            return await table_reads.hand_actions(conn, table_id, hand_id)

    async def played_in(self, player_id: int, table_id: int, hand_id: str) -> bool:
        """True when the player has a result of this hand or Okey round of this table."""
        check.positive_int(player_id, "player id")
        check.positive_int(table_id, "table id")
        hand_id = check.text(hand_id, "hand id", 64)
        async with self._writer.read() as conn:
            return await history_ops.played_in(conn, player_id, table_id, hand_id)

    async def pruned_at(self, table_id: int) -> datetime | None:
        """When retention removed the closed table's action log and snapshot, or None."""
        check.positive_int(table_id, "table id")
        async with self._writer.read() as conn:
            return await table_reads.pruned_at(conn, table_id)

    async def seed(self, hand_id: str) -> SeedRecord | None:
        """The fair-shuffle record of a hand, or None."""
        async with self._writer.read() as conn:
            return await table_reads.seed(conn, hand_id)

    async def reset_table(
        self,
        table_id: int,
        moderator_id: int,
        reason: str,
        refunds: Mapping[int, int] | None = None,
        *,
        refunds_of: Callable[[dict[str, Any]], Mapping[int, int] | None] | None = None,
    ) -> dict[int, int]:
        """Close the table, pay its escrow back to the players and log who did it and why.

        ``refunds`` (player id -> chips) must add up to the escrow exactly; without it each player
        gets their net deposit back, scaled so the escrow ends at zero. ``refunds_of``, given
        instead, computes them inside the transaction from the table's locked, committed snapshot
        (None from it: the net deposits), so that a step another process committed meanwhile is
        counted. Returns what each player got (players getting nothing are left out).
        """
        if refunds is not None and refunds_of is not None:
            raise InvalidRequest("give refunds or refunds_of, not both")
        check.positive_int(table_id, "table id")
        check.positive_int(moderator_id, "moderator id")
        reason = check.text(reason, "reason", 500)
        checked = None if refunds is None else check.refunds(refunds)
        now = self._clock()
        return await self._writer.run_sync(
            lambda conn: steps.reset_sync(
                conn, table_id, moderator_id, reason, checked, now, refunds_of
            )
        )

    async def prune(self, older_than: datetime, *, batch: int = 100, batches: int = 10) -> int:
        """Retention (``storage/retention.py``): remove the action log (but its closing entry)
        and the snapshot of closed tables last changed before ``older_than``, ``batch`` tables
        per write transaction, at most ``batches`` transactions; how many tables were pruned.
        Results, ledger, seeds and penalty totals stay. Safe with several processes at once."""
        check.limit(batch)
        if older_than.tzinfo is None:
            raise InvalidRequest("older_than must be timezone-aware")
        total = 0
        for _ in range(batches):
            work = partial(retention.prune_sync, cutoff=older_than, now=self._clock(), limit=batch)
            done = await self._writer.run_sync(work)
            total += done
            if done < batch:
                break
        return total

    # -- tournaments -------------------------------------------------------------------------

    async def create_tournament(
        self,
        platform: str,
        channel_id: str | int,
        kind: str,
        snapshot: dict[str, Any],
        *,
        community: str | None = None,
        deadline: datetime | None = None,
        max_live: int = 0,
    ) -> TournamentRecord:
        """Open a tournament (version 1, status ``registering``) in a channel; ``kind`` is
        ``okey``, ``turkish`` or ``acik``. Several may share a channel over time; the core keeps
        one live tournament per channel (``tournament_in_channel``). ``max_live``: the most
        tournaments registering or running the community may have (0: no limit), counted in
        the same transaction: CommunityFull when it has them already."""
        platform = check.text(platform, "platform", 32)
        channel = check.text(str(channel_id), "channel id", 64)
        community = None if community is None else check.text(str(community), "community", 64)
        kind = check.tournament_kind(kind)
        check.json_object(snapshot, "snapshot")
        most = check.most(max_live, "max_live")
        values = {
            "platform": platform,
            "channel_id": channel,
            "community": community,
            "kind": kind,
            "status": "registering",
            "snapshot": snapshot,
            "deadline": check.deadline(deadline),
        }
        now = self._clock()

        def work(conn: sa.Connection) -> TournamentRecord:
            if most and community is not None:
                community_ops.check_tournaments_sync(conn, platform, community, most)
            return tournament_ops.insert_sync(conn, values, (), now)

        return await self._writer.run_sync(work)

    async def get_tournament(self, tournament_id: int) -> TournamentRecord:
        """The tournament with this id (in any status); NotFound if there is none."""
        check.positive_int(tournament_id, "tournament id")
        async with self._writer.read() as conn:
            return await tournament_ops.get(conn, tournament_id)

    async def tournament_in_channel(
        self, platform: str, channel_id: str | int
    ) -> TournamentRecord | None:
        """The newest tournament of a channel that is still registering or running, or None."""
        async with self._writer.read() as conn:
            return await tournament_ops.live_in_channel(conn, platform, str(channel_id))

    async def open_tournaments(self) -> list[TournamentRecord]:
        """Every tournament still registering or running (to resume them at start-up), by id."""
        async with self._writer.read() as conn:
            return await tournament_ops.live(conn)

    async def due_tournaments(self, now: datetime) -> list[TournamentRecord]:
        """The tournaments still registering whose start time (``deadline``) is at or before
        ``now``, earliest first: their registration closes and they start by themselves."""
        at = check.deadline(now)
        async with self._writer.read() as conn:
            return await tournament_ops.due(conn, at)

    async def tournament_tables(self, tournament_id: int) -> list[TableRecord]:
        """Every table (open or closed) opened for the tournament, by id."""
        check.positive_int(tournament_id, "tournament id")
        async with self._writer.read() as conn:
            return await table_reads.tournament_tables(conn, tournament_id)

    async def commit_tournament(
        self,
        tournament_id: int,
        expected_version: int,
        snapshot: dict[str, Any],
        *,
        status: str | None = None,
        transfers: Sequence[Transfer] = (),
        deadline: datetime | None = None,
    ) -> int:
        """Write one step of a tournament in ONE transaction and return its new version:
        compare-and-set the version (StaleVersion if it moved on, TournamentOver once it is
        finished or cancelled), store the snapshot, status and deadline, apply the transfers
        (entry fees in, prizes or refunds out of ``tournament:<id>``). Any error writes nothing."""
        check.tournament_commit(tournament_id, expected_version, snapshot, status)
        items = check.transfers(list(transfers))
        due = check.deadline(deadline)
        now = self._clock()
        return await self._writer.run_sync(
            lambda conn: tournament_ops.advance_sync(
                conn, tournament_id, expected_version, snapshot, status, due, items, now
            )
        )

    async def closed_at(self, table_id: int) -> datetime | None:
        """When the table closed (the time of its last logged step, the closing one), or None
        while it is open or unknown: a hand's whole seed is shown only some hours after it."""
        check.positive_int(table_id, "table id")
        async with self._writer.read() as conn:
            return await table_reads.closed_at(conn, table_id)

    # -- table messages ----------------------------------------------------------------------

    async def table_message(self, platform: str, table_id: str | int) -> TableSurface | None:
        """The message that shows the table on ``platform`` as the processes last stored it,
        or None (one primary-key read; chat adapters call it when they do not know the message)."""
        platform = check.text(platform, "platform", 32)
        table = check.text(str(table_id), "table id", 64)
        async with self._writer.read() as conn:
            return await surface_ops.get_surface(conn, platform, table)

    async def put_table_message(
        self,
        platform: str,
        table_id: str | int,
        chat_id: str | int,
        message_id: str | int,
        version: int,
        *,
        picture: bool = False,
    ) -> SurfaceWrite:
        """Record that the message ``message_id`` in ``chat_id`` now shows the table at
        ``version``; a compare-and-set: nothing is written when the stored record shows a newer
        version (an equal one is replaced). Returns whether it was written and the other record
        (the one replaced, or the newer one kept), so the caller can retire the message it names."""
        version = check.version(version)
        new = TableSurface(
            platform=check.text(platform, "platform", 32),
            table_id=check.text(str(table_id), "table id", 64),
            chat_id=check.text(str(chat_id), "chat id", 64),
            message_id=check.text(str(message_id), "message id", 64),
            version=version,
            picture=bool(picture),
            updated_at=self._clock(),
        )
        return await self._writer.run(lambda conn: surface_ops.put_surface(conn, new))

    # -- the web table ------------------------------------------------------------------------

    async def ping(self) -> None:
        """One trivial read; raises Unavailable when the database cannot be reached."""
        async with self._writer.read() as conn:
            await conn.execute(sa.text("SELECT 1"))

    async def listen_versions(
        self, callback: Callable[[int, int], None]
    ) -> Callable[[], Awaitable[None]]:
        """Call ``callback(table_id, version)`` for every table version committed by any process
        (PostgreSQL LISTEN, ``storage.notify``); nothing on SQLite. Returns the stopper."""
        url = self.engine.url.render_as_string(hide_password=False)
        return await listen_versions(url, callback)

    async def shared_secret(self, name: str, candidate: str) -> str:
        """The secret every process shares under ``name``: ``candidate`` when none was stored
        yet (it is stored), else the stored one."""
        name = check.text(name, "secret name", 32)
        value = check.text(candidate, "secret", 128)
        now = self._clock()
        return await self._writer.run(lambda conn: web_ops.ensure_secret(conn, name, value, now))

    async def rack_layout(self, table_id: int, player_id: int, hand_id: str) -> list[Any] | None:
        """An Okey player's stored rack slots (web table) for that round, or None."""
        check.positive_int(table_id, "table id")
        check.positive_int(player_id, "player id")
        async with self._writer.read() as conn:
            return await web_ops.get_layout(conn, table_id, player_id, hand_id)

    async def put_rack_layout(
        self, table_id: int, player_id: int, hand_id: str, slots: Sequence[str | None]
    ) -> None:
        """Keep an Okey player's rack slots (web table) for that round."""
        check.positive_int(table_id, "table id")
        check.positive_int(player_id, "player id")
        hand = check.text(hand_id, "hand id", 64)
        values = [None if s is None else check.text(s, "tile", 4) for s in slots]
        now = self._clock()
        await self._writer.run(
            lambda conn: web_ops.put_layout(conn, table_id, player_id, hand, values, now)
        )

    async def choose_room(
        self,
        platform: str,
        channel_id: str,
        user_id: str,
        room: str | None,
        hold: timedelta = ROOM_CHOICE_HOLD,
    ) -> None:
        """Keep `room` as the shared room the user opened the Discord Activity on in the
        channel, for `hold` from now (None forgets the choice); every process reads it
        (`chosen_room`). When a room is kept, lapsed choices are deleted in the same
        transaction (a bounded batch), so the table holds about an hour's presses."""
        platform = check.text(platform, "platform", 32)
        channel = check.text(channel_id, "channel id", 64)
        user = check.text(user_id, "platform user id", 64)
        chosen = check.optional_text(room, "room", 64)
        now = self._clock()

        async def work(conn: AsyncConnection) -> None:
            await web_ops.put_choice(conn, platform, channel, user, chosen, now + hold)
            if chosen is not None:
                await web_ops.prune_choices(conn, now, PRUNE_CHOICES)

        await self._writer.run(work)

    async def chosen_room(self, platform: str, channel_id: str, user_id: str) -> str | None:
        """The shared room the user chose in the channel (`choose_room`) while it holds, else
        None."""
        platform = check.text(platform, "platform", 32)
        channel = check.text(channel_id, "channel id", 64)
        user = check.text(user_id, "platform user id", 64)
        now = self._clock()
        async with self._writer.read() as conn:
            return await web_ops.get_choice(conn, platform, channel, user, now)

    # -- history and statistics --------------------------------------------------------------

    async def history(
        self, player_id: int, games: Sequence[str] | None = None, limit: int = 10
    ) -> list[HistoryEntry]:
        """The player's newest ``limit`` results (hands, Okey rounds and matches) in ``games``
        (every game when None), newest first; an index range read, never a scan."""
        check.positive_int(player_id, "player id")
        check.positive_int(limit, "limit")
        async with self._writer.read() as conn:
            return await history_ops.recent(conn, player_id, games, limit)

    async def player_stats(self, player_id: int, game: str) -> PlayerStats:
        """The player's statistics in ``game`` (turkish, acik or okey), added up by the
        database over every stored result of theirs in it (docs/storage.md)."""
        check.positive_int(player_id, "player id")
        game = check.stats_game(game)
        async with self._writer.read() as conn:
            return await history_ops.player_stats(conn, player_id, game)

    async def chip_history(
        self, player_id: int, games: Sequence[str] | None = None, limit: int = 100
    ) -> list[int]:
        """The chip results of the player's last ``limit`` hands or Okey matches, oldest first."""
        check.positive_int(player_id, "player id")
        check.positive_int(limit, "limit")
        async with self._writer.read() as conn:
            return await history_ops.chip_history(conn, player_id, games, limit)

    async def find_players(self, platform: str, text: str) -> list[PlayerRecord]:
        """Players of ``platform`` known by this user id or name (case-insensitive; the user id
        match first); read only."""
        platform = check.text(platform, "platform", 32)
        text = check.text(text, "player", 100)
        async with self._writer.read() as conn:
            found = await history_ops.find_players(conn, platform, text)
        return [PlayerRecord(i, platform, u, n, None) for i, u, n in found]

    # -- boards and checks -------------------------------------------------------------------

    async def leaderboard(
        self,
        kind: Board,
        limit: int = 10,
        platform: str | None = None,
        community: str | None = None,
    ) -> list[tuple[str, int]]:
        """Top ``(name, value)`` rows: most chips in the wallet, fewest Okey penalty points over
        all matches, or most wins (hands and matches that ended with more chips than they began).
        ``platform``: its players only; ``community``: its players, matches and wins only."""
        check.limit(limit)
        if kind not in BOARDS:
            raise InvalidRequest(f"unknown leaderboard {kind!r}: use one of {', '.join(BOARDS)}")
        if community is not None:
            community = check.text(str(community), "community", 64)
        stmt = board_query(kind, limit, platform, community)
        async with self._writer.read() as conn:
            rows = await conn.execute(stmt)
            return [(name, int(total)) for name, total in rows]

    async def okey101_board(
        self,
        limit: int = 10,
        platform: str | None = None,
        community: str | None = None,
        min_rounds: int = MIN_OKEY101_ROUNDS,
    ) -> list[Okey101Standing]:
        """The 101 Okey board: players with at least ``min_rounds`` rounds, lowest average score
        per round first (more rounds first at an equal average, then the lower player id).
        ``platform``: its players only; ``community``: the rounds played there only."""
        check.limit(limit)
        if community is not None:
            community = check.text(str(community), "community", 64)
        stmt = okey101_query(limit, platform, community, max(1, min_rounds))
        async with self._writer.read() as conn:
            rows = await conn.execute(stmt)
            return [Okey101Standing(name, int(n), int(total)) for name, n, total in rows]

    async def audit(self) -> list[str]:
        """Check the chip invariants; returns one line per problem (an empty list when sound).

        Each cached balance equals the sum of its ledger entries, none but the house is negative,
        all balances add up to zero (what the house issued is held by the others), and a
        finished or cancelled tournament holds no chips (its fees were paid out or refunded).
        """
        async with self._writer.read() as conn:
            return await audit_ops.audit(conn)

    async def house_report(self) -> list[audit_ops.HouseFlows]:
        """The house accounts (``HOUSE``, ``COMPUTERS``): each one's balance and the chips it
        paid out and took in, by reason (``python -m storage audit`` prints them)."""
        async with self._writer.read() as conn:
            return await audit_ops.house_report(conn)

    async def community_tables(self, platform: str, community: str) -> list[TableRecord]:
        """The open tables of a community that play no tournament (what its limits count)."""
        community = check.text(str(community), "community", 64)
        async with self._writer.read() as conn:
            return await community_ops.open_tables(conn, platform, community)

    async def community_table_count(self, platform: str, community: str) -> int:
        """How many open tables a community has outside tournaments."""
        community = check.text(str(community), "community", 64)
        async with self._writer.read() as conn:
            return await community_ops.open_count(conn, platform, community)

    async def community_tournaments(self, platform: str, community: str) -> int:
        """How many tournaments of a community are registering or running."""
        community = check.text(str(community), "community", 64)
        async with self._writer.read() as conn:
            return await community_ops.live_tournaments(conn, platform, community)


async def _upgrade(engine: AsyncEngine) -> None:
    await migrate.upgrade(engine)
