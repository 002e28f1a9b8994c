"""The core's entry point, the same for every adapter.

    core = Core(store, CoreConfig(), clock=..., seeds=...)
    await core.start()            -> list[Outgoing]   load open tables (after a restart)
    await core.handle(command)    -> list[Outgoing]   a slash command
    await core.press(press)       -> list[Outgoing]   a button press (`Button.custom_id`)
    await core.tick(now)          -> list[Outgoing]   turn timers; call every few seconds
    await core.locale_of(platform, user_id) -> str | None   a player's `/lang` choice (read only)

Every refusal is an `OutKind.ERROR` item to the sender, in their language, and changes nothing.
With `CoreConfig.pictures` on, pictures are drawn in a worker thread after the table's lock is
released (`pictures.draw_pictures`), never twice for one state.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from bot.core.checks import require_moderator
from bot.core.commands import BOARDS, route
from bot.core.config import CoreConfig
from bot.core.deliver import deliver, error, table_message, text
from bot.core.errors import Refusal, log_outcome
from bot.core.games import GAMES, open_session
from bot.core.i18n import has, normalize_locale, refusal_params
from bot.core.messages import Command, Outgoing, OutKind, Press
from bot.core.pictures import draw_pictures
from bot.core.session import Msg, Note, Who, msg
from bot.core.tables import LiveTable, TableService
from bot.logs import kv
from games.base import new_seed
from storage import HOUSE, StorageError, wallet

if TYPE_CHECKING:
    from storage import PlayerRecord, Store

log = logging.getLogger("bot.core")

BOT_PLATFORM = "bot"


def utcnow() -> datetime:
    """The current time in UTC (the default clock)."""
    return datetime.now(UTC)


class Core:
    """Answers commands, button presses and timer ticks from every adapter."""

    def __init__(
        self,
        store: Store | str | None,
        config: CoreConfig | None = None,
        *,
        clock: Callable[[], datetime] = utcnow,
        seeds: Callable[[], bytes] = new_seed,
    ) -> None:
        if isinstance(store, str):  # the first stub's `Core(default_locale)`, kept for adapters
            config, store = config or CoreConfig(default_locale=store), None
        self.store = store  # None: only /help works, everything else says storage is missing
        self.config = config or CoreConfig()
        self.clock = clock
        self.tables = TableService(store, self.config, clock, seeds, GAMES)
        self._players: dict[tuple[str, str], PlayerRecord] = {}
        # (platform, user id) -> their `/lang` choice or None; only `/lang` stores a locale
        self._locales: dict[tuple[str, str], str | None] = {}
        self._granted: set[int] = set()

    # --- entry points ---------------------------------------------------------------------------

    async def start(self) -> list[Outgoing]:
        """Load every open table (after a restart play goes on where it stopped)."""
        return await draw_pictures(await self.tables.load())

    async def tick(self, now: datetime | None = None) -> list[Outgoing]:
        """Run the turn timers and close idle tables; `now` defaults to the core's clock."""
        return await draw_pictures(await self.tables.tick(now or self.clock()))

    async def handle(self, command: Command) -> list[Outgoing]:
        """Handle one slash command and return what to send."""
        return await self._answer(
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

    async def press(self, press: Press) -> list[Outgoing]:
        """Handle a button press; stale, foreign or forged buttons are refused."""

        async def act(who: Who) -> list[Outgoing]:
            live = self.tables.get(press.table_id)
            if live is None or live.platform != press.platform:
                raise Refusal("err.no_such_table")

            def change(session):  # type: ignore[no-untyped-def]
                if press.nonce != session.nonce:
                    raise Refusal("err.stale_button")
                return session.press(who, press.action, press.args)

            return await self.tables.run(live, who, change)

        return await self._answer(
            press,
            act,
            failure={"event": "press_failed", "table": press.table_id},
            fields={
                "platform": press.platform,
                "user": press.user_id,
                "table": press.table_id,
                "press": press.action.split(".")[0],
            },
        )

    async def _answer(
        self,
        source: Command | Press,
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
            who = await self._who(source)
            locale = who.locale
            out = await work(who)
        except Refusal as exc:
            outcome = log_outcome(exc.key)  # never a reason that tells the player's cards
            out = [self._error(locale, source.user_id, exc)]
        except Exception:  # state is restored by the table service; the player still gets an answer
            log.exception(kv(**failure))
            outcome = "internal"
            out = [self._error(locale, source.user_id, Refusal("err.internal"))]
        log.info(kv(**fields, outcome=outcome))
        return await draw_pictures(out)

    # --- players --------------------------------------------------------------------------------

    async def locale_of(self, platform: str, user_id: str) -> str | None:
        """The language this user chose with `/lang` (`tr` or `en`), or None when they chose none,
        are not a player yet, or the store is missing or unavailable. Read only: it never creates
        a player or writes anything. Adapters use it for their own texts, so that every text
        follows the same rule: `/lang` choice, else platform language, else table or default."""
        if self.store is None:
            return None
        key = (platform, str(user_id))
        if key in self._locales:
            return self._locales[key]
        try:
            player = await self.store.find_player(*key)
        except StorageError as exc:  # a language is not worth failing a reply over; not cached
            log.warning(kv(event="locale_lookup_failed", error=type(exc).__name__))
            return None
        locale = normalize_locale(player.locale if player is not None else None)
        self._locales[key] = locale
        return locale

    def _error(self, locale: str, user_id: str, exc: Refusal) -> Outgoing:
        key = exc.key
        if key.startswith("illegal.") and not has(key):
            key = "err.illegal"
        return error(locale, user_id, key, **refusal_params(locale, exc.params))

    async def _record(self, platform: str, user_id: str, name: str) -> PlayerRecord:
        cached = self._players.get((platform, user_id))
        if cached is None or cached.name != name:
            cached = await self.store.player(platform, user_id, name)
            self._players[(platform, user_id)] = cached
        if cached.id not in self._granted:
            await self.store.transfer(
                HOUSE,
                wallet(cached.id),
                self.config.starting_grant,
                "starting grant",
                idempotency_key=f"grant:{cached.id}",
            )
            self._granted.add(cached.id)
        return cached

    async def _who(self, source: Command | Press) -> Who:
        if self.store is None:
            locale = normalize_locale(source.locale) or self.config.default_locale
            return Who(0, source.user_id, source.user_name, locale, source.is_moderator)
        record = await self._record(source.platform, source.user_id, source.user_name)
        locale = record.locale or normalize_locale(source.locale) or self.config.default_locale
        return Who(record.id, source.user_id, record.name, locale, source.is_moderator)

    async def _bot(self, live: LiveTable, locale: str) -> Who:
        """A computer player not yet seated at this table."""
        seated = {s.user_id for s in live.session.seats}
        number = next(n for n in range(1, 100) if f"bot-{n}" not in seated)
        record = await self._record(BOT_PLATFORM, f"bot-{number}", f"Bot {number}")
        balance = await self.store.balance(wallet(record.id))
        if balance < self.config.bot_bankroll // 2:  # computer players never run dry
            await self.store.transfer(
                HOUSE, wallet(record.id), self.config.bot_bankroll - balance, "computer bankroll"
            )
        return Who(record.id, record.user_id, record.name, locale)

    # --- dispatch -------------------------------------------------------------------------------

    async def _dispatch(self, command: Command, who: Who) -> list[Outgoing]:
        r = route(command.name, command.args)
        reply = self._reply(command, who)
        if r.group is None:
            raise Refusal("err.unknown_command", name=command.name)
        if r.group == "help":
            return [reply(msg("help.text"))]
        if self.store is None:
            raise Refusal("err.storage")
        if r.group == "lang":
            return await self._lang(who, r.args, command)
        if r.group in ("balance", "daily") and r.args:
            raise Refusal(f"err.{r.group}_usage")
        if r.group == "balance":
            chips = await self.store.balance(wallet(who.player_id))
            return [reply(msg("balance.text", name=who.name, chips=chips), private=True)]
        if r.group == "daily":
            return await self._daily(who, reply)
        if r.group == "leaderboard":
            return await self._leaderboard(r.args, reply, command.platform)
        if r.group == "verify":
            return await self._verify(r.args, reply)
        if r.group == "table":
            return await self._moderate(command, who, r.sub, r.args)
        return await self._game(command, who, r.group, r.sub, r.args)

    def _reply(self, command: Command, who: Who) -> Callable[..., Outgoing]:
        def reply(lines: Msg | list[Msg], private: bool = False) -> Outgoing:
            body = text(who.locale, lines if isinstance(lines, list) else [lines])
            if private:
                return Outgoing(OutKind.PRIVATE, body, user_id=command.user_id)
            return Outgoing(OutKind.PUBLIC, body, channel_id=command.channel_id)

        return reply

    async def _lang(self, who: Who, args: tuple[str, ...], command: Command) -> list[Outgoing]:
        if len(args) != 1:
            raise Refusal("err.lang_usage")
        locale = normalize_locale(args[0])
        if locale is None:
            raise Refusal("err.lang_usage")
        await self.store.set_locale(who.player_id, locale)
        self._players.pop((command.platform, command.user_id), None)
        self._locales[(command.platform, command.user_id)] = locale
        line = msg("lang.set")
        return [Outgoing(OutKind.PRIVATE, text(locale, [line]), user_id=command.user_id)]

    async def _daily(self, who: Who, reply: Callable[..., Outgoing]) -> list[Outgoing]:
        today = self.clock().date()
        granted = await self.store.daily_grant(who.player_id, self.config.daily_grant, today)
        if not granted:
            raise Refusal("err.daily_taken")
        chips = await self.store.balance(wallet(who.player_id))
        return [reply(msg("daily.ok", amount=self.config.daily_grant, chips=chips), private=True)]

    async def _leaderboard(
        self, args: tuple[str, ...], reply: Callable[..., Outgoing], platform: str
    ) -> list[Outgoing]:
        kind = BOARDS.get(args[0].lower(), None) if args else "chips"
        if kind is None or len(args) > 1:
            raise Refusal("err.board_usage")
        rows = await self.store.leaderboard(kind, limit=10, platform=platform)
        lines = [msg(f"board.title.{kind}")]
        lines += [
            msg("board.row", rank=i, name=name, value=value)
            for i, (name, value) in enumerate(rows, start=1)
        ]
        if not rows:
            lines.append(msg("board.empty"))
        return [reply(lines)]

    async def _verify(
        self, args: tuple[str, ...], reply: Callable[..., Outgoing]
    ) -> list[Outgoing]:
        if len(args) != 1:
            raise Refusal("err.verify_usage")
        hand_id = args[0].strip()
        record = await self.store.seed(hand_id)
        if record is None:
            raise Refusal("err.verify_unknown", hand=hand_id)
        if record.seed_hex is None:
            raise Refusal("err.verify_running", hand=hand_id)
        table = await self.store.get_table(record.table_id)
        info = table.snapshot.get("hands", {}).get(hand_id)
        kind = GAMES.get(table.game)
        lines = [msg("verify.head", hand=hand_id, hash=record.seed_hash, seed=record.seed_hex)]
        if kind is not None and info is not None:
            lines += kind.verify_lines(info, record.seed_hex, record.seed_hash)
        else:
            lines.append(msg("verify.no_deal"))
        return [reply(lines)]

    async def _moderate(
        self, command: Command, who: Who, sub: str | None, args: tuple[str, ...]
    ) -> list[Outgoing]:
        if sub is None:
            raise Refusal("err.table_usage")
        require_moderator(command)
        live = self._live(command)
        if sub == "reset":
            reason = " ".join(args) or "moderator reset"
            paid = await self.tables.reset(live, who, reason)
            names = {s.player_id: s.name for s in live.session.seats}
            lines = [msg("reset.done", moderator=who.name)]
            lines += [
                msg("reset.refund", name=names.get(pid, str(pid)), chips=chips)
                for pid, chips in sorted(paid.items())
                if chips
            ]
            return deliver(live.session, live.channel_id, [Note(lines)])
        if not args:
            raise Refusal("err.kick_usage")

        def kick(session):  # type: ignore[no-untyped-def]
            index = session.find_name(" ".join(args))
            if index is None:
                raise Refusal("err.no_such_player", name=" ".join(args))
            step = session.kick(index)
            step.action = {"kind": "kick", "seat": index, "moderator": who.player_id}
            return step

        return await self.tables.run(live, who, kick)

    async def _check_stakes(self, live: LiveTable) -> None:
        """Name the player who cannot cover the Okey stake (the commit would refuse anyway)."""
        stake = live.session.options["stake"]
        for seat in live.session.seats:
            if await self.store.balance(wallet(seat.player_id)) < stake:
                raise Refusal("err.stake_short", name=seat.name, stake=stake)

    def _live(self, command: Command) -> LiveTable:
        live = self.tables.in_channel(command.platform, command.channel_id)
        if live is None:
            raise Refusal("err.no_table")
        return live

    async def _game(
        self, command: Command, who: Who, group: str, sub: str | None, args: tuple[str, ...]
    ) -> list[Outgoing]:
        if sub is None:
            raise Refusal(f"err.{group}_usage")
        live = self.tables.in_channel(command.platform, command.channel_id)
        opener = "open" if group == "poker" else "start"
        if sub == opener and (live is None or not live.session.wants_action(who, sub)):
            session, first = open_session(group, args, who, self.config, self.clock())
            return await self.tables.open(command.platform, command.channel_id, who, session, first)
        if live is None:
            raise Refusal("err.no_table")
        if GAMES[live.game].group != group:
            raise Refusal("err.other_game", game=msg(f"game.{live.game}"))
        session = live.session
        if sub == "table":
            return [table_message(session, live.channel_id)]
        if sub == "rules":
            return deliver(session, live.channel_id, [Note(session.rules_lines())])
        if sub in ("hand", "rack", "arrange"):
            index = session.find(who.player_id)
            if index is None:
                raise Refusal("err.not_seated")
            lines = session.private_lines(index, sub, args)
            picture = session.private_sketch(index, sub, args)
            body = text(who.locale, lines)
            return [Outgoing(OutKind.PRIVATE, body, user_id=who.user_id, sketch=picture)]
        if sub == "back":
            return await self.tables.run(live, who, lambda s: s.back(who))
        if group == "okey" and sub == "begin":
            await self._check_stakes(live)
        if sub == "addbot":
            bot = await self._bot(live, session.locale)
            return await self.tables.run(live, who, lambda s: s.add_bot(bot, args))
        return await self.tables.run(live, who, lambda s: s.command(who, sub, args))


def _known_sub(command: Command) -> str:
    """The canonical sub-command for the log line; never a word the user typed freely (which
    could be a card)."""
    r = route(command.name, command.args)
    return r.sub or ""
