"""Players and their accounts outside the tables: who sends a command or press (the player record,
the starting grant, the language, the tile style), computer players' bankrolls, and the account
commands `/balance`, `/daily`, `/leaderboard`, `/verify`, `/lang` and `/tiles`.

Balance, daily, lang and tiles answer privately to the asker; the leaderboard is public. `/verify`
of a hand is `bot.core.players.verify`'s (private until the hand's seed may be shown, then public);
of a tournament stage, public. Refusals are raised as `Refusal` for `Core` to turn into an
error to the sender.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, cast

from bot.caches import Lru
from bot.core.commands import BOARDS, SCOPES, TILE_STYLES, lookup
from bot.core.config import CoreConfig
from bot.core.errors import Refusal
from bot.core.i18n import normalize_locale
from bot.core.messages import Command, Outgoing, OutKind, Press, Sender
from bot.core.players.proofs import Reveal
from bot.core.players.verify import HandVerifier
from bot.core.table.deliver import text
from bot.core.table.session import COMPUTER_PREFIX, Msg, Who, msg
from bot.core.tournament.verify import stage_id, verify_stage
from bot.logs import kv
from storage import HOUSE, MIN_OKEY101_ROUNDS, StorageError, wallet

if TYPE_CHECKING:
    from storage import PlayerRecord, Store
    from storage.boards import Board

log = logging.getLogger("bot.core")

BOT_PLATFORM = "bot"
MAX_CACHED = 20_000  # players whose record, language and grant are kept in memory (LRU)
ACCOUNT_COMMANDS = ("balance", "daily", "leaderboard", "verify", "lang", "tiles")


class Accounts:
    """The player records (cached), their language choice and the account commands."""

    def __init__(self, store: Store, config: CoreConfig, clock: Callable[[], datetime]):
        self.store = store
        self.config = config
        self.clock = clock
        # bounded (the least recent forgotten first; a forgotten player is read again)
        self._players: Lru[tuple[str, str], PlayerRecord] = Lru(MAX_CACHED)
        # (platform, user id) -> their `/lang` choice or None; only `/lang` stores a locale
        self._locales: Lru[tuple[str, str], str | None] = Lru(MAX_CACHED)
        # (platform, user id) -> their `/tiles symbols` choice, as last read or set here
        self._symbols: Lru[tuple[str, str], bool] = Lru(MAX_CACHED)
        # players whose starting grant was made (the grant's key makes a repeat a no-op)
        self._granted: Lru[int, bool] = Lru(MAX_CACHED)
        reveal = Reveal(store, config.seed_reveal_hours, clock)
        self.verifier = HandVerifier(store, reveal)

    # --- players --------------------------------------------------------------------------------

    async def locale_of(self, platform: str, user_id: str) -> str | None:
        """The language this user chose with `/lang` (`tr` or `en`), or None when they chose none,
        are not a player yet, or the store is unavailable. Read only: it never creates a
        player or writes anything."""
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

    async def tile_symbols_of(self, platform: str, user_id: str) -> bool:
        """Whether this user chose tiles with a shape per colour (`/tiles symbols`); False when
        they chose colours or nothing, are not a player yet, or the store is unavailable. Read
        only, like `locale_of`."""
        if self.store is None:
            return False
        key = (platform, str(user_id))
        if key in self._symbols:
            return self._symbols[key]
        try:
            player = await self.store.find_player(*key)
        except StorageError as exc:  # a tile style is not worth failing a page over; not cached
            log.warning(kv(event="tiles_lookup_failed", error=type(exc).__name__))
            return False
        symbols = player is not None and player.tile_symbols
        self._symbols[key] = symbols
        return symbols

    async def record(self, platform: str, user_id: str, name: str) -> PlayerRecord:
        """The player's record (created the first time, with the starting grant once; a computer
        player's chips come from its bankroll instead)."""
        cached = self._players.get((platform, user_id))
        if cached is None or cached.name != name:
            cached = await self.store.player(platform, user_id, name)
            self._players[(platform, user_id)] = cached
        if cached.id not in self._granted and platform != BOT_PLATFORM:  # (`computer`: bankroll)
            await self.store.transfer(
                HOUSE,
                wallet(cached.id),
                self.config.starting_grant,
                "starting grant",
                idempotency_key=f"grant:{cached.id}",
            )
            self._granted[cached.id] = True
        return cached

    async def who(self, source: Command | Press | Sender) -> Who:
        """The sender of a command or press, in their language (`/lang` choice, else the
        platform's, else the default)."""
        record = await self.record(source.platform, source.user_id, source.user_name)
        locale = record.locale or normalize_locale(source.locale) or self.config.default_locale
        return Who(
            record.id,
            source.user_id,
            record.name,
            locale,
            source.is_moderator,
            symbols=record.tile_symbols,
        )

    async def computer(self, seated: set[str], locale: str) -> Who:
        """A computer player whose user id is not in `seated`, its wallet brought back to its
        bankroll through the house's `COMPUTERS` account: topped up when below half of it,
        what it won beyond twice the bankroll taken back (so that account's balance shows what
        people won from, or lost to, the computer players; `python -m storage audit`)."""
        number = next(n for n in range(1, 100) if f"{COMPUTER_PREFIX}{n}" not in seated)
        record = await self.record(BOT_PLATFORM, f"{COMPUTER_PREFIX}{number}", f"Bot {number}")
        # settled inside one storage transaction: two addbots at once (two tables, or two
        # processes on one database) must not both act on the same balance read
        await self.store.settle_bankroll(record.id, self.config.bot_bankroll)
        return Who(record.id, record.user_id, record.name, locale)

    # --- account commands -----------------------------------------------------------------------

    async def command(
        self, command: Command, who: Who, group: str, args: tuple[str, ...]
    ) -> list[Outgoing]:
        """Answer `command`, routed to `group`, one of `ACCOUNT_COMMANDS` (`args` after it)."""
        if group in ("balance", "daily") and args:
            raise Refusal(f"err.{group}_usage")
        if group == "lang":
            return await self._lang(command, who, args)
        if group == "tiles":
            return await self._tiles(command, who, args)
        if group == "balance":
            chips = await self.store.balance(wallet(who.player_id))
            return [_private(command, who, [msg("balance.text", name=who.name, chips=chips)])]
        if group == "daily":
            return [_private(command, who, await self._daily(who))]
        if group == "leaderboard":
            return [_public(command, who, await self._leaderboard(args, command))]
        if len(args) == 1 and stage_id(args[0].strip()) is None:  # a hand: bot.core.players.verify
            return await self.verifier.command(command, who, args[0].strip())
        return [_public(command, who, await self._verify(args, command.platform))]

    async def _lang(self, command: Command, who: Who, args: tuple[str, ...]) -> list[Outgoing]:
        if len(args) != 1:
            raise Refusal("err.lang_usage")
        locale = normalize_locale(args[0])
        if locale is None:
            raise Refusal("err.lang_usage")
        await self.store.set_locale(who.player_id, locale)
        self._players.pop((command.platform, command.user_id))
        self._locales[(command.platform, command.user_id)] = locale
        line = msg("lang.set")
        return [Outgoing(OutKind.PRIVATE, text(locale, [line]), user_id=command.user_id)]

    async def _tiles(self, command: Command, who: Who, args: tuple[str, ...]) -> list[Outgoing]:
        """`/tiles symbols|colours` (`/taşlar simge|renk`): the asker's own tile pictures (and
        web page) with a shape per colour as well, or colours only. Anything else is refused
        with the usage, nothing stored."""
        choice = lookup(TILE_STYLES, args[0]) if len(args) == 1 else None
        if choice is None:
            raise Refusal("err.tiles_usage")
        symbols = choice == "symbols"
        await self.store.set_tile_symbols(who.player_id, symbols)
        self._players.pop((command.platform, command.user_id))
        self._symbols[(command.platform, command.user_id)] = symbols
        return [_private(command, who, [msg(f"tiles.{choice}")])]

    async def _daily(self, who: Who) -> list[Msg]:
        today = self.clock().date()
        granted = await self.store.daily_grant(who.player_id, self.config.daily_grant, today)
        if not granted:
            raise Refusal("err.daily_taken")
        chips = await self.store.balance(wallet(who.player_id))
        return [msg("daily.ok", amount=self.config.daily_grant, chips=chips)]

    async def _leaderboard(self, args: tuple[str, ...], command: Command) -> list[Msg]:
        """`/leaderboard [chips|okey|101|wins] [global|community]`, in any order: the asker's
        community by default, everyone on the platform with `global` or outside a community."""
        kinds = [lookup(BOARDS, word) for word in args if lookup(BOARDS, word)]
        scopes = [lookup(SCOPES, word) for word in args if lookup(SCOPES, word)]
        if len(kinds) + len(scopes) != len(args) or len(kinds) > 1 or len(scopes) > 1:
            raise Refusal("err.board_usage")
        kind = kinds[0] if kinds else "chips"
        scope = scopes[0] if scopes else "community"
        community = command.community if scope == "community" else None
        if scope == "community" and community is None:
            scope = "none"  # a direct message belongs to no community: everyone's board
        lines = [msg(f"board.title.{kind}"), msg(f"board.scope.{scope}")]
        if kind == "okey101":
            return lines + await self._okey101_rows(command.platform, community)
        rows = await self.store.leaderboard(
            cast("Board", kind), limit=10, platform=command.platform, community=community
        )
        lines += [
            msg("board.row", rank=i, name=name, value=value)
            for i, (name, value) in enumerate(rows, start=1)
        ]
        if not rows:
            lines.append(msg("board.empty"))
        return lines

    async def _okey101_rows(self, platform: str, community: str | None) -> list[Msg]:
        """The 101 board's rows: the average score per round (one decimal, as `/stats` shows it)
        and the rounds, of players with at least `MIN_OKEY101_ROUNDS` rounds."""
        rows = await self.store.okey101_board(10, platform=platform, community=community)
        lines = [
            msg("board.row101", rank=i, name=s.name, average=f"{s.average:.1f}", rounds=s.rounds)
            for i, s in enumerate(rows, start=1)
        ]
        return lines or [msg("board.empty101", rounds=MIN_OKEY101_ROUNDS)]

    async def _verify(self, args: tuple[str, ...], platform: str) -> list[Msg]:
        if len(args) != 1:
            raise Refusal("err.verify_usage")
        hand_id = args[0].strip()
        if stage_id(hand_id) is not None:  # `t<id>-s<stage>`: a tournament stage's seating
            return await verify_stage(self.store, platform, hand_id)
        raise Refusal("err.verify_usage")


def _private(command: Command, who: Who, lines: list[Msg]) -> Outgoing:
    """An answer only the asker sees, in their language."""
    return Outgoing(OutKind.PRIVATE, text(who.locale, lines), user_id=command.user_id)


def _public(command: Command, who: Who, lines: list[Msg]) -> Outgoing:
    """An answer to the channel, in the asker's language."""
    return Outgoing(OutKind.PUBLIC, text(who.locale, lines), channel_id=command.channel_id)
