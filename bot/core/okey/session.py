"""An Okey table's state machine: a match of 1 or 3 rounds (or classic) on the tile table both
Okey games share (`bot.core.okey.tile_session`: seats, stakes, rounds dealt, the payout, a
tournament's standing), moves applied to the match and its events sent on as notes. The words a player
types are read in `bot.core.okey.words`; the lines, buttons and pictures are built in
`bot.core.okey.messages` (both mixed into `OkeySession`). Tiles a player holds only ever go to
that player.

Chips: at `begin` each player's stake moves wallet -> escrow; when the match ends the payout
(75% to the lowest total, 25% shared by opponents under the threshold) moves escrow -> wallets.
The escrow holds `stake x players` during a match and nothing between matches.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.core.commands import fold, parse_int
from bot.core.config import CoreConfig
from bot.core.errors import Refusal
from bot.core.okey.messages import OkeyMessages
from bot.core.okey.tile_session import TileSession
from bot.core.okey.words import OKEY_SUBS, OkeyWords
from bot.core.table import ai, house, last, pictures
from bot.core.table import stats as handstats
from bot.core.table.session import Msg, Note, Seat, Step, Who, msg
from games.base import Action, Event
from games.okey import OkeyMatch, OkeyRound
from storage import Transfer, escrow, wallet

# public events announced in a message of their own (a round's result, the match's end); every
# other public event is a move and goes into the table message's move log
ANNOUNCED_EVENTS = (
    "round_started",
    "finished",
    "stock_exhausted",
    "match_totals",
    "match_over",
)


class OkeySession(OkeyWords, OkeyMessages, TileSession[OkeyMatch, OkeyRound]):
    """One Okey table."""

    game = "okey"
    match_type = OkeyMatch
    penalty_board = True

    @classmethod
    def create(
        cls, locale: str, args: tuple[str, ...], config: CoreConfig, now: datetime
    ) -> OkeySession:
        """A new table from `/okey start [rounds] [stake] [classic] [name=value ...]`; the
        `name=value` words are house rules (`bot.core.table.house`) and win over the positional
        `rounds` and `classic|penalty`."""
        rounds, stake, preset = config.okey_rounds, config.okey_stake, "penalty"
        chosen = house.stored(house.parse("okey", [w for w in args if house.is_setting(w)]))
        numbers = []
        for word in args:
            if house.is_setting(word):
                continue
            number = parse_int(word)
            if number is not None:
                numbers.append(number)
            elif fold(word) in ("classic", "klasik"):
                preset = "classic"
            elif fold(word) in ("penalty", "ceza"):
                preset = "penalty"
            else:
                raise Refusal("err.okey_start_usage")
        if len(numbers) > 2:
            raise Refusal("err.okey_start_usage")
        if numbers:
            rounds = numbers[0]
        if len(numbers) == 2:
            stake = numbers[1]
        rounds, preset = chosen.pop("rounds", rounds), chosen.pop("preset", preset)
        if rounds not in (1, 3):
            raise Refusal("err.okey_rounds")
        if not 1 <= stake <= config.max_ante:
            raise Refusal("err.okey_stake", max=config.max_ante)
        options = {**house.defaults("okey"), "rounds": rounds, "stake": stake, "preset": preset}
        return cls(locale, {**options, **chosen}, now)

    @classmethod
    def for_tournament(
        cls,
        locale: str,
        seats: list[Seat],
        rounds: int,
        tournament: int,
        tiebreak: list[int],
        now: datetime,
        preset: str = "penalty",
    ) -> OkeySession:
        """A tournament table: `seats` already seated, stake 0 (the entry fee is the stake),
        the tournament's scoring `preset`, `options["tournament"]` naming the tournament and
        `tiebreak` the fair draw (player ids, best first) that orders players level on penalty
        and finishes. The table service opens it, then `start_match` begins the match."""
        options = {
            **house.defaults("okey"),
            "rounds": rounds,
            "stake": 0,
            "preset": preset,
            "tournament": tournament,
            "tiebreak": list(tiebreak),
        }
        session = cls(locale, options, now)
        session.seats = list(seats)
        return session

    # --- commands -------------------------------------------------------------------------------

    def _typed_move(self, who: Who, sub: str, args: tuple[str, ...]) -> Step:
        """A move typed as a command (`take`, `discard`, `finish`, `show`)."""
        if sub in OKEY_SUBS:
            return self._move(who, self._parse(sub, args))
        raise Refusal("err.okey_usage")

    def press(self, who: Who, action: str, args: tuple[str, ...]) -> Step:
        """A turn button: `ts`/`td` take, `show`, `d.<tile>` discard, `f.<tile>` finish."""
        if args:  # no Okey button takes an amount or tiles: the tile is in the button
            kinds = {"ts": "take", "td": "take", "show": "show", "d": "discard", "f": "finish"}
            raise Refusal("err.no_args", action=kinds.get(action.partition(".")[0], action))
        if action == "ts":
            return self._move(who, Action("take", source="stock"))
        if action == "td":
            return self._move(who, Action("take", source="discard"))
        if action == "show":
            return self._move(who, Action("show_indicator"))
        kind, _, tile = action.partition(".")
        if kind in ("d", "f") and tile:
            return self._move(who, Action("discard" if kind == "d" else "finish", cards=(tile,)))
        raise Refusal("err.bad_button")

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

    def _events(self, events: list[Event], step: Step) -> None:
        """Engine events as notes: public lines (moves, or announcements for the round's start
        and result), and each player's rack as it is now in one private note per change."""
        dealing = any(e.kind == "round_started" for e in events)
        drawn: dict[int, Msg] = {}  # engine seat -> the tile it just drew (told with its rack)
        discarded: list[int] = []  # engine seats that discarded: their rack loses its buttons
        for event in events:
            if event.seat is not None:
                seat = self.seat_of(event.seat)
                if event.kind == "drew":
                    drawn[event.seat] = msg("okey.you_drew", tile=event.data["tile"])
                elif (
                    event.kind == "rack"
                    and dealing
                    and not seat.bot
                    and not self._turn_of(event.seat)
                ):
                    step.notes.append(self._rack_note(event.seat))
                continue
            lines = self._public_event(event)
            if lines:
                step.notes.append(Note(lines, announce=event.kind in ANNOUNCED_EVENTS))
                if event.kind == "discarded":
                    discarded.append(event.data["seat"])
                if event.kind == "finished" and self.draws_for(None):
                    assert self.match is not None and self.match.round is not None
                    view = self.match.round.view(None)  # the round is over: its melds are public
                    step.notes[-1].picture = pictures.okey_finish(view, self.locale)
        if self.match is not None and self.match.round is not None and self.match.round.finished:
            self._end_round(step)
            return
        for index in discarded:  # the rack as it is now, without the discard buttons
            if not self.seat_of(index).bot:
                step.notes.append(self._rack_note(index))
        self._turn_note(step, drawn)
        step.show_table()

    def _turn_of(self, index: int) -> bool:
        """True when engine seat `index` must discard now (their rack comes with buttons)."""
        game = self.round
        return game is not None and game.to_act() == index and game.phase == "discard"

    # --- moves ----------------------------------------------------------------------------------

    def auto_move(self, index: int, afk: bool) -> Step:
        """The engine's computer player plays a whole turn for table seat `index`: it draws from
        the stock (unless it is the starter's first turn), then discards or finishes."""
        assert self.match is not None
        seat = self.seats[index]
        engine_index = self.staked.index(seat.player_id)
        step = Step(seat=index)
        moves = []
        while (game := self.round) is not None and game.to_act() == engine_index:
            # an away human's turn is played as today's player; a computer seat at its level
            level = seat.level if seat.bot and not afk else "easy"
            action = ai.okey_move(game, engine_index, level)
            moves.append(action.to_dict())
            self._events(self.match.apply(engine_index, action), step)
            if action.kind not in ("take", "show_indicator"):
                break
        if not self._turn_of(engine_index):  # their turn is over: no stale tile buttons
            step.notes = [n for n in step.notes if not (n.to is seat and n.buttons)]
        step.action = {"kind": "turn", "moves": moves, "auto": True}
        return step

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
