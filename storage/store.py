"""The Store facade: the async repository API the bot core uses (see docs/storage.md).

Each method checks its arguments (``storage.validators``), opens a read or a write transaction
and hands the work to the module of its feature: ``players``, ``ledger`` and ``steps`` (chips and
steps of play), ``table_create``, ``table_reads`` and ``tables``, ``tournaments``, ``surfaces``,
``history``, ``boards`` and ``audit``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import date, datetime, timedelta
from functools import partial
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError, InterfaceError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine

from storage import community as community_ops
from storage import history as history_ops
from storage import ledger as ledger_ops
from storage import migrate, retention, steps, table_create, table_reads
from storage import players as player_ops
from storage import tables as table_ops
from storage import tournaments as tournament_ops
from storage import validators as check
from storage.community import ComputerLimit
from storage.db import create_engine
from storage.errors import InvalidRequest, Unavailable
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
from storage.store_base import Clock, utc_now
from storage.store_ratings import StoreRatings
from storage.store_reads import StoreReads
from storage.store_seasons import StoreSeasons
from storage.store_surfaces import StoreSurfaces


class Store(StoreReads, StoreSurfaces, StoreRatings, StoreSeasons):
    """Players, chips, tables and their history in one database; every method is a coroutine.

    Open with ``await Store.open(url)`` and close with ``await store.close()``. Each write is one
    transaction: it happens completely or, when it raises, not at all. The read-only queries
    (``StoreReads``) and the table messages and web table state (``StoreSurfaces``) are written
    in their own modules on the same connection (``StoreBase``).
    """

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
        return await self._writer.reading(lambda conn: player_ops.get(conn, player_id))

    async def find_player(self, platform: str, platform_user_id: str | int) -> PlayerRecord | None:
        """The player known by this platform user id, or None; never creates or writes anything."""
        platform = check.text(platform, "platform", 32)
        user_id = check.text(str(platform_user_id), "platform user id", 64)
        return await self._writer.reading(lambda conn: player_ops.find(conn, platform, user_id))

    async def set_locale(self, player_id: int, locale: str | None) -> None:
        """Set (or with None, clear) the player's chosen language."""
        check.positive_int(player_id, "player id")
        locale = check.optional_text(locale, "locale", 16)
        await self._writer.run(lambda conn: player_ops.set_locale(conn, player_id, locale))

    async def set_tile_symbols(self, player_id: int, symbols: bool) -> None:
        """Set whether the player's tiles are drawn with a shape per colour (`/tiles`)."""
        check.positive_int(player_id, "player id")
        if not isinstance(symbols, bool):
            raise InvalidRequest("tile symbols must be true or false")
        await self._writer.run(lambda conn: player_ops.set_tile_symbols(conn, player_id, symbols))

    # -- chips -------------------------------------------------------------------------------

    async def balance(self, account: str) -> int:
        """Chips held by ``account`` (``wallet(id)``, ``escrow(id)`` or ``HOUSE``); 0 if never used."""
        parse_account(account)
        return await self._writer.reading(lambda conn: ledger_ops.balance(conn, account))

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
        return await self._writer.reading(lambda conn: table_reads.get_table(conn, table_id))

    async def table_in_channel(self, platform: str, channel_id: str | int) -> TableRecord | None:
        """The open table of a channel, or None."""
        return await self._writer.reading(
            lambda conn: table_reads.table_in_channel(conn, platform, str(channel_id))
        )

    async def load_open_tables(self) -> list[TableRecord]:
        """Every open table with its latest snapshot (to resume play at start-up), by id."""
        return await self._writer.reading(lambda conn: table_reads.open_tables(conn))

    async def table_head(self, table_id: int) -> TableHead | None:
        """The table's id, place, game, status and version (no snapshot), or None: the one
        indexed read a process makes to learn whether its copy of the table is current."""
        check.positive_int(table_id, "table id")
        return await self._writer.reading(lambda conn: table_reads.table_head(conn, table_id))

    async def channel_head(self, platform: str, channel_id: str | int) -> TableHead | None:
        """The head (see ``table_head``) of the channel's open table, or None."""
        return await self._writer.reading(
            lambda conn: table_reads.channel_head(conn, platform, str(channel_id))
        )

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
        people: Collection[int] = (),
    ) -> int:
        """Write one step of play in ONE transaction and return the table's new version.

        Compare-and-set the version (StaleVersion if it moved on), store the snapshot, append the
        action, apply the transfers, record results, penalties and seeds. Any error writes nothing.
        A repeated ``idempotency_key`` writes nothing and returns the version it produced first.
        ``deadline`` (aware, or None for no timer) is when the table's timer is next due.
        ``computers``: the step seats a computer player; CommunityFull when the table's community
        (outside tournaments) would then seat more than the limit, counted in the transaction.
        ``people``: the players of ``results`` who are people (not computer players); their
        hands and matches update their skill ratings in the same transaction (storage/ratings.py;
        empty: nothing is rated).
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
                    people=frozenset(people),
                )
            )
        except IntegrityError:
            # A foreign key caught an unknown player (cheaper than looking them up on every
            # commit); name the culprit, or re-raise when it was something else.
            await self._writer.reading(lambda conn: table_ops.check_players_exist(conn, referenced))
            raise

    async def actions(self, table_id: int) -> list[ActionRecord]:
        """The table's action log in sequence order."""
        check.positive_int(table_id, "table id")
        return await self._writer.reading(lambda conn: table_reads.actions(conn, table_id))

    async def hand_actions(self, table_id: int, hand_id: str) -> list[ActionRecord]:
        """The action log entries of one hand, from the entry that dealt it to the next deal,
        read by key (the whole log for a hand of before migration 0007)."""
        check.positive_int(table_id, "table id")
        hand_id = check.text(hand_id, "hand id", 64)
        return await self._writer.reading(
            lambda conn: table_reads.hand_actions(conn, table_id, hand_id)
        )

    async def played_in(self, player_id: int, table_id: int, hand_id: str) -> bool:
        """True when the player has a result of this hand or Okey round of this table."""
        check.positive_int(player_id, "player id")
        check.positive_int(table_id, "table id")
        hand_id = check.text(hand_id, "hand id", 64)
        return await self._writer.reading(
            lambda conn: history_ops.played_in(conn, player_id, table_id, hand_id)
        )

    async def pruned_at(self, table_id: int) -> datetime | None:
        """When retention removed the closed table's action log and snapshot, or None."""
        check.positive_int(table_id, "table id")
        return await self._writer.reading(lambda conn: table_reads.pruned_at(conn, table_id))

    async def seed(self, hand_id: str) -> SeedRecord | None:
        """The fair-shuffle record of a hand, or None."""
        return await self._writer.reading(lambda conn: table_reads.seed(conn, hand_id))

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
        return await self._writer.reading(lambda conn: tournament_ops.get(conn, tournament_id))

    async def tournament_in_channel(
        self, platform: str, channel_id: str | int
    ) -> TournamentRecord | None:
        """The newest tournament of a channel that is still registering or running, or None."""
        return await self._writer.reading(
            lambda conn: tournament_ops.live_in_channel(conn, platform, str(channel_id))
        )

    async def open_tournaments(self) -> list[TournamentRecord]:
        """Every tournament still registering or running (to resume them at start-up), by id."""
        return await self._writer.reading(lambda conn: tournament_ops.live(conn))

    async def due_tournaments(self, now: datetime) -> list[TournamentRecord]:
        """The tournaments still registering whose start time (``deadline``) is at or before
        ``now``, earliest first: their registration closes and they start by themselves."""
        at = check.deadline(now)
        return await self._writer.reading(lambda conn: tournament_ops.due(conn, at))

    async def tournament_tables(self, tournament_id: int) -> list[TableRecord]:
        """Every table (open or closed) opened for the tournament, by id."""
        check.positive_int(tournament_id, "tournament id")
        return await self._writer.reading(
            lambda conn: table_reads.tournament_tables(conn, tournament_id)
        )

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
        return await self._writer.reading(lambda conn: table_reads.closed_at(conn, table_id))


async def _upgrade(engine: AsyncEngine) -> None:
    await migrate.upgrade(engine)
