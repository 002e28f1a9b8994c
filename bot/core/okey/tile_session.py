"""What the classic and the 101 Okey tables share (`TileSession`): opening a table from
`/okey start` words and a tournament's table, seats, stakes into escrow at `begin`, a match of
rounds dealt from the table's seeds, the engine's events as notes (public lines, racks, the
turn), a computer's whole turn (`auto_move`), each round's results, the payout and a tournament
table's standing. Each game's own session supplies hooks (class attributes and small methods
named in `TileSession`'s docstring): its options, the computer's next move, whose rack comes
with the turn, its finish picture and turn prompt, a round's public end and its moves
(`bot.core.okey.session`, `bot.core.okey101.session`).

Chips: at `begin` each player's stake moves wallet -> escrow; when the match ends the match's
payout moves escrow -> wallets. The escrow holds `stake x players` during a match and nothing
between matches.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self

from bot.core.api import TournamentView
from bot.core.config import CoreConfig
from bot.core.errors import Refusal
from bot.core.okey.tile_match import MatchT, RoundT, standing
from bot.core.okey.tile_opening import Opening, start_options, tournament_options
from bot.core.okey.tile_tournament import knockout_view
from bot.core.sketch import Sketch
from bot.core.table import ai, house, kept, last, rematch
from bot.core.table import stats as handstats
from bot.core.table.session import (
    ButtonSpec,
    Msg,
    Note,
    Seat,
    Step,
    TableOutcome,
    TableSession,
    Who,
    from_iso,
    msg,
)
from games.base import Action, Event, seed_hash
from games.positions import deal_root
from storage import GameResult, PenaltyEntry, SeedRecord, Transfer, escrow, wallet

MAX_SEATS = 4
MAX_TURN_MOVES = 40  # a computer's moves in one turn at most (a safety bound)
TURN_ENDS = ("discard", "finish")  # the moves that end a player's turn (in both games)


class TileSession(TableSession, Generic[MatchT, RoundT]):
    """An Okey table of either game. The shared skeleton calls hooks each game supplies:

    - class attributes: `match_type` (the match class), `opening` (its `/okey start` words,
      `bot.core.okey.tile_opening`), `announced_events` (public events said in a message of
      their own, not the move log), `penalty_board` (match totals go on the penalty board);
    - in play: `_turn_of` (whose rack comes with their turn), `_turn_prompt` (the private turn
      note of the player to act), `_finish_picture`, `_computer_action` (the computer's next
      move), `_typed_move` (a move typed as a command), `_start_problem`;
    - at a round's end: `_round_details`, `_last_round` and `_ranked_points`.

    The game's face (`bot.core.okey.tile_face.TileMessages`) supplies `_public_event` and
    `_rack_note`."""

    group = "okey"
    begin_sub = "begin"
    max_seats = MAX_SEATS
    match_type: type[MatchT]  # the game's match class
    opening: ClassVar[Opening]  # the game's `/okey start` words
    announced_events: ClassVar[tuple[str, ...]]  # public events announced apart (not moves)
    # classic Okey: each match's totals go on the penalty board
    penalty_board: ClassVar[bool] = False

    if TYPE_CHECKING:  # supplied by the game's face (`bot.core.okey.tile_face`)

        def _public_event(self, event: Event) -> list[Msg]: ...

        def _rack_note(
            self,
            index: int,
            lead: list[Msg] | None = None,
            buttons: list[ButtonSpec] | None = None,
        ) -> Note: ...

    def __init__(self, locale: str, options: dict[str, Any], created: datetime) -> None:
        super().__init__(locale, options, created)
        self.match: MatchT | None = None
        self.staked: list[int] = []  # player ids whose stake is in escrow (the match's seats)
        self.matches = 0
        # a tournament table's standing once its match is over (`outcome`), kept after the
        # match's own state is cleared
        self.final: dict[str, Any] | None = None

    # --- opening --------------------------------------------------------------------------------

    @classmethod
    def create(cls, locale: str, args: tuple[str, ...], config: CoreConfig, now: datetime) -> Self:
        """A new table from `/okey start` words read by the game's `opening`."""
        return cls(locale, start_options(cls.game, cls.opening, args, config), now)

    @classmethod
    def for_tournament(
        cls, entrants: list[Seat], settings: dict[str, Any], config: CoreConfig, now: datetime
    ) -> Self:
        """A knockout's match table (`settings`: `tournament`, `slot`, `rounds`, `tiebreak`,
        `locale` and the game's own, `Opening.settings`): `entrants` already seated, stake 0
        (the entry fee is the stake); the fair draw `tiebreak` (player ids, best first) orders
        players level on points and finishes. The table service opens it, then `start_match`
        begins the match."""
        session = cls(settings["locale"], tournament_options(cls.game, cls.opening, settings), now)
        session.seats = list(entrants)
        return session

    def in_tournament(self) -> bool:
        """True at a table that plays a tournament's match."""
        return bool(self.options.get("tournament"))

    # --- snapshot -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole table as JSON-safe data (the match with its round: restarts mid-round)."""
        data = self.base_dict()
        data.update(
            match=None if self.match is None else self.match.to_dict(),
            staked=list(self.staked),
            matches=self.matches,
            final=self.final,
        )
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """Rebuild a table from `to_dict` output."""
        created = from_iso(data["created"])
        assert created is not None
        session = cls(data["locale"], data["options"], created)
        session.load_base(data)
        session.match = (
            None if data["match"] is None else session.match_type.from_dict(data["match"])
        )
        session.staked = list(data["staked"])
        session.matches = data["matches"]
        session.final = data.get("final")  # snapshots from before tournaments have none
        return session

    # --- queries --------------------------------------------------------------------------------

    @property
    def round(self) -> RoundT | None:
        """The round being played, or None."""
        if self.match is None or self.match.round is None or self.match.round.finished:
            return None
        return self.match.round

    def running(self) -> bool:
        """True while a match is being played."""
        return self.match is not None

    def seat_of(self, index: int) -> Seat:
        """The table seat of an engine seat."""
        found = self.find(self.staked[index])
        assert found is not None
        return self.seats[found]

    def name(self, index: int) -> str:
        """The name at engine seat `index`."""
        return self.seat_of(index).name

    def engine_seat(self, player_id: int) -> int | None:
        """A player's engine seat in the match, or None."""
        return self.staked.index(player_id) if self.running() and player_id in self.staked else None

    def actor(self) -> int | None:
        """The table seat to act, or None."""
        game = self.round
        if game is None:
            return None
        index = game.to_act()
        return None if index is None else self.find(self.staked[index])

    # --- commands -------------------------------------------------------------------------------

    def command(self, who: Who, sub: str, args: tuple[str, ...]) -> Step:
        """`join`, `leave`, `begin`, or a move typed as a command (`_typed_move`)."""
        if self.in_tournament() and sub in ("join", "begin"):
            raise Refusal("err.tournament_table")
        if sub == "join":
            return self._join(who, bot=False)
        if sub in ("leave", "begin") and args:
            raise Refusal("err.no_args", action=sub)
        if sub == "leave":
            return self._leave(who)
        if sub == "begin":
            return self._begin(who)
        return self._typed_move(who, sub, args)

    def _typed_move(self, who: Who, sub: str, args: tuple[str, ...]) -> Step:
        """A move typed as a command; each game reads its own words."""
        raise NotImplementedError

    def add_bot(self, bot: Who, args: tuple[str, ...]) -> Step:
        """Seat a computer player: `[level]` (default `normal`)."""
        if self.in_tournament():
            raise Refusal("err.tournament_table")
        level, rest = ai.split_level(args)
        if rest:
            raise Refusal("err.addbot_okey_usage")
        return self._join(bot, bot=True, level=level)

    def _join(self, who: Who, bot: bool, level: str = "easy") -> Step:
        if self.find(who.player_id) is not None:
            raise Refusal("err.already_seated_okey")
        if self.running():
            raise Refusal("err.match_running")
        if len(self.seats) >= self.max_seats:
            raise Refusal("err.table_full", seats=self.max_seats)
        self.seats.append(
            Seat(who.player_id, who.user_id, who.name, who.locale, bot=bot, level=level)
        )
        step = Step(action={"kind": "join"}, seat=len(self.seats) - 1)
        step.say("okey.joined", name=who.name, stake=self.options["stake"])
        step.show_table()
        return step

    def seat_in_play(self, index: int) -> bool:
        """Every seat plays the whole match."""
        return self.running()

    def mark_leaving(self, seat: Seat, kicked: bool) -> None:
        """The computer plays the seat out (a moderator's kick cannot be undone by `back`; nor
        can leaving a tournament table, which forfeits the tournament)."""
        seat.leaving = seat.away = True
        if kicked or self.in_tournament():
            seat.kicked = True

    def forfeit(self, player_id: int) -> Step:
        """A tournament player leaves the tournament: the computer plays their seat out and they
        rank after everyone still in at this table (`outcome`)."""
        index = self.find(player_id)
        if index is None or not self.in_tournament() or not self.running():
            raise Refusal("err.not_seated")
        seat = self.seats[index]
        if seat.leaving:
            raise Refusal("err.tournament_forfeited")
        self.mark_leaving(seat, kicked=True)
        step = Step(action={"kind": "forfeit"}, seat=index, player_id=player_id)
        step.say("tournament.forfeit", name=seat.name)
        step.show_table()
        return step

    def leaving_line(self, who: Who, seat: Seat) -> Msg:
        """Said when a player leaves mid-match."""
        if self.in_tournament():
            return msg("tournament.forfeit", name=seat.name)
        return msg("okey.leaving", name=seat.name)

    def back(self, who: Who) -> Step:
        """An away player is back, or one who left mid-match stays after all (the match is
        still on, so their seat is still theirs); a kicked player cannot come back this way."""
        index = self.find(who.player_id)
        if index is None:
            raise Refusal("err.not_seated")
        seat = self.seats[index]
        if seat.kicked:
            raise Refusal("err.kicked")
        if not (seat.leaving and self.running()):
            return super().back(who)
        seat.leaving = seat.away = False
        step = Step(action={"kind": "back", "stays": True}, seat=index)
        step.say("okey.stays", name=seat.name)
        step.show_table()
        return step

    def _remove(self, index: int, step: Step) -> None:
        seat = self.seats.pop(index)
        step.say("okey.left", name=seat.name)
        if not self.seats:
            step.status = "closed"
            step.announce("table.closed")

    def _begin(self, who: Who) -> Step:
        if self.find(who.player_id) is None:
            raise Refusal("err.not_seated")
        return self.start_match()

    def _start_problem(self) -> Refusal | None:
        """Why the seated players cannot begin a match under the rules it would be played by
        (checked after the shared checks), or None."""
        return None

    def start_match(self) -> Step:
        """Begin a match with everyone seated: stakes into escrow (none at a tournament table),
        the first round dealt."""
        if self.running() or self.final is not None:
            raise Refusal("err.match_running")
        if len(self.seats) < 2:
            raise Refusal("err.need_players", count=2)
        problem = self._start_problem()
        if problem is not None:
            raise problem
        stake = self.options["stake"]
        step = Step(action={"kind": "begin"})
        self.staked = [s.player_id for s in self.seats]
        for pid in self.staked if stake else ():
            step.transfers.append(
                Transfer(wallet(pid), escrow(self.table_id), stake, f"{self.game} stake")
            )
        changed = house.apply_pending(self)  # the rules of this match are fixed from here on
        options = house.engine_args(self.game, self.options)["match"]
        self.match = self.match_type.new([str(pid) for pid in self.staked], options)
        self.matches += 1
        self.phase = "playing"
        if self.options.get("tournament"):
            begin = msg("okey.begin_tournament", id=self.options["tournament"])
        else:
            begin = msg("okey.begin", pool=stake * len(self.staked))
        step.notes.append(Note([begin] if changed is None else [begin, changed], announce=True))
        self._deal(step)
        return step

    # --- rounds ---------------------------------------------------------------------------------

    def _deal(self, step: Step) -> None:
        assert self.match is not None
        self.hand_no += 1
        hand_id = self.hand_id()
        seed = self.seeds(hand_id)
        step.record_seed(SeedRecord(hand_id, self.table_id, seed_hash(seed), None))
        self.remember_hand(
            {
                "game": self.game,
                "players": [s.name for s in map(self.seat_of, range(len(self.staked)))],
                "options": dict(self.match.options),
                # both games shuffle the tiles alike: the same committed order, each tile
                # position committed apart
                "root": deal_root("okey", None, seed),
            }
        )
        step.deals.append(
            {
                "hand": hand_id,
                "setup": {
                    "game": self.game,
                    "players": list(self.match.players),
                    "names": [self.name(i) for i in range(len(self.staked))],
                    "options": dict(self.match.options),
                },
            }
        )
        step.announce("okey.round_start", new_hand=True, hand=hand_id)
        step.notes[-1].lines.append(msg("fair.root", root=self.hands[hand_id]["root"]))
        self._events(self.match.start_round(seed), step)

    def _events(self, events: list[Event], step: Step) -> None:
        """Engine events as notes: public lines (moves, or announcements for the round's start
        and result: `announced_events`), each player's rack as dealt (privately; the player
        whose turn it is gets theirs with the turn), then after a move the discarder's rack
        without buttons and the turn of the player to act (`_turn_prompt`)."""
        dealing = any(e.kind == "round_started" for e in events)
        drawn: dict[int, Msg] = {}  # engine seat -> the tile it just drew (told with its rack)
        discarded: list[int] = []  # engine seats that discarded: their rack loses its buttons
        for event in events:
            if event.seat is not None:
                if event.kind == "drew":
                    drawn[event.seat] = msg("okey.you_drew", tile=event.data["tile"])
                elif (
                    event.kind == "rack"
                    and dealing
                    and not self.seat_of(event.seat).bot
                    and not self._turn_of(event.seat)
                ):
                    step.notes.append(self._rack_note(event.seat))
                continue
            if event.kind == "discarded":
                discarded.append(int(event.data["seat"]))
            lines = self._public_event(event)
            if lines:
                step.notes.append(Note(lines, announce=event.kind in self.announced_events))
                if event.kind == "finished" and self.draws_for(None):
                    # the round is over: its melds are public
                    step.notes[-1].picture = self._finish_picture()
        if self.match is not None and self.match.round is not None and self.match.round.finished:
            self._end_round(step)
            return
        for index in discarded:  # the rack as it is now, without the discard buttons
            if not self.seat_of(index).bot:
                step.notes.append(self._rack_note(index))
        self._turn_prompt(step, drawn)
        step.show_table()

    def _turn_of(self, index: int) -> bool:
        """True when it is engine seat `index`'s turn such that their rack comes with their
        turn's buttons (`_turn_prompt`)."""
        raise NotImplementedError

    def _turn_prompt(self, step: Step, drawn: dict[int, Msg]) -> None:
        """The private turn note of the player to act (their rack with the turn's buttons, the
        tile they just drew from `drawn` first), if they get one."""
        raise NotImplementedError

    def _finish_picture(self) -> Sketch | None:
        """The picture of a round just finished (pictures are on)."""
        raise NotImplementedError

    def _round_details(self, public: dict[str, Any], match_id: str) -> list[dict[str, Any]]:
        """Each player's result detail of the round that ended (`bot.core.table.stats`)."""
        raise NotImplementedError

    def _last_round(self, public: dict[str, Any]) -> dict[str, Any]:
        """The ended round's public end for the live table (`bot.core.table.last`)."""
        raise NotImplementedError

    def _last_players(self, public: dict[str, Any]) -> list[dict[str, Any]]:
        """Each player of the ended round for the live table's end (`bot.core.table.last`), from
        the round's public view: their round's penalty, their match total, the finisher."""
        assert self.match is not None
        winner = (public.get("result") or {}).get("winner")
        totals = self.match.totals
        return [
            last.player(
                self.name(k),
                self.seat_of(k).user_id,
                penalty=public["penalties"][k],
                points=totals[k],
                winner=k == winner,
            )
            for k in range(len(self.staked))
        ]

    def _end_round(self, step: Step) -> None:
        assert self.match is not None and self.match.round is not None
        game = self.match.round
        hand_id = self.hand_id()
        step.record_seed(SeedRecord(hand_id, self.table_id, seed_hash(game.seed), game.seed.hex()))
        # the seed stays sealed (bot.core.players.proofs)
        step.announce("okey.round_end", hand=hand_id)
        public = game.view(None)
        # one row per player and round, no chips (those move with the match's own row)
        details = self._round_details(public, self._match_id())
        for index, pid in enumerate(self.staked):
            step.results.append(
                GameResult(pid, self.game, 0, hand_id=hand_id, detail=details[index])
            )
        self.count_quiet(step)
        ended = {**self._last_round(public), "reason": (public.get("result") or {}).get("reason")}
        if self.match.finished:
            ended["players"] = self._match_end(ended["players"])  # before the match is let go
            self._end_match(step)
            last.keep_last(self, step, hand_id, **ended, over=True)
            return
        last.keep_last(self, step, hand_id, **ended)
        why = self.abandoned()  # nobody but computer players would play the next round
        if why is not None:
            self.abandon(step, why)
        else:
            self._deal(step)

    def _payout(self) -> list[int]:
        """The chips the finished match pays each engine seat from the pool of every stake."""
        assert self.match is not None
        return self.match.payout(self.options["stake"] * len(self.staked))

    def _match_end(self, players: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The ended round's `players` (`_last_players`) with the finished match's result: who
        won it and, off a tournament, the chips each is paid."""
        assert self.match is not None
        winners = set(self.match.winners())
        paid = None if self.in_tournament() else self._payout()
        return [
            {**p, "match_winner": k in winners, "paid": None if paid is None else paid[k]}
            for k, p in enumerate(players)
        ]

    def _end_match(self, step: Step) -> None:
        assert self.match is not None
        stake = self.options["stake"]
        paid = self._payout()
        totals = self.match.totals
        match_id = self._match_id()
        places, sides = self.match.places(), self.match.seat_sides()  # for the ratings
        for index, pid in enumerate(self.staked):
            if paid[index]:
                step.transfers.append(
                    Transfer(escrow(self.table_id), wallet(pid), paid[index], f"{self.game} payout")
                )
            step.results.append(
                GameResult(
                    pid,
                    self.game,
                    paid[index] - stake,
                    hand_id=match_id,
                    detail={
                        "v": handstats.DETAIL_VERSION,
                        "kind": "match",
                        "points": totals[index],
                        "rounds": len(self.match.history),
                        "place": places[index],
                        "side": sides[index],
                    },
                )
            )
            if self.penalty_board:
                step.penalties.append(PenaltyEntry(pid, totals[index], match_id))
            if not self.in_tournament():
                step.announce(
                    "okey.paid", name=self.name(index), chips=paid[index], points=totals[index]
                )
        if self.in_tournament():
            self._end_tournament_match(step)
            return
        self.match = None
        self.staked = []
        self.phase = "waiting"
        for index in reversed(range(len(self.seats))):
            if self.seats[index].leaving:
                self._remove(index, step)
        self._left_to_computers(step)  # computer players would only play among themselves
        if step.status != "closed":
            step.announce("okey.again")
            rematch.offer(self, [s.to_dict() for s in self.seats])
            step.show_table()

    def _end_tournament_match(self, step: Step) -> None:
        """A tournament table's match is over: its standing is kept (`outcome`), the table
        closes and the tournament takes it from there."""
        result = self.outcome()
        assert result is not None
        self.final = {
            "order": result.order,
            "figures": {str(pid): figures for pid, figures in result.figures.items()},
        }
        self.match = None
        self.staked = []
        names = ", ".join(self.seats[self.find(pid) or 0].name for pid in result.order)
        step.announce("tournament.table_over", names=names)
        step.status = "closed"

    def _ranked_points(self) -> list[int]:
        """Each player's points a tournament ranks by, lower is better (the match is on)."""
        raise NotImplementedError

    def outcome(self) -> TableOutcome | None:
        """A tournament table's standing: lowest points first (`_ranked_points`), then most
        finishes, then the tournament's fair draw (`options["tiebreak"]`); a player who
        forfeited ranks after everyone still in. Final once the match is over."""
        if not self.in_tournament():
            return None
        if self.final is not None:
            done = {int(pid): dict(f) for pid, f in self.final["figures"].items()}
            return TableOutcome(True, list(self.final["order"]), done)
        players = list(self.staked) or [s.player_id for s in self.seats]
        return standing(
            players,
            self._ranked_points() if self.match is not None else [0] * len(players),
            self.match.history if self.match is not None else [],
            [self.seats[self.find(pid) or 0].leaving for pid in players],
            list(self.options.get("tiebreak", [])),
        )

    def tournament_view(self) -> TournamentView | None:
        """A knockout's match table as its page shows the tournament (`knockout_view`)."""
        outcome = self.outcome()
        if outcome is None:
            return None
        played = len(self.match.history) if self.match is not None else 0
        rounds = int(self.options[self.opening.rounds_option])
        round_no = played + 1 if self.round is not None else (played or None)
        if self.final is not None:
            round_no = rounds
        return knockout_view(self.options, rounds, round_no, self.seats, outcome)

    def _match_id(self) -> str:
        """The id of the match being played (`<table>-m<number>`), as its results carry it."""
        return f"{self.table_id}-m{self.matches}"

    # --- moves ----------------------------------------------------------------------------------

    def _acting(self, who: Who) -> int:
        """The engine seat of `who`, to act now; refusals otherwise."""
        game = self.round
        if game is None:
            raise Refusal("err.no_round")
        index = self.engine_seat(who.player_id)
        if index is None:
            raise Refusal("err.not_in_hand")
        if self.in_tournament() and self.seat_of(index).leaving:
            raise Refusal("err.tournament_forfeited")
        actor = game.to_act()
        if actor != index:
            raise Refusal("err.not_your_turn", name=self.name(actor) if actor is not None else "")
        return index

    def auto_move(self, index: int, afk: bool) -> Step:
        """The computer plays a whole turn for table seat `index` (`_computer_action` at the
        seat's level; a kept seat's at `normal`, a leaver's or a time-out at `easy`) until it
        discards or finishes; when the turn has passed on, no stale turn buttons go to it."""
        assert self.match is not None
        seat = self.seats[index]
        engine_index = self.staked.index(seat.player_id)
        level = kept.okey_level(seat, afk)
        step = Step(seat=index)
        moves = []
        for _ in range(MAX_TURN_MOVES):
            game = self.round
            if game is None or game.to_act() != engine_index:
                break
            action = self._computer_action(game, engine_index, level)
            moves.append(action.to_dict())
            self._events(self.match.apply(engine_index, action), step)
            if action.kind in TURN_ENDS:
                break
        if not self._turn_of(engine_index):
            step.notes = [n for n in step.notes if not (n.to is seat and n.buttons)]
        step.action = {"kind": "turn", "moves": moves, **kept.marker(seat, afk)}
        return step

    def _computer_action(self, game: RoundT, index: int, level: str) -> Action:
        """The move the computer at `level` makes now for engine seat `index`."""
        raise NotImplementedError

    def _move(self, who: Who, action: Action) -> Step:
        return self._apply(self._acting(who), action)

    def _apply(self, index: int, action: Action) -> Step:
        assert self.match is not None
        step = Step(action=action.to_dict(), seat=self.find(self.staked[index]))
        self._events(self.match.apply(index, action), step)
        return step

    # --- house rules ----------------------------------------------------------------------------

    def set_rules(self, who: Who, words: tuple[str, ...]) -> Step:
        """`/okey rules set name=value ...` (the moderator check is the caller's): in force at
        once between matches, else from the next match (`house.change`)."""
        return house.change(self, who, words)

    # --- money ----------------------------------------------------------------------------------

    def held(self) -> int:
        """Chips this table should hold in escrow right now."""
        return self.options["stake"] * len(self.staked) if self.running() else 0

    def refunds(self) -> dict[int, int]:
        """Each player's stake back when a match is cut short."""
        return {pid: self.options["stake"] for pid in self.staked} if self.running() else {}

    def abandon(self, step: Step, key: str) -> None:
        """Close between rounds (`abandoned`): a match cut short gives every stake back (the
        base class's refunds), and the match is dropped."""
        super().abandon(step, key)
        self.match, self.staked = None, []

    def close(self) -> Step:
        """Close a table where no match is being played."""
        if self.running():
            raise Refusal("err.match_running")
        step = Step(action={"kind": "close"}, status="closed")
        step.announce("table.idle_closed")
        return step
