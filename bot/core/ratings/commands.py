"""`/rating [player] [game]` (`/puan`) and the rating board (`/leaderboard rating [game]
[global]`, `/sıralama puan`): conservative ratings (`mu - 3 sigma`, shown as
`storage.rating_model.shown`) with the number of rated games, marked provisional (TR
"geçici") under `PROVISIONAL_GAMES`.

`/rating` answers privately: for each game (or the one named), the player's rating in the
asker's community and over every community. The board is the community's, or with `global`
(or outside a community) everyone's on the platform. An unknown player or game is refused with
the usage, nothing read or written beyond the look-up.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bot.core.commands import BOARDS, SCOPES, lookup
from bot.core.errors import Refusal
from bot.core.messages import Command, Outgoing, OutKind
from bot.core.names import candidates
from bot.core.players.history import games_of
from bot.core.registry import GAMES
from bot.core.table.deliver import text
from bot.core.table.session import Msg, Who, msg

if TYPE_CHECKING:
    from storage import RatingRecord, Store

RATING_COMMANDS = ("rating",)
BOARD_ROWS = 10  # rows of a one-game board
SUMMARY_ROWS = 3  # rows per game when the board names no game
_MENTION = re.compile(r"^<@!?(\d+)>$")  # a Discord user mention


def rating_value(record: RatingRecord) -> Msg:
    """The shown number with its games, provisional marked: `1123 (14 games)`."""
    key = "rating.value_provisional" if record.provisional else "rating.value"
    return msg(key, rating=record.shown, games=record.games)


def rating_board_args(args: tuple[str, ...]) -> tuple[str, ...] | None:
    """The words of `/leaderboard ...` after its `rating` word, or None when it names none."""
    if not any(lookup(BOARDS, word) == "rating" for word in args):
        return None
    return tuple(word for word in args if lookup(BOARDS, word) != "rating")


class RatingCommands:
    """Answers `/rating` and the rating board from the store's rating reads."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def command(
        self, command: Command, who: Who, group: str, args: tuple[str, ...]
    ) -> list[Outgoing]:
        """Answer `/rating [player] [game]` privately in the asker's language."""
        words = list(args)
        games: tuple[str, ...] = tuple(GAMES)
        if words and games_of(words[-1]) is not None:
            games = games_of(words.pop()) or games
        player_id, name = who.player_id, who.name
        if words:
            player_id, name = await self._player(command.platform, " ".join(words))
        lines: list[Msg] = [msg("rating.title", name=name)]
        for game in games:
            here = None
            if command.community is not None:
                here = await self.store.rating(player_id, game, command.community)
            overall = await self.store.rating(player_id, game, None)
            if overall is None and len(games) > 1:
                continue
            lines.append(
                msg(
                    "rating.line",
                    game=msg(f"game.{game}"),
                    here=rating_value(here) if here is not None else msg("rating.none"),
                    overall=rating_value(overall) if overall is not None else msg("rating.none"),
                )
            )
        if len(lines) == 1:
            lines.append(msg("rating.empty"))
        return [Outgoing(OutKind.PRIVATE, text(who.locale, lines), user_id=who.user_id)]

    async def board(self, args: tuple[str, ...], command: Command) -> list[Msg]:
        """The lines of `/leaderboard rating [game] [global|community]` (any order)."""
        games = [found for word in args if (found := games_of(word)) is not None]
        scopes = [lookup(SCOPES, word) for word in args if lookup(SCOPES, word)]
        if len(games) + len(scopes) != len(args) or len(games) > 1 or len(scopes) > 1:
            raise Refusal("err.rating_board_usage")
        chosen = games[0] if games else tuple(GAMES)
        scope = scopes[0] if scopes else "community"
        community = command.community if scope == "community" else None
        if scope == "community" and community is None:
            scope = "none"  # a direct message belongs to no community: everyone's board
        limit = BOARD_ROWS if len(chosen) == 1 else SUMMARY_ROWS
        lines = [msg("board.title.rating"), msg(f"board.scope.{scope}")]
        for game in chosen:
            rows = await self.store.rating_board(
                game, community, limit=limit, platform=command.platform
            )
            lines.append(msg("board.rating_game", game=msg(f"game.{game}")))
            lines += [
                msg("board.rating_row", rank=i, name=r.name, value=rating_value(r))
                for i, r in enumerate(rows, start=1)
            ]
            if not rows:
                lines.append(msg("board.empty"))
        return lines

    async def _player(self, platform: str, word: str) -> tuple[int, str]:
        """The player the words name on this platform (a user id, `@name`, a mention or a
        name): refused when nobody, or several people, answer to it."""
        wanted = word.strip()
        mention = _MENTION.match(wanted)
        wanted = mention.group(1) if mention else wanted.lstrip("@")
        if not wanted:
            raise Refusal("err.rating_usage")
        found = await self.store.find_players(platform, wanted[:100])
        if not found:
            raise Refusal("err.rating_unknown", name=wanted[:40])
        if len(found) > 1 and found[0].user_id != wanted:
            listed = candidates([(p.name, p.user_id) for p in found])
            raise Refusal("err.ambiguous_name", name=wanted[:40], candidates=listed)
        return found[0].id, found[0].name
