"""An Okey table's state machine: a match of 1 or 3 rounds (or classic) on the tile table both
Okey games share (`bot.core.okey.tile_session`: opening, seats, stakes, rounds dealt, events as
notes, the computer's turn, the payout, a tournament's standing); this module supplies the
classic game's hooks (its options and scoring preset, the computer's move, whose rack comes
with the turn, the finish picture, a round's public end). The words a player types are read in `bot.core.okey.words`; the lines, buttons and pictures are built in
`bot.core.okey.messages` (both mixed into `OkeySession`). Tiles a player holds only ever go to
that player.

Chips: at `begin` each player's stake moves wallet -> escrow; when the match ends the payout
(75% to the lowest total, 25% shared by opponents under the threshold) moves escrow -> wallets.
The escrow holds `stake x players` during a match and nothing between matches.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.core.commands import fold
from bot.core.config import CoreConfig
from bot.core.errors import Refusal
from bot.core.moves import Move
from bot.core.okey.face import OkeyMessages
from bot.core.okey.tile_opening import Opening
from bot.core.okey.tile_session import TileSession
from bot.core.okey.words import OKEY_SUBS, OkeyWords
from bot.core.sketch import Sketch
from bot.core.table import ai, last, pictures
from bot.core.table import stats as handstats
from bot.core.table.session import Msg, Step, Who
from games.base import Action
from games.okey import OkeyMatch, OkeyRound
from storage import Transfer, escrow, wallet

MOVE_KINDS = ("take", "discard", "finish", "show_indicator")  # the engine's move kinds

# public events announced in a message of their own (a round's result, the match's end); every
# other public event is a move and goes into the table message's move log
ANNOUNCED_EVENTS = (
    "round_started",
    "finished",
    "stock_exhausted",
    "match_totals",
    "match_over",
)


def opening_defaults(config: CoreConfig) -> dict[str, Any]:
    """A new table plays `CoreConfig.okey_rounds` rounds scored by the penalty preset unless
    told otherwise (set here, not left to the house defaults, so a game built on this one
    under another name opens alike)."""
    return {"rounds": config.okey_rounds, "preset": "penalty"}


def preset_word(word: str, options: dict[str, Any]) -> bool:
    """`/okey start ... classic|penalty` (`klasik|ceza`): the match's scoring preset."""
    if fold(word) in ("classic", "klasik"):
        options["preset"] = "classic"
    elif fold(word) in ("penalty", "ceza"):
        options["preset"] = "penalty"
    else:
        return False
    return True


def tournament_preset(settings: Mapping[str, Any]) -> dict[str, Any]:
    """A tournament's matches are scored by its `preset` (penalty unless it says)."""
    return {"preset": settings.get("preset", "penalty")}


class OkeySession(OkeyWords, OkeyMessages, TileSession[OkeyMatch, OkeyRound]):
    """One Okey table."""

    game = "okey"
    match_type = OkeyMatch
    penalty_board = True

    opening = Opening(
        "rounds",
        (1, 3),
        "err.okey_start_usage",
        "err.okey_rounds",
        defaults=opening_defaults,
        word=preset_word,
        settings=tournament_preset,
    )
    announced_events = ANNOUNCED_EVENTS

    # --- commands -------------------------------------------------------------------------------

    def _typed_move(self, who: Who, sub: str, args: tuple[str, ...]) -> Step:
        """A move typed as a command (`take`, `discard`, `finish`, `show`)."""
        if sub in OKEY_SUBS:
            return self._move(who, self._parse(sub, args))
        raise Refusal("err.okey_usage")

    def act(self, who: Who, move: Move) -> Step:
        """A typed move: the engine's `Action` (take, discard, finish, show the indicator),
        checked by the engine."""
        if not isinstance(move, Action) or move.kind not in MOVE_KINDS:
            raise Refusal("err.bad_button")
        return self._move(who, move)

    # --- rounds ---------------------------------------------------------------------------------

    def _round_details(self, public: dict[str, Any], match_id: str) -> list[dict[str, Any]]:
        """Each player's result detail of the round that ended (`bot.core.table.stats`)."""
        return handstats.okey_round_details(public, match_id)

    def _last_round(self, public: dict[str, Any]) -> dict[str, Any]:
        """The ended round's public end for the live table (`bot.core.table.last`), from the
        round's public view: each player's penalty and match total, the finisher's laid-down
        melds and their rack laid out with the finishing discard last (never another rack)."""
        result = public.get("result") or {}
        players = self._last_players(public)
        tiles = {"indicator": public["indicator"], "okey": public["okey"]}
        if result.get("reason") != "finished":
            return {"players": players, **tiles}
        melds = [list(m) for m in result["melds"]]
        return {
            "players": players,
            "melds": melds,
            "rack": list(last.packed([*melds, [result["discard"]]])),
            **tiles,
        }

    def _ranked_points(self) -> list[int]:
        """The points charged (lower is better under both presets: classic's points left are
        its start minus these)."""
        assert self.match is not None
        return self.match.charged

    def _finish_picture(self) -> Sketch | None:
        """The finished round's picture: the finisher's melds (public once the round is over)."""
        assert self.match is not None and self.match.round is not None
        return pictures.okey_finish(self.match.round.view(None), self.locale)

    def _turn_prompt(self, step: Step, drawn: dict[int, Msg]) -> None:
        """The rack with its tile buttons, or the button to show the indicator (`_turn_note`)."""
        self._turn_note(step, drawn)

    def _turn_of(self, index: int) -> bool:
        """True when engine seat `index` must discard now (their rack comes with buttons)."""
        game = self.round
        return game is not None and game.to_act() == index and game.phase == "discard"

    # --- moves ----------------------------------------------------------------------------------

    def _computer_action(self, game: OkeyRound, index: int, level: str) -> Action:
        """The computer draws from the stock (unless it is the starter's first turn), then
        discards or finishes (`bot.core.table.ai.okey_move`)."""
        return ai.okey_move(game, index, level)

    # --- money ----------------------------------------------------------------------------------

    def abandon(self, step: Step, key: str) -> None:
        """Close between rounds or matches (`abandoned`): a match cut short gives every stake
        back (as a moderator's reset does); the channel is told why."""
        stake = self.options["stake"]
        for pid in self.staked if self.running() and stake else ():
            step.transfers.append(
                Transfer(escrow(self.table_id), wallet(pid), stake, "table closed: refund")
            )
        self.match, self.staked = None, []
        step.status = "closed"
        step.announce(key)
