"""The Store facade: the async repository API the bot core uses (see docs/storage.md)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError, InterfaceError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from storage import history as history_ops
from storage import ledger as ledger_ops
from storage import migrate
from storage import surfaces as surface_ops
from storage import tables as table_ops
from storage import tournaments as tournament_ops
from storage.boards import BOARDS, Board, board_query
from storage.db import Writer, create_engine, read
from storage.errors import ChannelBusy, InvalidRequest, NotFound, TableClosed, Unavailable
from storage.history import HistoryEntry, PlayerStats
from storage.models import action_log, hand_seeds, players, tables, tournaments, wallets
from storage.records import (
    HOUSE,
    TABLE_STATUSES,
    TOURNAMENT_KINDS,
    TOURNAMENT_STATUSES,
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
    tournament_escrow,
    wallet,
)
from storage.sql import aware, upsert
from storage.surfaces import SurfaceWrite, TableSurface

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    """The current time in UTC (the default clock)."""
    return datetime.now(UTC)


CREATE_TABLE_ATTEMPTS = 3  # a channel whose racing table closes at once is retried


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
        platform = _text(platform, "platform", 32)
        user_id = _text(str(platform_user_id), "platform user id", 64)
        name = _text(display_name, "display name", 1000)[:100]
        locale = None if locale is None else _text(locale, "locale", 16)
        now = self._clock()

        async def work(conn: AsyncConnection) -> PlayerRecord:
            stmt = upsert(conn, players).values(
                platform=platform, user_id=user_id, name=name, locale=locale, created_at=now
            )
            stmt = stmt.on_conflict_do_update(
                index_elements=["platform", "user_id"],
                set_={
                    "name": stmt.excluded.name,
                    "locale": sa.func.coalesce(players.c.locale, stmt.excluded.locale),
                },
            ).returning(*players.c)
            return _player_record((await conn.execute(stmt)).one())

        return await self._writer.run(work)

    async def get_player(self, player_id: int) -> PlayerRecord:
        """The player with this id; NotFound if there is none."""
        _positive_int(player_id, "player id")
        async with read(self.engine) as conn:
            row = (await conn.execute(sa.select(players).where(players.c.id == player_id))).first()
        if row is None:
            raise NotFound(f"no player with id {player_id}")
        return _player_record(row)

    async def find_player(self, platform: str, platform_user_id: str | int) -> PlayerRecord | None:
        """The player known by this platform user id, or None; never creates or writes anything."""
        platform = _text(platform, "platform", 32)
        user_id = _text(str(platform_user_id), "platform user id", 64)
        query = sa.select(players).where(
            players.c.platform == platform, players.c.user_id == user_id
        )
        async with read(self.engine) as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else _player_record(row)

    async def set_locale(self, player_id: int, locale: str | None) -> None:
        """Set (or with None, clear) the player's chosen language."""
        _positive_int(player_id, "player id")
        locale = None if locale is None else _text(locale, "locale", 16)

        async def work(conn: AsyncConnection) -> None:
            stmt = (
                sa.update(players)
                .where(players.c.id == player_id)
                .values(locale=locale)
                .returning(players.c.id)
            )
            if (await conn.execute(stmt)).first() is None:
                raise NotFound(f"no player with id {player_id}")

        await self._writer.run(work)

    # -- chips -------------------------------------------------------------------------------

    async def balance(self, account: str) -> int:
        """Chips held by ``account`` (``wallet(id)``, ``escrow(id)`` or ``HOUSE``); 0 if never used."""
        parse_account(account)
        async with read(self.engine) as conn:
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
        key = _key(idempotency_key)
        now = self._clock()

        def work(conn: sa.Connection) -> bool:
            if not ledger_ops.claim_key_sync(conn, key, now):
                return False
            ledger_ops.apply_transfers_sync(conn, [item], now, key)
            return True

        return await self._writer.run_sync(work)

    async def daily_grant(self, player_id: int, amount: int, day: date) -> bool:
        """Give the player ``amount`` chips from the house, at most once per ``day``."""
        if not isinstance(day, date):
            raise InvalidRequest(f"day must be a date, got {day!r}")
        day = day.date() if isinstance(day, datetime) else day
        return await self.transfer(
            HOUSE, wallet(player_id), amount, "daily grant", f"daily:{player_id}:{day.isoformat()}"
        )

    async def buy_in(
        self, table_id: int, player_id: int, amount: int, key: str | None = None
    ) -> bool:
        """Move chips from the player's wallet into the open table's escrow (once per ``key``)."""
        item = Transfer(wallet(player_id), escrow(table_id), check_amount(amount), "buy-in")
        return await self._table_transfer(table_id, item, _key(key), need_open=True)

    async def cash_out(
        self, table_id: int, player_id: int, amount: int, key: str | None = None
    ) -> bool:
        """Move chips from the table's escrow back to the player's wallet (once per ``key``)."""
        item = Transfer(escrow(table_id), wallet(player_id), check_amount(amount), "cash-out")
        return await self._table_transfer(table_id, item, _key(key), need_open=False)

    async def _table_transfer(
        self, table_id: int, item: Transfer, key: str | None, *, need_open: bool
    ) -> bool:
        now = self._clock()

        def work(conn: sa.Connection) -> bool:
            # Same lock order as commit: the key, then the table row, then the wallets.
            if not ledger_ops.claim_key_sync(conn, key, now):
                return False
            row = table_ops.lock_table_sync(conn, table_id)
            if need_open and row.status != "open":
                raise TableClosed(table_id)
            ledger_ops.apply_transfers_sync(conn, [item], now, key)
            return True

        return await self._writer.run_sync(work)

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
    ) -> TableRecord:
        """Open a new table (version 1) in a channel; ChannelBusy if one is open there already.
        ``deadline``: when its timer is first due (see ``commit``). ``community``: the Discord
        server, Telegram group or "console" the channel belongs to (None: none); the table's
        results and Okey penalties are recorded in it. ``tournament``: the id of the tournament
        the table plays a match of (``tournament_tables`` finds it by that)."""
        if tournament is not None:
            _positive_int(tournament, "tournament id")
        platform = _text(platform, "platform", 32)
        channel = _text(str(channel_id), "channel id", 64)
        community = None if community is None else _text(str(community), "community", 64)
        game = _text(game, "game", 32)
        _json_object(options, "options")
        _json_object(snapshot, "snapshot")
        deadline = _deadline(deadline)
        now = self._clock()

        async def work(conn: AsyncConnection) -> TableRecord:
            existing = await _open_table_id(conn, platform, channel)
            if existing is not None:
                raise ChannelBusy(platform, channel, existing)
            stmt = (
                tables.insert()
                .values(
                    platform=platform,
                    channel_id=channel,
                    game=game,
                    options=options,
                    status="open",
                    snapshot=snapshot,
                    version=1,
                    last_seq=0,
                    created_at=now,
                    updated_at=now,
                    deadline=deadline,
                    community=community,
                    tournament_id=tournament,
                )
                .returning(*tables.c)
            )
            return table_ops.table_record((await conn.execute(stmt)).one())

        attempts_left = CREATE_TABLE_ATTEMPTS
        while True:
            try:
                return await self._writer.run(work)
            except IntegrityError:
                # Another writer opened a table in this channel at the same moment. If that table
                # is already closed again, the channel is free: try once more.
                async with read(self.engine) as conn:
                    existing = await _open_table_id(conn, platform, channel)
                if existing is not None:
                    raise ChannelBusy(platform, channel, existing) from None
                attempts_left -= 1
                if attempts_left == 0:
                    raise

    async def get_table(self, table_id: int) -> TableRecord:
        """The table with this id (open or closed); NotFound if there is none."""
        _positive_int(table_id, "table id")
        async with read(self.engine) as conn:
            row = (await conn.execute(sa.select(tables).where(tables.c.id == table_id))).first()
        if row is None:
            raise NotFound(f"no table with id {table_id}")
        return table_ops.table_record(row)

    async def table_in_channel(self, platform: str, channel_id: str | int) -> TableRecord | None:
        """The open table of a channel, or None."""
        stmt = sa.select(tables).where(
            tables.c.platform == platform,
            tables.c.channel_id == str(channel_id),
            tables.c.status == "open",
        )
        async with read(self.engine) as conn:
            row = (await conn.execute(stmt)).first()
        return None if row is None else table_ops.table_record(row)

    async def load_open_tables(self) -> list[TableRecord]:
        """Every open table with its latest snapshot (to resume play at start-up), by id."""
        stmt = sa.select(tables).where(tables.c.status == "open").order_by(tables.c.id)
        async with read(self.engine) as conn:
            return [table_ops.table_record(row) for row in await conn.execute(stmt)]

    async def table_head(self, table_id: int) -> TableHead | None:
        """The table's id, place, game, status and version (no snapshot), or None: the one
        indexed read a process makes to learn whether its copy of the table is current."""
        _positive_int(table_id, "table id")
        stmt = sa.select(*table_ops.HEAD_COLUMNS).where(tables.c.id == table_id)
        async with read(self.engine) as conn:
            row = (await conn.execute(stmt)).first()
        return None if row is None else table_ops.table_head(row)

    async def channel_head(self, platform: str, channel_id: str | int) -> TableHead | None:
        """The head (see ``table_head``) of the channel's open table, or None."""
        stmt = sa.select(*table_ops.HEAD_COLUMNS).where(
            tables.c.platform == platform,
            tables.c.channel_id == str(channel_id),
            tables.c.status == "open",
        )
        async with read(self.engine) as conn:
            row = (await conn.execute(stmt)).first()
        return None if row is None else table_ops.table_head(row)

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
        now = _deadline(now)
        if now is None:
            raise InvalidRequest("now must be a datetime")
        _positive_int(limit, "limit")
        until = now + lease

        async def work(conn: AsyncConnection) -> list[TableHead]:
            return await table_ops.claim_due(conn, now, until, platforms, limit)

        return await self._writer.run(work)

    async def rearm(self, table_id: int, version: int, deadline: datetime | None) -> bool:
        """Set the deadline of the table at ``version`` without a new version (a claimed table
        that turned out not to be due); False when the table moved on or closed meanwhile."""
        _positive_int(table_id, "table id")
        _positive_int(version, "version")
        deadline = _deadline(deadline)

        async def work(conn: AsyncConnection) -> bool:
            stmt = (
                sa.update(tables)
                .where(
                    tables.c.id == table_id,
                    tables.c.version == version,
                    tables.c.status == "open",
                )
                .values(deadline=deadline)
                .returning(tables.c.id)
            )
            return (await conn.execute(stmt)).first() is not None

        return await self._writer.run(work)

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
    ) -> int:
        """Write one step of play in ONE transaction and return the table's new version.

        Compare-and-set the version (StaleVersion if it moved on), store the snapshot, append the
        action, apply the transfers, record results, penalties and seeds. Any error writes nothing.
        A repeated ``idempotency_key`` writes nothing and returns the version it produced first.
        ``deadline`` (aware, or None for no timer) is when the table's timer is next due.
        """
        transfers, results, penalties, seeds = (
            list(transfers),
            list(results),
            list(penalties),
            list(seeds),
        )
        _check_commit(table_id, expected_version, snapshot, action, transfers, status)
        _check_records(table_id, results, penalties, seeds)
        key = _key(idempotency_key)
        deadline = _deadline(deadline)
        now = self._clock()
        referenced = {r.player_id for r in results} | {p.player_id for p in penalties}
        if action is not None and action.player_id is not None:
            referenced.add(action.player_id)

        def work(conn: sa.Connection) -> int:
            if not ledger_ops.claim_key_sync(conn, key, now):
                return ledger_ops.key_result_sync(conn, key) or 0  # type: ignore[arg-type]
            version, last_seq, community = table_ops.advance_sync(
                conn,
                table_id,
                expected_version,
                snapshot,
                status,
                int(action is not None),
                now,
                deadline,
            )
            if action is not None:
                table_ops.append_action_sync(conn, table_id, last_seq, action)
            ledger_ops.apply_transfers_sync(conn, transfers, now, key)
            table_ops.record_results(conn, table_id, results, now, community)
            table_ops.record_penalties(conn, table_id, penalties, now, community)
            table_ops.record_seeds(conn, seeds, now)
            ledger_ops.set_key_result_sync(conn, key, version)
            return version

        try:
            return await self._writer.run_sync(work)
        except IntegrityError:
            # A foreign key caught an unknown player (cheaper than looking them up on every
            # commit); name the culprit, or re-raise when it was something else.
            async with read(self.engine) as conn:
                await table_ops.check_players_exist(conn, referenced)
            raise

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
    ) -> TournamentRecord:
        """Open a tournament (version 1, status ``registering``) in a channel; ``kind`` is
        ``okey``, ``turkish`` or ``acik``. Several may share a channel over time; the core keeps
        one live tournament per channel (``tournament_in_channel``)."""
        platform = _text(platform, "platform", 32)
        channel = _text(str(channel_id), "channel id", 64)
        community = None if community is None else _text(str(community), "community", 64)
        if kind not in TOURNAMENT_KINDS:
            raise InvalidRequest(f"kind must be one of {TOURNAMENT_KINDS}, got {kind!r}")
        _json_object(snapshot, "snapshot")
        values = {
            "platform": platform,
            "channel_id": channel,
            "community": community,
            "kind": kind,
            "status": "registering",
            "snapshot": snapshot,
            "deadline": _deadline(deadline),
        }
        now = self._clock()
        return await self._writer.run_sync(
            lambda conn: tournament_ops.insert_sync(conn, values, (), now)
        )

    async def get_tournament(self, tournament_id: int) -> TournamentRecord:
        """The tournament with this id (in any status); NotFound if there is none."""
        _positive_int(tournament_id, "tournament id")
        stmt = sa.select(tournaments).where(tournaments.c.id == tournament_id)
        async with read(self.engine) as conn:
            row = (await conn.execute(stmt)).first()
        if row is None:
            raise NotFound(f"no tournament with id {tournament_id}")
        return tournament_ops.tournament_record(row)

    async def tournament_in_channel(
        self, platform: str, channel_id: str | int
    ) -> TournamentRecord | None:
        """The newest tournament of a channel that is still registering or running, or None."""
        stmt = (
            sa.select(tournaments)
            .where(
                tournaments.c.platform == platform,
                tournaments.c.channel_id == str(channel_id),
                tournaments.c.status.in_(tournament_ops.LIVE),
            )
            .order_by(tournaments.c.id.desc())
            .limit(1)
        )
        async with read(self.engine) as conn:
            row = (await conn.execute(stmt)).first()
        return None if row is None else tournament_ops.tournament_record(row)

    async def open_tournaments(self) -> list[TournamentRecord]:
        """Every tournament still registering or running (to resume them at start-up), by id."""
        stmt = (
            sa.select(tournaments)
            .where(tournaments.c.status.in_(tournament_ops.LIVE))
            .order_by(tournaments.c.id)
        )
        async with read(self.engine) as conn:
            return [tournament_ops.tournament_record(row) for row in await conn.execute(stmt)]

    async def due_tournaments(self, now: datetime) -> list[TournamentRecord]:
        """The tournaments still registering whose start time (``deadline``) is at or before
        ``now``, earliest first: their registration closes and they start by themselves."""
        now = _deadline(now)
        stmt = (
            sa.select(tournaments)
            .where(
                tournaments.c.status == "registering",
                tournaments.c.deadline.is_not(None),
                tournaments.c.deadline <= now,
            )
            .order_by(tournaments.c.deadline, tournaments.c.id)
        )
        async with read(self.engine) as conn:
            return [tournament_ops.tournament_record(row) for row in await conn.execute(stmt)]

    async def tournament_tables(self, tournament_id: int) -> list[TableRecord]:
        """Every table (open or closed) opened for the tournament, by id."""
        _positive_int(tournament_id, "tournament id")
        stmt = (
            sa.select(tables).where(tables.c.tournament_id == tournament_id).order_by(tables.c.id)
        )
        async with read(self.engine) as conn:
            return [table_ops.table_record(row) for row in await conn.execute(stmt)]

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
        _positive_int(tournament_id, "tournament id")
        _positive_int(expected_version, "expected version")
        _json_object(snapshot, "snapshot")
        if status is not None and status not in TOURNAMENT_STATUSES:
            raise InvalidRequest(f"status must be one of {TOURNAMENT_STATUSES}, got {status!r}")
        transfers = list(transfers)
        for item in transfers:
            if not isinstance(item, Transfer):
                raise InvalidRequest("transfers must be Transfer values")
            item.validate()
        deadline = _deadline(deadline)
        now = self._clock()
        return await self._writer.run_sync(
            lambda conn: tournament_ops.advance_sync(
                conn,
                tournament_id,
                expected_version,
                snapshot,
                status,
                deadline,
                transfers,
                now,
            )
        )

    async def actions(self, table_id: int) -> list[ActionRecord]:
        """The table's action log in sequence order."""
        _positive_int(table_id, "table id")
        stmt = (
            sa.select(action_log)
            .where(action_log.c.table_id == table_id)
            .order_by(action_log.c.seq)
        )
        async with read(self.engine) as conn:
            return [table_ops.action_record(row) for row in await conn.execute(stmt)]

    async def closed_at(self, table_id: int) -> datetime | None:
        """When the table closed (the time of its last logged step, the closing one), or None
        while it is open or unknown: a hand's whole seed is shown only some hours after it."""
        _positive_int(table_id, "table id")
        status = sa.select(tables.c.status).where(tables.c.id == table_id)
        last = (
            sa.select(action_log.c.at)
            .where(action_log.c.table_id == table_id)
            .order_by(action_log.c.seq.desc())
            .limit(1)
        )
        async with read(self.engine) as conn:
            if (await conn.execute(status)).scalar() != "closed":
                return None
            at = (await conn.execute(last)).scalar()
        return None if at is None else aware(at)

    async def seed(self, hand_id: str) -> SeedRecord | None:
        """The fair-shuffle record of a hand, or None."""
        stmt = sa.select(hand_seeds).where(hand_seeds.c.hand_id == hand_id)
        async with read(self.engine) as conn:
            row = (await conn.execute(stmt)).first()
        return None if row is None else table_ops.seed_record(row)

    async def reset_table(
        self,
        table_id: int,
        moderator_id: int,
        reason: str,
        refunds: Mapping[int, int] | None = None,
    ) -> dict[int, int]:
        """Close the table, pay its escrow back to the players and log who did it and why.

        ``refunds`` (player id -> chips) must add up to the escrow exactly; without it each player
        gets their net deposit back, scaled so the escrow ends at zero. Returns what each player
        got (players getting nothing are left out).
        """
        _positive_int(table_id, "table id")
        _positive_int(moderator_id, "moderator id")
        reason = _text(reason, "reason", 500)
        if refunds is not None:
            refunds = _check_refunds(refunds)
        now = self._clock()

        def work(conn: sa.Connection) -> dict[int, int]:
            row = table_ops.lock_table_sync(conn, table_id)
            if row.status != "open":
                raise TableClosed(table_id)
            table_ops.check_players_exist_sync(conn, [moderator_id, *(refunds or {})])
            account = escrow(table_id)
            held = ledger_ops.lock_wallets_sync(conn, [account], now)[account]
            if refunds is None:
                paid = table_ops.scaled_refunds(table_ops.net_deposits(conn, table_id), held)
            else:
                paid = {p: c for p, c in sorted(refunds.items()) if c > 0}
                if sum(paid.values()) != held:
                    raise InvalidRequest(
                        f"refunds add up to {sum(paid.values())} but table {table_id} "
                        f"holds {held} chips"
                    )
            items = [Transfer(account, wallet(p), c, f"reset: {reason}") for p, c in paid.items()]
            if held > 0 and not paid:  # the chips came from the house: they go back there
                items.append(Transfer(account, HOUSE, held, f"reset: {reason}"))
            _, seq, _ = table_ops.advance_sync(conn, table_id, row.version, None, "closed", 1, now)
            entry = ActionEntry(
                seat=None,
                player_id=moderator_id,
                action={
                    "kind": "reset",
                    "moderator_id": moderator_id,
                    "reason": reason,
                    "refunds": {str(p): c for p, c in paid.items()},
                },
                at=now,
            )
            table_ops.append_action_sync(conn, table_id, seq, entry)
            ledger_ops.apply_transfers_sync(conn, items, now)
            return paid

        return await self._writer.run_sync(work)

    # -- table messages ----------------------------------------------------------------------

    async def table_message(self, platform: str, table_id: str | int) -> TableSurface | None:
        """The message that shows the table on ``platform`` as the processes last stored it,
        or None (one primary-key read; chat adapters call it when they do not know the message)."""
        platform = _text(platform, "platform", 32)
        table = _text(str(table_id), "table id", 64)
        async with read(self.engine) as conn:
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
        if isinstance(version, bool) or not isinstance(version, int) or version < 0:
            raise InvalidRequest(f"version must be an integer >= 0, got {version!r}")
        new = TableSurface(
            platform=_text(platform, "platform", 32),
            table_id=_text(str(table_id), "table id", 64),
            chat_id=_text(str(chat_id), "chat id", 64),
            message_id=_text(str(message_id), "message id", 64),
            version=version,
            picture=bool(picture),
            updated_at=self._clock(),
        )
        return await self._writer.run(lambda conn: surface_ops.put_surface(conn, new))

    # -- history and statistics --------------------------------------------------------------

    async def history(
        self, player_id: int, games: Sequence[str] | None = None, limit: int = 10
    ) -> list[HistoryEntry]:
        """The player's newest ``limit`` results (hands, Okey rounds and matches) in ``games``
        (every game when None), newest first; an index range read, never a scan."""
        _positive_int(player_id, "player id")
        _positive_int(limit, "limit")
        async with read(self.engine) as conn:
            return await history_ops.recent(conn, player_id, games, limit)

    async def player_stats(self, player_id: int, game: str) -> PlayerStats:
        """The player's statistics in ``game`` (turkish, acik or okey), added up by the
        database over every stored result of theirs in it (docs/storage.md)."""
        _positive_int(player_id, "player id")
        if game not in ("turkish", "acik", "okey"):
            raise InvalidRequest(f"unknown game {game!r}: use turkish, acik or okey")
        async with read(self.engine) as conn:
            return await history_ops.player_stats(conn, player_id, game)

    async def chip_history(
        self, player_id: int, games: Sequence[str] | None = None, limit: int = 100
    ) -> list[int]:
        """The chip results of the player's last ``limit`` hands or Okey matches, oldest first."""
        _positive_int(player_id, "player id")
        _positive_int(limit, "limit")
        async with read(self.engine) as conn:
            return await history_ops.chip_history(conn, player_id, games, limit)

    async def find_players(self, platform: str, text: str) -> list[PlayerRecord]:
        """Players of ``platform`` known by this user id or name (case-insensitive; the user id
        match first); read only."""
        platform = _text(platform, "platform", 32)
        text = _text(text, "player", 100)
        async with read(self.engine) as conn:
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
        if isinstance(limit, bool) or not isinstance(limit, int) or limit <= 0:
            raise InvalidRequest(f"limit must be a positive integer, got {limit!r}")
        if kind not in BOARDS:
            raise InvalidRequest(f"unknown leaderboard {kind!r}: use one of {', '.join(BOARDS)}")
        if community is not None:
            community = _text(str(community), "community", 64)
        stmt = board_query(kind, limit, platform, community)
        async with read(self.engine) as conn:
            rows = await conn.execute(stmt)
            return [(name, int(total)) for name, total in rows]

    async def audit(self) -> list[str]:
        """Check the chip invariants; returns one line per problem (an empty list when sound).

        Each cached balance equals the sum of its ledger entries, none but the house is negative,
        all balances add up to zero (what the house issued is held by the others), and a
        finished or cancelled tournament holds no chips (its fees were paid out or refunded).
        """
        async with read(self.engine) as conn:
            if conn.dialect.name == "postgresql":  # one snapshot for both reads (SQLite: WAL)
                conn = await conn.execution_options(isolation_level="REPEATABLE READ")
            sums = await ledger_ops.ledger_sums(conn)
            cached = {
                row.account: int(row.balance)
                for row in await conn.execute(sa.select(wallets.c.account, wallets.c.balance))
            }
            over = (
                await conn.execute(
                    sa.select(tournaments.c.id).where(
                        tournaments.c.status.in_(("finished", "cancelled"))
                    )
                )
            ).scalars()
            ended = [tournament_escrow(number) for number in over]
        problems = [
            f"{account}: the tournament is over but holds {cached[account]}"
            for account in ended
            if cached.get(account, 0) != 0
        ]
        for account in sorted(set(sums) | set(cached)):
            if sums.get(account, 0) != cached.get(account, 0):
                problems.append(
                    f"{account}: cached {cached.get(account, 0)} != ledger {sums.get(account, 0)}"
                )
            if account != HOUSE and cached.get(account, 0) < 0:
                problems.append(f"{account}: negative balance {cached[account]}")
        if sum(cached.values()) != 0:
            problems.append(f"balances add up to {sum(cached.values())}, not 0")
        return problems


