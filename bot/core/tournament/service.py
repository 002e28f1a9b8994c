"""The tournament service: tournaments in storage, one lock per tournament, commands, presses,
and the tables it opens for each stage.

Every change is one compare-and-set commit of the tournament (`Store.commit_tournament`) with
its fee transfers, so a fee is taken, refunded or paid once. The tables are ordinary Okey tables
(`TableService.open`) marked with the tournament (`options["tournament"]`, the store's
`tables.tournament_id`) and their slot (`options["slot"]`). `progress` is the one place that moves
a running tournament on, and it only reads what storage says: it opens a slot's table unless the
store already has it, begins a table that was opened but not begun, records the outcome of every
closed table, seats the next stage when a stage is complete and pays the prizes after the final.
`Core` calls it when a tournament table closes, at start-up and from the timer, so a restart
between any two commits loses nothing and never pays twice.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Protocol

from bot.core.config import CoreConfig
from bot.core.errors import Refusal
from bot.core.messages import Command, Outgoing, OutKind, Sender
from bot.core.moves import Leave, Move, Sit, Start
from bot.core.table.deliver import text, words
from bot.core.table.live import new_nonce
from bot.core.table.rooms import Rooms, shared_room
from bot.core.table.service import TableService
from bot.core.table.session import Msg, Seat, TableOutcome, Who, msg
from bot.core.tournament import options, view
from bot.core.tournament.locks import KeyedLocks
from bot.core.tournament.state import KNOCKOUT, Entrant, Slot, Tournament
from bot.logs import kv
from storage import (
    CommunityFull,
    InsufficientFunds,
    NotFound,
    StaleVersion,
    TournamentOver,
    TournamentRecord,
    Transfer,
    tournament_escrow,
    wallet,
)

if TYPE_CHECKING:
    from storage import Store

log = logging.getLogger("bot.core.tournament")
REGISTRATION: dict[type, str] = {Sit: "join", Leave: "leave", Start: "start"}  # the buttons


class ComputerPlayers(Protocol):
    """Where a tournament gets a computer player for a seat (`players.account.Accounts`)."""

    async def computer(self, seated: set[str], locale: str) -> Who:
        """A computer player whose user id is not in `seated`, its wallet at its bankroll."""
        ...


RECONCILE_EVERY = timedelta(seconds=60)  # the timer's look at every running tournament
ATTEMPTS = 4  # commits lost to another process before a change gives up


class TournamentService:
    """Opens and runs tournaments; the only code that commits a tournament."""

    def __init__(
        self,
        store: Store,
        config: CoreConfig,
        clock: Callable[[], datetime],
        seeds: Callable[[str], bytes],
        tables: TableService,
        accounts: ComputerPlayers,
        rooms: Rooms | None = None,
    ) -> None:
        self.store = store
        self.config = config
        self.clock = clock
        self.seeds = seeds
        self.tables = tables
        self.accounts = accounts
        self.rooms = rooms
        self.locks = KeyedLocks()  # an entry only while a task holds or waits on it
        self.reconciled: datetime | None = None

    def _lock(self, tournament_id: int) -> contextlib.AbstractAsyncContextManager[None]:
        return self.locks.hold(tournament_id)

    # --- commands -------------------------------------------------------------------------------

    async def command(
        self, command: Command, who: Who, sub: str | None, args: tuple[str, ...]
    ) -> list[Outgoing]:
        """`/tournament okey|poker ...` opens one; `join`, `leave`, `start`, `standings`,
        `cancel` act on the channel's."""
        if sub is None:
            raise Refusal("err.tournament_usage")
        if sub in ("okey", "poker"):
            return await self._open(command, who, sub, args)
        if args:
            raise Refusal("err.no_args", action=sub)
        record = await self.store.tournament_in_channel(command.platform, command.channel_id)
        if record is None:
            record = await self._of_room(command)
        if record is None:
            raise Refusal("err.no_tournament")
        return await self.act(record.id, who, sub, command.is_moderator, command.user_id)

    async def _of_room(self, command: Command) -> TournamentRecord | None:
        """The live tournament whose table plays in the command's channel (a thread or forum
        topic of its own), if any."""
        live = await self.tables.find(command.platform, command.channel_id)
        number = None if live is None else live.session.options.get("tournament")
        if number is None:
            return None
        try:
            record = await self.store.get_tournament(int(number))
        except NotFound:
            return None
        return record if record.status in ("registering", "running") else None

    async def press(
        self, table_id: str, nonce: str, move: Move, sender: Sender, who: Who
    ) -> list[Outgoing]:
        """A registration button: `Sit`, `Leave` or `Start` (stale once play started)."""
        number = view.tournament_number(table_id)
        sub = REGISTRATION.get(type(move))
        if number is None or sub is None:
            raise Refusal("err.bad_button")
        try:
            record = await self.store.get_tournament(number)
        except NotFound:
            raise Refusal("err.no_tournament") from None
        if record.platform != sender.platform:
            raise Refusal("err.no_tournament")
        if record.snapshot.get("nonce") != nonce:
            raise Refusal("err.stale_button")
        return await self.act(number, who, sub, sender.is_moderator, sender.user_id)

    async def act(
        self, tournament_id: int, who: Who, sub: str, moderator: bool, user_id: str
    ) -> list[Outgoing]:
        """Run one tournament sub-command for `who`."""
        if sub == "standings":
            record, state = await self._load(tournament_id)
            item = view.message(state, record.channel_id, self._live(state))
            return [item, Outgoing(OutKind.PRIVATE, item.text, user_id=user_id)]
        async with self._lock(tournament_id):
            if sub == "join":
                return await self._change(tournament_id, lambda r, s: self._join(s, who))
            if sub == "leave":
                return await self._leave(tournament_id, who)
            if sub == "start":
                out = await self._change(tournament_id, lambda r, s: self._start(s, who, moderator))
                return out + await self._progress(tournament_id)
            if sub == "cancel":
                return await self._cancel(tournament_id, who, moderator)
        raise Refusal("err.tournament_usage")

    async def _open(
        self, command: Command, who: Who, sub: str, args: tuple[str, ...]
    ) -> list[Outgoing]:
        if sub == "okey":  # `/tournament okey ...`
            kind, settings = KNOCKOUT, options.parse_okey(args, self.config, self.clock())
        else:
            kind, settings = options.parse_poker(args, self.config)
        if await self.store.tournament_in_channel(command.platform, command.channel_id):
            raise Refusal("err.tournament_exists")
        state = Tournament(kind, who.player_id, settings, who.locale, new_nonce(), who.name)
        try:
            record = await self.store.create_tournament(
                command.platform,
                command.channel_id,
                kind,
                state.to_dict(),
                community=command.community,
                deadline=_start_at(state),
                max_live=self.config.max_running_tournaments,  # counted in the same transaction
            )
        except CommunityFull as exc:
            raise Refusal("err.community_tournaments", max=exc.most) from None
        state.id = record.id
        log.info(kv(event="tournament_open", tournament=record.id, kind=kind))
        return [view.message(state, record.channel_id, fresh=True)]

    # --- the changes ----------------------------------------------------------------------------

    def _join(self, state: Tournament, who: Who) -> tuple[list[Transfer], list[Msg]]:
        fee = state.settings.fee
        state.join(Entrant(who.player_id, who.user_id, who.name, who.locale, fee))
        moves = [
            Transfer(wallet(who.player_id), tournament_escrow(state.id), fee, "tournament fee")
        ]
        return (moves if fee else []), []

    def _start(
        self, state: Tournament, who: Who, moderator: bool
    ) -> tuple[list[Transfer], list[Msg]]:
        if who.player_id != state.organiser and not moderator:
            raise Refusal("err.tournament_not_organiser")
        return self._seat_first(state)

    def _seat_first(self, state: Tournament) -> tuple[list[Transfer], list[Msg]]:
        """Close registration and seat stage 1 (by the organiser, or at the start time)."""
        stage = state.start(self.seeds(f"t{state.id}-s1"), new_nonce())
        return [], [msg("tournament.started", count=len(state.entrants)), _seated(state, stage)]

    async def _leave(self, tournament_id: int, who: Who) -> list[Outgoing]:
        _, state = await self._load(tournament_id)
        if state.status == "registering":

            def leave(_: TournamentRecord, s: Tournament) -> tuple[list[Transfer], list[Msg]]:
                gone = s.leave(who.player_id)
                back = Transfer(
                    tournament_escrow(s.id), wallet(gone.player_id), gone.paid, "fee back"
                )
                return ([back] if gone.paid else []), []

            return await self._change(tournament_id, leave)
        if state.status != "running" or not state.still_in(who.player_id):
            raise Refusal("err.tournament_not_entrant")
        slot = state.slot_of(who.player_id)
        live = None if slot is None else await self.tables.fetch(str(slot.table_id))
        if live is None:  # their table is over: they simply do not go on

            def withdraw(_: TournamentRecord, s: Tournament) -> tuple[list[Transfer], list[Msg]]:
                s.withdraw(who.player_id)
                return [], [msg("tournament.withdrew", name=who.name)]

            return await self._change(tournament_id, withdraw)
        pid = who.player_id
        out = await self.tables.run(live, None, lambda s: s.forfeit(pid))  # type: ignore[attr-defined]
        return out + await self._refresh(tournament_id)

    async def _cancel(self, tournament_id: int, who: Who, moderator: bool) -> list[Outgoing]:
        _, state = await self._load(tournament_id)
        if who.player_id != state.organiser and not moderator:
            raise Refusal("err.tournament_not_organiser")

        def cancel(_: TournamentRecord, s: Tournament) -> tuple[list[Transfer], list[Msg]]:
            moves = _refunds(s)
            return moves, [msg("tournament.cancelled", name=who.name, count=len(moves))]

        out = await self._change(tournament_id, cancel, status="cancelled")
        out += await self._close_tables(tournament_id, who)
        return out

    async def _close_tables(self, tournament_id: int, who: Who | None) -> list[Outgoing]:
        """Reset the open tables of a tournament that is over (it was cancelled)."""
        out: list[Outgoing] = []
        for table in await self.store.tournament_tables(tournament_id):
            live = None if table.status != "open" else await self.tables.fetch(str(table.id))
            if live is None:
                continue
            try:
                await self.tables.reset(live, _system(who, live), "tournament cancelled")
            except Refusal:
                continue
            out.append(
                Outgoing(
                    OutKind.PUBLIC,
                    text(live.session.locale, [msg("tournament.table_cancelled")]),
                    channel_id=live.channel_id,
                    table_id=str(live.id),
                )
            )
        return out

    # --- storage --------------------------------------------------------------------------------

    async def _load(self, tournament_id: int) -> tuple[TournamentRecord, Tournament]:
        try:
            record = await self.store.get_tournament(tournament_id)
        except NotFound:
            raise Refusal("err.no_tournament") from None
        return record, Tournament.from_dict(record.snapshot, record.id)

    async def _change(
        self,
        tournament_id: int,
        change: Callable[[TournamentRecord, Tournament], tuple[list[Transfer], list[Msg]]],
        status: str | None = None,
    ) -> list[Outgoing]:
        """Apply `change` to the stored state and commit it with its transfers (compare-and-set;
        a lost race is tried again on the fresh state); the living message is edited and the
        change's lines announced."""
        for _ in range(ATTEMPTS):
            record, state = await self._load(tournament_id)
            if state.status not in ("registering", "running"):
                raise Refusal("err.tournament_over")
            transfers, lines = change(record, state)
            try:
                await self.store.commit_tournament(
                    record.id,
                    record.version,
                    state.to_dict(),
                    status=status or (state.status if state.status != record.status else None),
                    transfers=transfers,
                    deadline=_start_at(state),
                )
            except StaleVersion:
                continue
            except TournamentOver:
                raise Refusal("err.tournament_over") from None
            except InsufficientFunds:
                raise Refusal("err.tournament_funds", fee=state.settings.fee) from None
            out = [view.message(state, record.channel_id, self._live(state))]
            if lines:
                out.insert(0, view.announcement(state, record.channel_id, lines))
            return out
        raise Refusal("err.stale")

    def _live(self, state: Tournament) -> dict[int, TableOutcome]:
        """The current standing of the stage's tables still playing in this process."""
        stage = state.stage
        out: dict[int, TableOutcome] = {}
        if stage is None or state.status != "running":
            return out
        for slot in stage.tables:
            live = None if slot.table_id is None else self.tables.get(str(slot.table_id))
            outcome = None if live is None else live.session.outcome()
            if outcome is not None:
                out[slot.number] = outcome
        return out

    async def _refresh(self, tournament_id: int) -> list[Outgoing]:
        record, state = await self._load(tournament_id)
        return [view.message(state, record.channel_id, self._live(state))]

    async def standings(self, tournament_ids: set[int]) -> list[Outgoing]:
        """The living message of each running tournament, edited with its tables' live penalty
        totals (one of its tables finished a round). Read only: an edit, never a new post."""
        out: list[Outgoing] = []
        for tournament_id in sorted(tournament_ids):
            try:
                record, state = await self._load(tournament_id)
            except Refusal:  # gone (a moderator's reset of its last table raced it)
                continue
            if state.status == "running":
                out.append(view.message(state, record.channel_id, self._live(state)))
        return out

    # --- running --------------------------------------------------------------------------------

    async def settle(self, tournament_ids: set[int]) -> list[Outgoing]:
        """Move on the tournaments whose tables just closed."""
        out: list[Outgoing] = []
        for tournament_id in sorted(tournament_ids):
            async with self._lock(tournament_id):
                try:
                    out += await self._progress(tournament_id)
                except Refusal as exc:  # the tournament is gone: its tables play on alone
                    log.warning(
                        kv(event="tournament_missing", tournament=tournament_id, why=exc.key)
                    )
        return out

    async def load(self) -> list[Outgoing]:
        """At start-up: post every live tournament's message again and move the running ones
        on from what storage says (tables opened, begun and finished meanwhile)."""
        out: list[Outgoing] = []
        for record in await self.store.open_tournaments():
            state = Tournament.from_dict(record.snapshot, record.id)
            out.append(view.message(state, record.channel_id, fresh=True))
            async with self._lock(record.id):
                out += await self._progress(record.id)
        self.reconciled = self.clock()
        return out

    async def tick(self, now: datetime) -> list[Outgoing]:
        """From the timer: start the tournaments whose start time has come; now and then, look
        at every running tournament (a table closed by a process that died before telling its
        tournament, a table reset by a moderator)."""
        out: list[Outgoing] = []
        for record in await self.store.due_tournaments(now):
            async with self._lock(record.id):
                out += await self._start_on_time(record.id)
        if self.reconciled is not None and now - self.reconciled < RECONCILE_EVERY:
            return out
        self.reconciled = now
        for record in await self.store.open_tournaments():
            if record.status == "running":
                async with self._lock(record.id):
                    out += await self._progress(record.id, quiet=True)
        return out

    async def _start_on_time(self, tournament_id: int) -> list[Outgoing]:
        """The start time has come: registration closes and the tournament starts; with too
        few entrants it is cancelled and every fee refunded, and the channel is told why."""
        _, state = await self._load(tournament_id)
        if state.status != "registering":
            return []  # started or cancelled meanwhile (by hand or by another process)
        need = 2
        try:
            if len(state.entrants) >= need:
                out = await self._change(tournament_id, lambda r, s: self._seat_first(s))
                return out + await self._progress(tournament_id)

            def cancel(_: TournamentRecord, s: Tournament) -> tuple[list[Transfer], list[Msg]]:
                moves = _refunds(s)
                return moves, [msg("tournament.cancelled_few", count=len(s.entrants), need=need)]

            return await self._change(tournament_id, cancel, status="cancelled")
        except Refusal as exc:  # another process got there first
            log.info(kv(event="tournament_start_skipped", tournament=tournament_id, reason=exc.key))
            return []

    async def _progress(self, tournament_id: int, quiet: bool = False) -> list[Outgoing]:
        """Under the tournament's lock: bring the running tournament in line with its tables
        (see the module docstring); `quiet`: no message unless something changed."""
        out: list[Outgoing] = []
        for _ in range(64):  # one pass per stage seated at most, and lost races
            record, state = await self._load(tournament_id)
            if state.status != "running" or state.stage is None:
                return out
            stage = state.stage
            tables = {
                int(t.options.get("slot", 0)): t
                for t in await self.store.tournament_tables(tournament_id)
            }
            changed = False
            for slot in stage.tables:
                table = tables.get(slot.number)
                if table is None:
                    out += await self._open_table(record, state, slot)
                    found = await self.store.tournament_tables(tournament_id)
                    table = next(t for t in found if t.options.get("slot") == slot.number)
                    tables[slot.number] = table
                elif table.status == "open" and table.snapshot.get("phase") == "waiting":
                    out += await self._begin(table.id)
                if slot.table_id is None:
                    slot.table_id, slot.channel_id = table.id, table.channel_id
                    changed = True
            for slot in stage.tables:
                table = tables[slot.number]
                if slot.order is None and table.status == "closed":
                    result = _stored_outcome(table.snapshot)
                    changed = state.record(slot.number, result.order, result.figures) or changed
            lines: list[Msg] = []
            transfers: list[Transfer] = []
            if stage.complete():
                following = state.next_stage(self.seeds(f"t{tournament_id}-s{stage.number + 1}"))
                if following is not None:
                    lines.append(_seated(state, following))
                else:
                    transfers = [
                        Transfer(
                            tournament_escrow(tournament_id), wallet(pid), chips, "tournament prize"
                        )
                        for pid, chips in sorted(state.payouts().items())
                    ]
                    lines += _winners(state)
                changed = True
            if not changed:
                if not quiet:
                    out.append(view.message(state, record.channel_id, self._live(state)))
                return out
            try:
                await self.store.commit_tournament(
                    record.id,
                    record.version,
                    state.to_dict(),
                    status="finished" if state.status == "finished" else None,
                    transfers=transfers,
                )
            except StaleVersion:
                continue  # another process moved it on: look again
            except TournamentOver:
                return out
            log.info(
                kv(
                    event="tournament_step",
                    tournament=tournament_id,
                    status=state.status,
                    stage=len(state.stages),
                )
            )
            if lines:
                out.append(view.announcement(state, record.channel_id, lines))
            out.append(view.message(state, record.channel_id, self._live(state)))
            if state.status == "finished":
                await self._close_rooms(tournament_id)
                return out
        return out

    async def _open_table(
        self, record: TournamentRecord, state: Tournament, slot: Slot
    ) -> list[Outgoing]:
        """Open a slot's table in its room, everyone seated, and begin its match."""
        from bot.core.registry import tournament_table

        stage = state.stage
        assert stage is not None
        seats = []
        for pid in slot.players:
            e = state.entrant(pid)
            assert e is not None
            seats.append(Seat(e.player_id, e.user_id, e.name, e.locale))
        seated = {s.user_id for s in seats}
        for _ in range(slot.bots):
            bot = await self.accounts.computer(seated, state.locale)
            seated.add(bot.user_id)
            seats.append(Seat(bot.player_id, bot.user_id, bot.name, bot.locale, bot=True))
        settings = {
            "tournament": state.id,
            "slot": slot.number,
            "rounds": state.settings.rounds,
            "tiebreak": stage.tiebreak,
            "locale": state.locale,
            "chips": state.settings.chips,
            "level_minutes": state.settings.level_minutes,
            "rules": state.settings.rules,
            "preset": state.settings.preset,
            "variant": state.settings.variant,
        }
        session = tournament_table(state.kind, seats, settings, self.config, self.clock())
        channel = await self._room(record, state, slot)
        out = await self.tables.open(
            record.platform, channel, None, session, None, record.community, tournament=state.id
        )
        live = self.tables.in_channel(record.platform, channel)
        begun = [] if live is None else await self._begin(live.id)
        # the match begins at once: its announcement and table message replace the opening's
        # (a waiting table that tells people to join would only be posted to be edited away)
        return begun or out

    async def _room(self, record: TournamentRecord, state: Tournament, slot: Slot) -> str:
        """A room of its own for the table when the adapter gives one, else a shared room."""
        if self.rooms is not None:
            title = words(state.locale, msg("tournament.room", id=state.id, number=slot.number))
            try:
                room = await self.rooms.open_room(record.platform, record.channel_id, title)
            except Exception:  # a room is a nicety: the shared room always works
                log.warning(kv(event="room_failed", tournament=state.id, table=slot.number))
                room = None
            if room:
                return room
        return shared_room(record.channel_id, f"{state.id}.{slot.number}")

    async def _close_rooms(self, tournament_id: int) -> None:
        if self.rooms is None:
            return
        for table in await self.store.tournament_tables(tournament_id):
            if "#" not in table.channel_id:
                try:
                    await self.rooms.close_room(table.platform, table.channel_id)
                except Exception:
                    log.warning(kv(event="room_close_failed", table=table.id))

    async def _begin(self, table_id: int) -> list[Outgoing]:
        live = await self.tables.fetch(str(table_id))
        if live is None:
            return []
        try:
            return await self.tables.run(live, None, lambda s: s.start_match())  # type: ignore[attr-defined]
        except Refusal as exc:  # begun meanwhile
            log.info(kv(event="table_begin_skipped", table=table_id, reason=exc.key))
            return []


