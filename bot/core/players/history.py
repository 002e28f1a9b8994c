"""`/history [game]` and `/stats [player] [game]`: a player's last hands and their statistics,
answered privately in the asker's language.

- `/history`: the asker's last 10 poker hands, Okey rounds and Okey matches (id, table, date,
  result: chips won or lost, penalty points); a game word (`turkish`, `acik`, `okey`, or `poker`
  for both poker games) narrows it.
- `/stats`: per game, what `storage.PlayerStats` adds up from the per-hand details the games
  write (`bot.core.table.stats`); with a player (a user id, `@name`, a Discord mention or a name
  on the same platform) that player's, else the asker's. With pictures on, a chart of the chip
  history over the last 100 hands or matches rides along.

Only the player's own results and public facts are shown: no card ever appears here.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bot.core.commands import GAME_FILTERS, lookup
from bot.core.config import CoreConfig
from bot.core.errors import Refusal
from bot.core.messages import Command, Outgoing, OutKind
from bot.core.names import candidates
from bot.core.registry import GAMES, group_specs
from bot.core.sketch import Sketch
from bot.core.table.deliver import text
from bot.core.table.pictures import style_for
from bot.core.table.records import signed
from bot.core.table.session import Msg, Who, msg
from bot.core.table.stats import CARRIED
from bot.render.pictures.chart import ChipChartScene, render_chip_chart

if TYPE_CHECKING:
    from storage import HistoryEntry, PlayerStats, Store

HISTORY_COMMANDS = ("history", "stats")
HISTORY_LIMIT = 10
CHART_HANDS = 100
_MENTION = re.compile(r"^<@!?(\d+)>$")  # a Discord user mention


def games_of(word: str | None) -> tuple[str, ...] | None:
    """The games a game word names (`poker`: both poker games), or None when it is not one."""
    found = lookup(GAME_FILTERS, word)
    if found is None:
        return None
    if found in GAMES:
        return (found,)
    return tuple(spec.name for spec in group_specs(found)) or (found,)  # `poker`: both


class HistoryCommands:
    """Answers `/history` and `/stats` from the store's read queries."""

    def __init__(self, store: Store, config: CoreConfig) -> None:
        self.store = store
        self.config = config

    async def command(
        self, command: Command, who: Who, group: str, args: tuple[str, ...]
    ) -> list[Outgoing]:
        """Answer `group` (`history` or `stats`) with `args` after the command word."""
        if group == "history":
            return [await self._history(who, args)]
        return [await self._stats(command, who, args)]

    # --- /history ---------------------------------------------------------------------------

    async def _history(self, who: Who, args: tuple[str, ...]) -> Outgoing:
        games = None
        if args:
            games = games_of(args[0])
            if games is None or len(args) > 1:
                raise Refusal("err.history_usage")
        entries = await self.store.history(who.player_id, games, HISTORY_LIMIT)
        lines = [msg("history.title", name=who.name)]
        lines += [_entry_line(e) for e in entries]
        if not entries:
            lines.append(msg("history.empty"))
        return Outgoing(OutKind.PRIVATE, text(who.locale, lines), user_id=who.user_id)

    # --- /stats -----------------------------------------------------------------------------

    async def _stats(self, command: Command, who: Who, args: tuple[str, ...]) -> Outgoing:
        words = list(args)
        games: tuple[str, ...] | None = None
        if words and games_of(words[-1]) is not None:
            games = games_of(words.pop())
        player_id, name = who.player_id, who.name
        if words:
            player_id, name = await self._player(command.platform, " ".join(words))
        lines: list[Msg] = [msg("stats.title", name=name)]
        for game in games or tuple(GAMES):
            stats = await self.store.player_stats(player_id, game)
            if stats.hands or stats.matches or games is not None:
                lines += _stats_lines(stats)
        if len(lines) == 1:
            lines.append(msg("stats.empty"))
        sketch = None
        if self.config.pictures:
            deltas = await self.store.chip_history(player_id, games, CHART_HANDS)
            title = f"{name} — " + ("/".join(games) if games else "")
            scene = ChipChartScene(title.rstrip(" —"), tuple(deltas))
            sketch = Sketch(render_chip_chart, scene, style_for(who.locale))
        body = text(who.locale, lines)
        return Outgoing(OutKind.PRIVATE, body, user_id=who.user_id, sketch=sketch)

    async def _player(self, platform: str, word: str) -> tuple[int, str]:
        """The player a `/stats` argument names on this platform: id and name."""
        wanted = word.strip()
        mention = _MENTION.match(wanted)
        wanted = mention.group(1) if mention else wanted.lstrip("@")
        if not wanted:
            raise Refusal("err.stats_usage")
        found = await self.store.find_players(platform, wanted[:100])
        if not found:
            raise Refusal("err.stats_no_player", name=wanted[:40])
        if len(found) > 1 and found[0].user_id != wanted:  # several players of that name
            listed = candidates([(p.name, p.user_id) for p in found])
            raise Refusal("err.ambiguous_name", name=wanted[:40], candidates=listed)
        return found[0].id, found[0].name


def _entry_line(e: HistoryEntry) -> Msg:
    """One row of `/history` (`_row`), marked when the computer was playing for the player as
    the hand or round ended (a kept seat: `bot.core.table.kept`)."""
    row = _row(e)
    return msg("history.kept", line=row) if e.detail.get("kept") else row


def _row(e: HistoryEntry) -> Msg:
    """A carried pot, else the game's own row (`GameSpec.history_line`), else a hand's
    chips."""
    when = e.at.strftime("%Y-%m-%d %H:%M")
    common = {"hand": e.hand_id or "?", "table": e.table_id, "date": when}
    game = msg(f"game.{e.game}")
    if e.detail.get("kind") == CARRIED:  # a carried pot taken when the table ended
        return msg("history.carried", game=game, chips=signed(e.chips_delta), **common)
    spec = GAMES.get(e.game)
    if spec is not None and spec.history_line is not None:
        return spec.history_line(e, common)
    return msg("history.hand", game=game, chips=signed(e.chips_delta), **common)


def _stats_lines(s: PlayerStats) -> list[Msg]:
    """The `/stats` section of one game (`GameSpec.stats_lines`)."""
    game = msg(f"game.{s.game}")
    money = msg("stats.chips", won=s.chips_won, lost=s.chips_lost, net=signed(s.net))
    spec = GAMES.get(s.game)
    return [] if spec is None or spec.stats_lines is None else spec.stats_lines(s, game, money)