async def _upgrade(engine: AsyncEngine) -> None:
    await migrate.upgrade(engine)


async def _open_table_id(conn: AsyncConnection, platform: str, channel: str) -> int | None:
    return await conn.scalar(
        sa.select(tables.c.id).where(
            tables.c.platform == platform,
            tables.c.channel_id == channel,
            tables.c.status == "open",
        )
    )


def _player_record(row: Any) -> PlayerRecord:
    return PlayerRecord(
        id=row.id, platform=row.platform, user_id=row.user_id, name=row.name, locale=row.locale
    )


def _text(value: object, what: str, max_length: int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidRequest(f"{what} must be a non-empty string, got {value!r}")
    if len(value) > max_length:
        raise InvalidRequest(f"{what} is longer than {max_length} characters")
    return value


def _key(key: object) -> str | None:
    if key is None:
        return None
    return _text(key, "idempotency key", 200)


def _json_object(value: object, what: str) -> None:
    if not isinstance(value, dict):
        raise InvalidRequest(f"{what} must be a dict, got {type(value).__name__}")
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InvalidRequest(f"{what} is not JSON-safe: {exc}") from None


def _deadline(value: object) -> datetime | None:
    """An aware datetime in UTC (SQLite stores datetimes as naive text), or None."""
    if value is None:
        return None
    if not isinstance(value, datetime) or value.tzinfo is None:
        raise InvalidRequest(f"a deadline must be an aware datetime, got {value!r}")
    return value.astimezone(UTC)


def _positive_int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise InvalidRequest(f"{what} must be a positive integer, got {value!r}")
    return value


def _check_commit(
    table_id: object,
    expected_version: object,
    snapshot: object,
    action: object,
    transfers: list[Transfer],
    status: object,
) -> None:
    _positive_int(table_id, "table id")
    _positive_int(expected_version, "expected version")
    _json_object(snapshot, "snapshot")
    if status is not None and status not in TABLE_STATUSES:
        raise InvalidRequest(f"status must be one of {TABLE_STATUSES}, got {status!r}")
    if action is not None:
        if not isinstance(action, ActionEntry):
            raise InvalidRequest("action must be an ActionEntry")
        _json_object(action.action, "action")
        if not isinstance(action.at, datetime):
            raise InvalidRequest("action time must be a datetime")
        if action.player_id is not None:
            _positive_int(action.player_id, "action player id")
    for item in transfers:
        if not isinstance(item, Transfer):
            raise InvalidRequest("transfers must be Transfer values")
        item.validate()


def _check_records(
    table_id: int,
    results: list[GameResult],
    penalties: list[PenaltyEntry],
    seeds: list[SeedRecord],
) -> None:
    for r in results:
        if not isinstance(r, GameResult):
            raise InvalidRequest("results must be GameResult values")
        _positive_int(r.player_id, "result player id")
        _text(r.game, "result game", 32)
        if isinstance(r.chips_delta, bool) or not isinstance(r.chips_delta, int):
            raise InvalidRequest(f"chips_delta must be an integer, got {r.chips_delta!r}")
        _json_object(r.detail, "result detail")
    for p in penalties:
        if not isinstance(p, PenaltyEntry):
            raise InvalidRequest("penalties must be PenaltyEntry values")
        _positive_int(p.player_id, "penalty player id")
        _text(p.match_id, "match id", 64)
        if isinstance(p.points, bool) or not isinstance(p.points, int):
            raise InvalidRequest(f"penalty points must be an integer, got {p.points!r}")
    for s in seeds:
        if not isinstance(s, SeedRecord):
            raise InvalidRequest("seeds must be SeedRecord values")
        s.validate()
        if s.table_id != table_id:
            raise InvalidRequest(f"seed of hand {s.hand_id} belongs to table {s.table_id}")
    if len({s.hand_id for s in seeds}) != len(seeds):
        raise InvalidRequest("the same hand id appears twice in seeds")


def _check_refunds(refunds: Mapping[int, int]) -> dict[int, int]:
    if not isinstance(refunds, Mapping):
        raise InvalidRequest("refunds must map player ids to chips")
    checked = {}
    for player_id, chips in refunds.items():
        _positive_int(player_id, "refund player id")
        if isinstance(chips, bool) or not isinstance(chips, int) or chips < 0:
            raise InvalidRequest(f"refund of player {player_id} must be an integer >= 0")
        checked[player_id] = chips
    return checked
