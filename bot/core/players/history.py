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
from bot.core.sketch import Sketch
from bot.core.table.deliver import text
from bot.core.table.pictures import style_for
from bot.core.table.session import Msg, Who, msg
from bot.core.table.stats import CARRIED
from bot.render.pictures.chart import ChipChartScene, render_chip_chart

if TYPE_CHECKING:
    from storage import HistoryEntry, PlayerStats, Store

HISTORY_COMMANDS = ("history", "stats")
HISTORY_LIMIT = 10
CHART_HANDS = 100
ALL_GAMES = ("turkish", "acik", "okey", "okey101")
_MENTION = re.compile(r"^<@!?(\d+)>$")  # a Discord user mention


def games_of(word: str | None) -> tuple[str, ...] | None:
    """The games a game word names (`poker`: both poker games), or None when it is not one."""
    found = lookup(GAME_FILTERS, word)
    if found is None:
        return None
    return ("turkish", "acik") if found == "poker" else (found,)


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
        for game in games or ALL_GAMES:
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


def _signed(chips: int) -> str:
    return f"+{chips}" if chips > 0 else str(chips)


def _entry_line(e: HistoryEntry) -> Msg:
    """One row of `/history`."""
    when = e.at.strftime("%Y-%m-%d %H:%M")
    common = {"hand": e.hand_id or "?", "table": e.table_id, "date": when}
    if e.detail.get("kind") == CARRIED:  # a carried pot taken when the table ended
        game = msg(f"game.{e.game}")
        return msg("history.carried", game=game, chips=_signed(e.chips_delta), **common)
    if e.game == "okey101" and e.detail.get("kind") == "round":
        key = "history.round101_won" if e.detail.get("won") else "history.round101"
        return msg(key, penalty=e.detail.get("penalty", 0), **common)
    if e.game == "okey101":
        return msg(
            "history.match101",
            chips=_signed(e.chips_delta),
            points=e.detail.get("points", 0),
            **common,
        )
    if e.game == "okey" and e.detail.get("kind") == "round":
        key = "history.round_won" if e.detail.get("won") else "history.round"
        return msg(key, penalty=e.detail.get("penalty", 0), **common)
    if e.game == "okey":
        return msg(
            "history.match",
            chips=_signed(e.chips_delta),
            points=e.detail.get("points", 0),
            **common,
        )
    return msg("history.hand", game=msg(f"game.{e.game}"), chips=_signed(e.chips_delta), **common)


def _pct(part: int, whole: int) -> int:
    return round(100 * part / whole) if whole else 0


def _stats_lines(s: PlayerStats) -> list[Msg]:
    """The `/stats` section of one game."""
    game = msg(f"game.{s.game}")
    money = msg("stats.chips", won=s.chips_won, lost=s.chips_lost, net=_signed(s.net))
    if s.game == "okey101":
        return _okey101_lines(s, game, money)
    if s.game == "okey":
        average = f"{s.penalty / s.rounds:.1f}" if s.rounds else "0"
        return [
            msg("stats.okey_head", game=game, matches=s.matches, rounds=s.rounds),
            money,
            msg("stats.okey_rounds", won=s.rounds_won, pct=_pct(s.rounds_won, s.rounds)),
            msg("stats.okey_finishes", okey=s.okey_discards, pairs=s.pairs),
            msg("stats.okey_penalty", average=average, shows=s.indicators),
        ]
    lines = [
        msg("stats.head", game=game, hands=s.hands, won=s.won, pct=_pct(s.won, s.hands)),
        money,
        msg("stats.pots", pot=s.biggest_pot, showdowns=s.showdowns, won=s.showdowns_won),
    ]
    if s.game == "turkish":
        drawn = f"{s.cards_drawn / s.went_to_draw:.1f}" if s.went_to_draw else "0"
        lines.append(
            msg(
                "stats.turkish",
                opened=_pct(s.opened, s.hands),
                passed=_pct(s.passed, s.hands),
                draw=_pct(s.went_to_draw, s.hands),
                cards=drawn,
            )
        )
        lines.append(
            msg(
                "stats.folds_turkish",
                first=_pct(s.folded.get(1, 0), s.hands),
                second=_pct(s.folded.get(2, 0), s.hands),
            )
        )
    else:
        folds = ", ".join(
            f"{street}: {_pct(s.folded.get(street, 0), s.hands)}%" for street in (1, 2, 3, 4)
        )
        lines.append(msg("stats.folds_acik", folds=folds))
    return lines


def _okey101_lines(s: PlayerStats, game: Msg, money: Msg) -> list[Msg]:
    """The `/stats` section of 101 Okey: openings by melds and by pairs, finishes, the average
    round score and the +101 discards."""
    average = f"{s.penalty / s.rounds:.1f}" if s.rounds else "0"
    closed = s.rounds - s.series_openings - s.pair_openings
    return [
        msg("stats.okey101_head", game=game, matches=s.matches, rounds=s.rounds),
        money,
        msg(
            "stats.okey101_openings",
            series=s.series_openings,
            pairs=s.pair_openings,
            closed=max(closed, 0),
        ),
        msg(
            "stats.okey101_finishes",
            won=s.rounds_won,
            pct=_pct(s.rounds_won, s.rounds),
            okey=s.okey_discards,
            by_hand=s.by_hand,
        ),
        msg("stats.okey101_penalty", average=average, discards=s.discard_penalties),
    ]
