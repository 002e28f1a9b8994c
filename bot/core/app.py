"""The core's entry point, the same for every adapter.

    core = Core(store, CoreConfig(), clock=..., seeds=...)
    await core.start()            -> list[Outgoing]   load open tables (after a restart)
    await core.handle(command)    -> list[Outgoing]   a slash command
    await core.act(table_id, who, nonce, move) -> list[Outgoing]   a typed move (`bot.core.moves`)
    await core.press(press)       -> list[Outgoing]   a button press (`Button.custom_id`), decoded
                                                      by `bot.core.codec` into a move for `act`
    await core.tick(now)          -> list[Outgoing]   turn timers; call every few seconds
    core.watch_reactions(listener) -> unsubscribe     reactions as they come (the web pages)
    await core.locale_of(platform, user_id) -> str | None   a player's `/lang` choice (read only)
    await core.tile_symbols_of(platform, user_id) -> bool  a player's `/tiles` choice (read only)
    core.needs_moderator(name, args) -> bool           whether an adapter must look up moderators
    core.table_info(table_id) -> TableInfo | None       an open table's game, language, turn nonce
    await core.choose_room(platform, user, channel, room) / chosen_room(platform, user, channel)
                                                      the Activity's shared room, kept in the store
    await core.table_view(table_id, platform, user_id, locale) -> TableView | None
                                                      one viewer's view, its words in `locale`

`Core` implements `bot.core.api.CoreApi`, the contract every front end and the tests use.

`Core` routes: account commands go to `account.Accounts` (which also knows who is asking),
table play to `tables.TableService`. Every refusal is an `OutKind.ERROR` item to the sender, in
their language, and changes nothing.
With `CoreConfig.pictures` on, pictures are drawn in a worker thread after the table's lock is
released (`pictures.draw_pictures`), never twice for one state.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from bot.core.answers import answered, legacy_move
from bot.core.api import ReactionListener, RematchView, TableInfo, TableView, VersionListener
from bot.core.checks import needs_moderator, require_moderator
from bot.core.codec import codec
from bot.core.commands import RULES_SUBS, lookup, route
from bot.core.config import CoreConfig
from bot.core.errors import Refusal, log_outcome, storage_refusal
from bot.core.i18n import has, normalize_locale, refusal_params
from bot.core.messages import Command, Outgoing, OutKind, Press, Sender
from bot.core.moderation import Moderation
from bot.core.moves import Action, Back, Move, React
from bot.core.players.account import ACCOUNT_COMMANDS, BOT_PLATFORM, Accounts
from bot.core.players.history import HISTORY_COMMANDS, HistoryCommands
from bot.core.players.replay import REPLAY_COMMANDS, Replays
from bot.core.poker import odds_cache
from bot.core.ratings.commands import RATING_COMMANDS, RatingCommands, rating_board_args
from bot.core.registry import SESSIONS, game_spec, open_session, opener_of
from bot.core.rematches import Rematches, is_rematch
from bot.core.seasons import Seasons
from bot.core.table import trust
from bot.core.table.choices import RoomChoices
from bot.core.table.deliver import deliver, error, table_message, text
from bot.core.table.fairness import SeedSource, random_seeds
from bot.core.table.live import LiveTable
from bot.core.table.pictures import draw_pictures
from bot.core.table.private import make_private, take_private_words
from bot.core.table.reacting import picker, react
from bot.core.table.retention import Retention
from bot.core.table.rooms import Rooms
from bot.core.table.service import TableService
from bot.core.table.session import Step, Who, msg, seated_computers
from bot.core.throttle import Throttle, Verdict, budget_of
from bot.core.tournament import TournamentService, is_tournament_id
from bot.core.views import TableViews, own_picker, view_of
from bot.logs import kv
from storage import ComputerLimit, Unavailable, background_writes, wallet

if TYPE_CHECKING:
    from storage import Store

log = logging.getLogger("bot.core")

__all__ = ["ASKER_ONLY", "BOT_PLATFORM", "Core", "own_picker", "utcnow", "view_of"]

# commands whose answer concerns the asker alone: private in a chat where a table plays
ASKER_ONLY = frozenset({"help", "leaderboard", "verify", "season"})


def utcnow() -> datetime:
    """The current time in UTC (the default clock)."""
    return datetime.now(UTC)


class Core:
    """Answers commands, button presses and timer ticks from every adapter."""

    def __init__(
        self,
        store: Store,
        config: CoreConfig | None = None,
        *,
        clock: Callable[[], datetime] = utcnow,
        seeds: SeedSource = random_seeds,
        rooms: Rooms | None = None,
    ) -> None:
        self.store = store
        self.config = config or CoreConfig()
        self.clock = clock
        self.tables = TableService(store, self.config, clock, seeds, SESSIONS)
        self.views = TableViews(store, self.tables)
        self.moderation = Moderation(store, self.config, self.tables, self._settle)
        self.accounts = Accounts(store, self.config, clock)
        self.replays = Replays(
            store,
            pictures_on=self.config.pictures,
            reveal=self.accounts.verifier.reveal,  # seeds shown only after (bot.core.players.proofs)
        )
        self.history = HistoryCommands(store, self.config)
        self.ratings = RatingCommands(store)
        self.retention = Retention(store, self.config.retention_days)
        self.room_choices = RoomChoices(store)  # the Discord Activity's shared rooms
        self.seasons = Seasons(store, self.config, clock)  # `/season`, each season's end
        self.rematches = Rematches(store, self.config, self.tables, clock)  # "Play again"
        self.commands_budget = budget_of(
            self.config.command_burst, self.config.command_refill_seconds, clock
        )
        self.presses_budget = budget_of(
            self.config.press_burst, self.config.press_refill_seconds, clock
        )
        self.reactions_budget = budget_of(
            self.config.reaction_burst, self.config.reaction_refill_seconds, clock
        )
        self.reaction_listeners: list[ReactionListener] = []
        # tournament tables play in rooms the adapter opens (`rooms`), else in shared rooms
        self.tournaments = TournamentService(
            store,
            self.config,
            clock,
            seeds,
            self.tables,
            self.accounts,
            rooms,
        )

    # --- entry points ---------------------------------------------------------------------------

    async def start(self) -> list[Outgoing]:
        """Load every open table and tournament (after a restart play goes on where it
        stopped; a tournament catches up with what its tables did meanwhile)."""
        out = await self.tables.load()
        out += await self.tournaments.load()
        out += await self._settle()
        return await draw_pictures(out)

    async def close(self) -> None:
        """End what the core started beside the store: the worker processes of Açık poker's
        live odds (`odds_cache`; one pool for every core of the process, so this ends it for
        all of them, and the next odds start a new one). Call it when serving is over, before
        the store is closed; calling it again does nothing."""
        await asyncio.to_thread(odds_cache.shutdown)

    async def tick(self, now: datetime | None = None) -> list[Outgoing]:
        """Run the turn timers and close idle tables; `now` defaults to the core's clock.
        Tournaments whose tables ended move on. Its writes are the timer's: players' writes go
        first, and a busy database is waited for only briefly (`storage.background_writes`)."""
        now = now or self.clock()
        with background_writes():
            out = await self.tables.tick(now)
            out += await self._settle()
            out += await self.tournaments.tick(now)
            out += await self._settle()
            out += await self.seasons.tick(now)  # a community's season ends (bot.core.seasons)
            await self.retention.run(now)  # hourly: closed tables' old logs (table.retention)
        return await draw_pictures(out)

    async def _settle(self) -> list[Outgoing]:
        """Hand the tournaments whose tables closed to the tournament service (after the
        tables' locks are released); seating a stage may close more tables at once. A table
        that finished a round has its tournament's standings edited (live penalty totals).
        A failure here is logged and never spoils the answer to the step that caused it:
        tournaments catch up from storage on the timer (every `RECONCILE_EVERY`)."""
        out: list[Outgoing] = []
        try:
            while ended := self.tables.ended_tournaments():
                out += await self.tournaments.settle(ended)
            if rounds := self.tables.rounds_ended():
                out += await self.tournaments.standings(rounds)
        except Exception:  # never the step's answer: the timer's reconciliation catches up
            log.exception(kv(event="tournament_settle_failed"))
        return out

    async def handle(self, command: Command) -> list[Outgoing]:
        """Handle one slash command and return what to send. Beyond the sender's command budget
        in this chat (`CoreConfig.command_burst`) it is not run: one private "slow down", then
        nothing until the budget refills."""
        key = (command.platform, command.channel_id, command.user_id)
        if (refused := await self._over_budget(self.commands_budget, key, command)) is not None:
            return refused
        out = await self._answer(
            command,
            lambda who: self._dispatch(command, who),
            failure={"event": "command_failed", "command": command.name},
            fields={
                "platform": command.platform,
                "channel": command.channel_id,
                "user": command.user_id,
                "command": command.name,
                "sub": _known_sub(command),
            },
        )
        return self._to_asker(command, out)

    def _to_asker(self, command: Command, out: list[Outgoing]) -> list[Outgoing]:
        """In a chat where a table plays, the answers that concern the asker alone (`/help`,
        `/leaderboard`, `/verify`; `/stats` always is) go to the asker privately: they would
        only queue in the chat's traffic ahead of the play."""
        if route(command.name, command.args).group not in ASKER_ONLY or not self._busy(command):
            return out
        return [
            replace(item, kind=OutKind.PRIVATE, channel_id=None, user_id=command.user_id)
            if item.kind is OutKind.PUBLIC and item.table_id is None
            else item
            for item in out
        ]

    def _busy(self, command: Command) -> bool:
        """Whether a table plays in the command's chat (or in one of its shared rooms), as
        this process last saw it (no store read)."""
        if self.tables.in_channel(command.platform, command.channel_id) is not None:
            return True
        room = command.channel_id + "#"
        return any(
            platform == command.platform and channel.startswith(room)
            for platform, channel in self.tables.channels
        )

    async def press(self, press: Press) -> list[Outgoing]:
        """Handle a button press: its id (`Press.raw`) decoded by the core's codec
        (`bot.core.codec`) and completed with the front end's answer (`Press.args`: an amount,
        the cards picked), then made as `act` makes a move. Stale, foreign or forged buttons
        are refused, and so is a flood of presses (`CoreConfig.press_burst`; the refusal is the
        press's own answer)."""
        decoded = codec.decode(press.raw)
        if not isinstance(decoded, Refusal) and isinstance(decoded.move, React):
            return await self._react(press.table_id, press.sender, decoded.move)

        def move() -> Move:
            if press.action == "x" and press.args:  # older web pages' own moves
                return legacy_move(press.args)
            if isinstance(decoded, Refusal):
                raise decoded
            return answered(decoded.move, press.args)

        return await self._act(
            press.table_id, press.sender, press.nonce, move, press.action.split(".")[0]
        )

    async def act(self, table_id: str, who: Sender, nonce: str, move: Move) -> list[Outgoing]:
        """Make `move` (`bot.core.moves`) at the table or tournament `table_id` for `who`, as
        the turn `nonce` they saw it in; the one way every front end plays (a button press is
        decoded into a move first: `press`). Refused with a clear reason in the player's
        language, changing nothing: a stale nonce, another platform's table, a move that is
        not theirs to make or not legal now, a flood (`CoreConfig.press_burst`). A move that
        needs an answer first comes back with the question as data (`Outgoing.prompt`).
        A reaction (`React`) is no turn's move: `_react`."""
        if isinstance(move, React):
            return await self._react(table_id, who, move)
        return await self._act(table_id, who, nonce, lambda: move, _move_word(move))

    async def _act(
        self,
        table_id: str,
        sender: Sender,
        nonce: str,
        move_of: Callable[[], Move],
        word: str,
    ) -> list[Outgoing]:
        """`act`'s work; `move_of` gives the move (or its refusal) once the table and the
        nonce are checked, so that a stale or foreign button says so whatever it carries."""
        key = (sender.platform, sender.channel_id, sender.user_id)
        if (refused := await self._over_budget(self.presses_budget, key, sender)) is not None:
            return refused

        async def work(who: Who) -> list[Outgoing]:
            if is_tournament_id(table_id):
                return await self.tournaments.press(table_id, nonce, move_of(), sender, who)
            live = await self.tables.fetch(table_id)
            if is_rematch(move_of):  # its offer decides, not the turn's nonce
                return await self.rematches.press(table_id, live, sender.platform, who)
            if live is None or live.platform != sender.platform:
                raise Refusal("err.no_such_table")

            def change(session):  # type: ignore[no-untyped-def]
                # "I'm back" holds whatever moved since it was drawn
                if nonce != session.nonce and not is_back(move_of):
                    raise Refusal("err.stale_button")
                move = move_of()
                return session.back(who) if isinstance(move, Back) else session.act(who, move)

            return await self.tables.run(live, who, change)

        return await self._answer(
            sender,
            work,
            failure={"event": "press_failed", "table": table_id},
            fields={
                "platform": sender.platform,
                "user": sender.user_id,
                "table": table_id,
                "press": word,
            },
        )

    async def _react(self, table_id: str, sender: Sender, move: React) -> list[Outgoing]:
        """A reaction (`bot.core.table.reacting`), whatever the turn's nonce: kept with the
        table and told to `watch_reactions`' listeners, answered with nothing; or, without
        one, the reactions picker to the presser. Refused to anyone not seated there, and a
        flood by the reactions' own budget per player and table (`CoreConfig.reaction_burst`;
        the picker spends a press)."""
        if move.reaction is None:
            budget, key = self.presses_budget, (sender.platform, sender.channel_id, sender.user_id)
        else:
            budget, key = self.reactions_budget, (sender.platform, table_id, sender.user_id)
        slow = "err.slow_down" if move.reaction is None else "err.react_slow_down"
        if (refused := await self._over_budget(budget, key, sender, slow)) is not None:
            return refused

        async def work(who: Who) -> list[Outgoing]:
            live = None if is_tournament_id(table_id) else await self.tables.fetch(table_id)
            if live is None or live.platform != sender.platform:
                raise Refusal("err.no_such_table")
            if move.reaction is None:
                return [picker(live.session, who)]
            seat = await react(live, who, move.reaction)
            for listener in list(self.reaction_listeners):
                try:
                    listener(table_id, seat, move.reaction.value)
                except Exception:  # a listener's bug never refuses the reaction
                    log.exception(kv(event="listener_failed", table=table_id))
            return []

        fields = {"platform": sender.platform, "user": sender.user_id, "table": table_id}
        word = "react" if move.reaction is not None else "reactions"
        failure = {"event": "press_failed", "table": table_id}
        return await self._answer(sender, work, failure=failure, fields={**fields, "press": word})

    def watch_reactions(self, listener: ReactionListener) -> Callable[[], None]:
        """Call `listener(table_id, seat, reaction)` for every reaction this process takes
        from now on (`bot.core.reactions.Reaction`'s value; the seat's index); returns the
        function that stops it."""
        self.reaction_listeners.append(listener)

        def stop() -> None:
            if listener in self.reaction_listeners:
                self.reaction_listeners.remove(listener)

        return stop

    async def _over_budget(
        self,
        budget: Throttle | None,
        key: tuple[str, str, str],
        source: Command | Sender,
        refusal: str = "err.slow_down",
    ) -> list[Outgoing] | None:
        """None when `source` is within its sender's budget (it runs); else what to answer: one
        "slow down" in the sender's language, then nothing. Nothing is read or written but the
        sender's language, once."""
        verdict = Verdict.OK if budget is None else budget.take(key)
        if verdict is Verdict.OK:
            return None
        if verdict is Verdict.SILENT:  # one line at INFO per flood, not one per command
            log.debug(kv(event="throttled", platform=source.platform, user=source.user_id))
            if isinstance(source, Command):
                return []
        else:
            log.info(kv(event="throttled", platform=source.platform, user=source.user_id))
        chosen = await self.accounts.locale_of(source.platform, source.user_id)
        locale = chosen or normalize_locale(source.locale) or self.config.default_locale
        return [self._error(locale, source.user_id, Refusal(refusal))]

    async def _answer(
        self,
        source: Command | Sender,
        work: Callable[[Who], Awaitable[list[Outgoing]]],
        failure: dict[str, Any],
        fields: dict[str, Any],
    ) -> list[Outgoing]:
        """Run `work` for the sender of a command or press and log one line with its outcome
        (`fields` then `outcome`): a refusal becomes an error to the sender in their language,
        and a bug is logged with `failure` and answered with `err.internal`, never left silent."""
        locale = normalize_locale(source.locale) or self.config.default_locale
        outcome = "ok"
        try:
            who = await self.accounts.who(source)
            locale = who.locale
            out = await work(who)
        except Refusal as exc:
            outcome = log_outcome(exc.key)  # never a reason that tells the player's cards
            out = [self._error(locale, source.user_id, exc)]
        except Unavailable as exc:  # a known fault (database away or busy): one line, no traceback
            log.warning(kv(**failure, error=type(exc).__name__))
            outcome = "unavailable"
            out = [self._error(locale, source.user_id, Refusal(storage_refusal(exc)))]
        except Exception:  # state is restored by the table service; the player still gets an answer
            log.exception(kv(**failure))
            outcome = "internal"
            out = [self._error(locale, source.user_id, Refusal("err.internal"))]
        log.info(kv(**fields, outcome=outcome))
        out += await self._settle()  # the sender's step is committed whatever follows from it
        return await draw_pictures(out)

    # --- players --------------------------------------------------------------------------------

    async def locale_of(self, platform: str, user_id: str) -> str | None:
        """The language this user chose with `/lang` (`tr` or `en`), or None when they chose none,
        are not a player yet, or the store is unavailable. Read only: it never creates
        a player or writes anything. Adapters use it for their own texts, so that every text
        follows the same rule: `/lang` choice, else platform language, else table or default."""
        return await self.accounts.locale_of(platform, user_id)

    async def tile_symbols_of(self, platform: str, user_id: str) -> bool:
        """Whether this user chose tiles with a shape per colour (`/tiles symbols`); read only."""
        return await self.accounts.tile_symbols_of(platform, user_id)

    # --- the rest of the contract with front ends (bot.core.api) ------------------------------

    def needs_moderator(self, name: str, args: tuple[str, ...]) -> bool:
        """Whether a command may need the sender's moderator rights (`checks.needs_moderator`):
        an adapter looks them up on its platform only then."""
        return needs_moderator(name, args)

    async def table_in_channel(self, platform: str, channel_id: str) -> str | None:
        """The id of the open table of `channel_id` on `platform` (loaded or brought up to date
        from the store), or None when the channel has none."""
        live = await self.tables.find(platform, channel_id)
        return None if live is None or live.closed else str(live.id)

    async def choose_room(
        self, platform: str, user_id: str, channel_id: str, room: str | None
    ) -> None:
        """Keep the shared room `room` of `channel_id` as the one `user_id` opened the Discord
        Activity on there, for every process (None: the channel's own table; see
        `table.choices`)."""
        await self.room_choices.choose(platform, user_id, channel_id, room)

    async def chosen_room(self, platform: str, user_id: str, channel_id: str) -> str | None:
        """The shared room `user_id` last opened the Activity on in `channel_id`, while the
        choice holds, else None (the sign-in still checks it is open)."""
        return await self.room_choices.chosen(platform, user_id, channel_id)

    def table_info(self, table_id: str) -> TableInfo | None:
        """An open table as this process last saw it (no store read), or None."""
        live = self.tables.get(table_id)
        if live is None or live.closed:
            return None
        session = live.session
        return TableInfo(
            table_id=str(live.id),
            platform=live.platform,
            game=live.game,
            group=session.group,
            locale=session.locale,
            nonce=session.nonce,
        )

    async def table_view(
        self, table_id: str, platform: str, user_id: str, locale: str | None = None
    ) -> TableView | None:
        """The open table `table_id` of `platform` as `user_id` may see it now (a player at it,
        or a spectator), its words (the moves, the previous hand's lines) in `locale` (None: the
        table's language), brought up to date from the store; None when there is no such
        table."""
        return await self.views.table_view(table_id, platform, user_id, locale)

    def subscribe(self, listener: VersionListener) -> Callable[[], None]:
        """Call `listener(table_id, version)` after every step this process commits (and, once
        `follow` runs, every step other processes commit); returns the unsubscriber."""
        self.tables.listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self.tables.listeners:
                self.tables.listeners.remove(listener)

        return unsubscribe

    async def follow(self) -> Callable[[], Awaitable[None]]:
        """Tell the subscribers of other processes' commits too (PostgreSQL LISTEN/NOTIFY on
        the table version; nothing on SQLite); returns the coroutine function that stops it."""
        return await self.store.listen_versions(self.tables.notify)

    async def healthy(self) -> bool:
        """Whether the database answers one trivial read."""
        try:
            await self.store.ping()
        except Exception:
            return False
        return True

    def open_tables(self) -> int:
        """How many open tables this process holds in memory."""
        return len(self.tables.tables)

    async def table_views(
        self,
        table_id: str,
        platform: str,
        user_ids: Sequence[str | None],
        version: int | None = None,
        locale: str | None = None,
    ) -> dict[str | None, TableView] | None:
        """The open table as each of `user_ids` (None: a spectator) may see it, its words (the
        moves, the previous hand's lines) in `locale` (None: the table's language), brought up
        to date from the store once (not even that when this process holds `version` or a newer
        one: it committed it); an Okey player's rack as they arranged it. None when there is no
        such open table on that platform."""
        return await self.views.table_views(table_id, platform, user_ids, version, locale)

    async def rematch_offers(
        self, table_id: str, platform: str, user_ids: Sequence[str | None]
    ) -> dict[str, RematchView]:
        """A closed table's "Play again" offer as each of `user_ids` among its players sees it
        (read only; nobody else gets one)."""
        return await self.rematches.closed_offers(table_id, platform, list(user_ids))

    async def rematch_table(self, table_id: str, platform: str, user_id: str) -> str | None:
        """The open table in the channel of `table_id` where `user_id` sits (read only)."""
        return await self.rematches.successor(table_id, platform, user_id)

    async def arrange_rack(
        self, table_id: str, platform: str, user_id: str, slots: Sequence[str | None], locale: str
    ) -> str | None:
        """Keep an Okey player's rack arrangement for this round; the refusal's words, or None."""
        return await self.views.arrange_rack(table_id, platform, user_id, slots, locale)

    async def sort_rack(
        self, table_id: str, platform: str, user_id: str, mode: str, locale: str
    ) -> str | None:
        """Arrange an Okey player's rack by runs or pairs (the solver of `/okey arrange`) and
        keep it; the refusal's words, or None."""
        return await self.views.sort_rack(table_id, platform, user_id, mode, locale)

    def _error(self, locale: str, user_id: str, exc: Refusal) -> Outgoing:
        key = exc.key
        if key.startswith("illegal.") and not has(key):
            key = "err.illegal"
        out = error(locale, user_id, key, **refusal_params(locale, exc.params))
        return out if exc.prompt is None else replace(out, prompt=exc.prompt)

    # --- dispatch -------------------------------------------------------------------------------

    async def _dispatch(self, command: Command, who: Who) -> list[Outgoing]:
        r = route(command.name, command.args)
        if r.group is None:
            raise Refusal("err.unknown_command", name=command.name)
        if r.group == "help":
            body = text(who.locale, [msg("help.text")])
            return [Outgoing(OutKind.PUBLIC, body, channel_id=command.channel_id)]
        if r.group in RATING_COMMANDS:
            return await self.ratings.command(command, who, r.group, r.args)
        if r.group == "leaderboard" and (words := rating_board_args(r.args)) is not None:
            body = text(who.locale, await self.ratings.board(words, command))
            return [Outgoing(OutKind.PUBLIC, body, channel_id=command.channel_id)]
        if r.group in ACCOUNT_COMMANDS:
            return await self.accounts.command(command, who, r.group, r.args)
        if r.group in REPLAY_COMMANDS:
            return await self.replays.command(command, who, r.group, r.args)
        if r.group in HISTORY_COMMANDS:
            return await self.history.command(command, who, r.group, r.args)
        if r.group == "table":
            return await self.moderation.command(command, who, r.sub, r.args)
        if r.group == "tournament":
            return await self.tournaments.command(command, who, r.sub, r.args)
        if r.group == "season":
            return await self.seasons.command(command, who, r.args)
        # the channel's table as this process holds it, checked by the commit or after
        group, sub, args = r.group, r.sub, r.args
        return await trust.run(self.store, lambda: self._game(command, who, group, sub, args))

    async def _check_computers(self, command: Command, session: Any) -> None:
        """Refuse one computer player more than the table's or the community's limit
        (`CoreConfig.max_computers_per_table`, `max_computers_per_community`)."""
        here = sum(1 for seat in session.seats if seat.bot)
        cap = self.config.max_computers_per_table
        if cap and here >= cap:
            raise Refusal("err.computers_table", max=cap)
        cap = self.config.max_computers_per_community
        if not cap or command.community is None:
            return
        # a quick look before a computer's wallet is topped up; the commit that seats it counts
        # again in its transaction, so two processes cannot both pass (Step.computers)
        tables = await self.store.community_tables(command.platform, command.community)
        if sum(seated_computers(t.snapshot) for t in tables) >= cap:
            raise Refusal("err.computers_community", max=cap)

    async def _check_stakes(self, live: LiveTable) -> None:
        """Name the player who cannot cover the Okey stake (the commit would refuse anyway)."""
        stake = live.session.options["stake"]
        for seat in live.session.seats:
            if await self.store.balance(wallet(seat.player_id)) < stake:
                raise Refusal("err.stake_short", name=seat.name, stake=stake)

    async def _game(
        self, command: Command, who: Who, group: str, sub: str | None, args: tuple[str, ...]
    ) -> list[Outgoing]:
        if sub is None:
            raise Refusal(f"err.{group}_usage")
        live = await self.tables.find(command.platform, command.channel_id, who.player_id)
        opener = opener_of(group)
        if sub == opener and (live is None or not live.session.wants_action(who, sub)):
            args, watchers = take_private_words(args)  # `private`: by invitation only
            session, first = open_session(group, args, who, self.config, self.clock())
            if watchers is not None:
                make_private(session, who, watchers)
            return await self.tables.open(
                command.platform, command.channel_id, who, session, first, command.community
            )
        if live is None:
            raise Refusal("err.no_table")
        spec = game_spec(live.game)
        if spec.group != group:
            raise Refusal("err.other_game", game=msg(f"game.{live.game}"))
        session = live.session
        if sub == "table":
            session.now = self.clock()  # what it shows may depend on the time (sit-and-go levels)
            await session.prepare(None)  # Açık odds off the event loop
            return [table_message(session, live.channel_id, fresh=True, version=live.version)]
        if sub == "rules" and not args:  # a look-up is nobody else's business
            body = text(who.locale, session.rules_lines())
            return [Outgoing(OutKind.PRIVATE, body, user_id=who.user_id)]
        if sub == "rules":  # `rules set name=value ...`: a moderator changes the house rules
            if lookup(RULES_SUBS, args[0]) != "set":
                raise Refusal(f"err.rules_usage.{group}")
            require_moderator(command)
            words = args[1:]
            return await self.tables.run(live, who, lambda s: s.set_rules(who, words))
        if sub in ("hand", "rack", "arrange"):
            index = session.find(who.player_id)
            if index is None:
                raise Refusal("err.not_seated")
            await session.prepare(who.player_id)  # their own odds off the event loop
            lines = session.private_lines(index, sub, args)
            session.seats[index].symbols = who.symbols  # their rack as they chose (`/tiles`)
            picture = session.private_sketch(index, sub, args)
            seat = replace(session.seats[index], locale=who.locale)
            buttons = session.private_buttons(index)  # it may replace the turn's rack message
            note = session.tell_hand(seat, lines, picture=picture, buttons=buttons)
            out = deliver(session, live.channel_id, [note], live.version)
            picker = own_picker(view_of(session, who.user_id))
            if picker is None:
                return out
            return [
                replace(o, picker=picker)
                if o.kind is OutKind.PRIVATE and o.user_id == who.user_id
                else o
                for o in out
            ]
        # `find` has just read the table's version: the step need not read it again (a race
        # lost meanwhile is retried on the fresh state)
        if sub == "back":
            return await self.tables.run(live, who, lambda s: s.back(who), checked=True)
        if spec.stake_at_begin and sub == "begin":
            await self._check_stakes(live)
        if sub == "addbot":
            await self._check_computers(command, session)
            seated = {s.user_id for s in session.seats}
            bot = await self.accounts.computer(seated, session.locale)
            cap = self.config.max_computers_per_community
            limit = ComputerLimit(cap, seated_computers) if cap else None

            def add_bot(s: Any) -> Step:
                step = s.add_bot(bot, args)
                step.computers = limit
                step.funds_refusal = "err.computer_funds"
                return step

            return await self.tables.run(live, who, add_bot, checked=True)
        return await self.tables.run(live, who, lambda s: s.command(who, sub, args), checked=True)


def is_back(move_of: Callable[[], Move]) -> bool:
    """True when a press or move is "I'm back" (`Back`); a forged one is not."""
    try:
        return isinstance(move_of(), Back)
    except Refusal:
        return False


def _move_word(move: Move) -> str:
    """A move's kind for the log line (never a card or tile)."""
    return move.kind if isinstance(move, Action) else type(move).__name__.lower()


def _known_sub(command: Command) -> str:
    """The canonical sub-command for the log line; never a word the user typed freely (which
    could be a card)."""
    r = route(command.name, command.args)
    return r.sub or ""