def _refunds(state: Tournament) -> list[Transfer]:
    """Call the tournament off: every fee paid goes back from its escrow."""
    return [
        Transfer(tournament_escrow(state.id), wallet(pid), chips, "tournament cancelled")
        for pid, chips in sorted(state.cancel().items())
    ]


def _start_at(state: Tournament) -> datetime | None:
    """The row's deadline: the start time while registration is open, else none."""
    when = state.settings.start_at
    if state.status != "registering" or not when:
        return None
    return datetime.fromisoformat(when)


def _stored_outcome(snapshot: dict) -> TableOutcome:
    """A closed table's standing from its last snapshot (a moderator's reset leaves the order
    of the moment)."""
    from bot.core.registry import GAMES

    session = GAMES[snapshot["game"]].session.from_dict(snapshot)
    result = session.outcome()
    if result is None:
        return TableOutcome(True, [s.player_id for s in session.seats], {})
    return result


def _seated(state: Tournament, stage) -> Msg:  # type: ignore[no-untyped-def]
    tables = "; ".join(
        f"{slot.number}: "
        + ", ".join(state.name(p) for p in slot.players)
        + (f" +{slot.bots}🤖" if slot.bots else "")
        for slot in stage.tables
    )
    key = "tournament.final_seated" if stage.final else "tournament.stage_seated"
    return msg(
        key,
        stage=stage.number,
        tables=tables,
        hash=stage.seed_hash,
        check=f"t{state.id}-s{stage.number}",
    )


def _winners(state: Tournament) -> list[Msg]:
    lines = [msg("tournament.over")]
    for place, (pid, chips) in enumerate(zip(state.ranking, state.prizes, strict=False), start=1):
        lines.append(msg("tournament.place_paid", place=place, name=state.name(pid), chips=chips))
    return lines


def _system(who: Who | None, live) -> Who:  # type: ignore[no-untyped-def]
    """Who closes a cancelled tournament's table (the canceller; else the table's first seat)."""
    if who is not None:
        return who
    seat = live.session.seats[0]
    return Who(seat.player_id, seat.user_id, seat.name, seat.locale, symbols=seat.symbols)
