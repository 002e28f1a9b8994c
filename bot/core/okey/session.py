"""An Okey table's state machine: seats, stakes into escrow at `begin`, a match of 1 or 3 rounds
(or classic), moves applied to the match and its events sent on as notes. The words a player
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
from bot.core.okey.words import OKEY_SUBS, OkeyWords
from bot.core.table import ai, house, last, pictures
from bot.core.table import stats as handstats
from bot.core.table.session import (
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
from games.okey import OkeyMatch, OkeyRound
from games.positions import deal_root
from storage import GameResult, PenaltyEntry, SeedRecord, Transfer, escrow, wallet

MAX_SEATS = 4
# public events announced in a message of their own (a round's result, the match's end); every
# other public event is a move and goes into the table message's move log
ANNOUNCED_EVENTS = (
    "round_started",
    "finished",
    "stock_exhausted",
    "match_totals",
    "match_over",
)


class OkeySession(OkeyWords, OkeyMessages, TableSession):
    """One Okey table."""

    game = "okey"
    group = "okey"
    max_seats = MAX_SEATS

    def __init__(self, locale: str, options: dict[str, Any], created: datetime) -> None:
        super().__init__(locale, options, created)
        self.match: OkeyMatch | None = None
        self.staked: list[int] = []  # player ids whose stake is in escrow (the match's seats)
        self.matches = 0
        # a tournament table's standing once its match is over (`outcome`), kept after the
        # match's own state is cleared
        self.final: dict[str, Any] | None = None

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

    def in_tournament(self) -> bool:
        """True at a table that plays a tournament's match."""
        return bool(self.options.get("tournament"))

    # --- snapshot -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole table as JSON-safe data."""
        data = self.base_dict()
        data.update(
            match=None if self.match is None else self.match.to_dict(),
            staked=list(self.staked),
            matches=self.matches,
            final=self.final,
        )
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> OkeySession:
        """Rebuild a table from `to_dict` output."""
        created = from_iso(data["created"])
        assert created is not None
        session = cls(data["locale"], data["options"], created)
        session.load_base(data)
        session.match = None if data["match"] is None else OkeyMatch.from_dict(data["match"])
        session.staked = list(data["staked"])
        session.matches = data["matches"]
        session.final = data.get("final")  # snapshots from before tournaments have none
        return session

    # --- queries --------------------------------------------------------------------------------

    @property
    def round(self) -> OkeyRound | None:
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
        """`join`, `leave`, `begin`, or a move typed as a command."""
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
        if sub in OKEY_SUBS:
            return self._move(who, self._parse(sub, args))
        raise Refusal("err.okey_usage")

    def press(self, who: Who, action: str, args: tuple[str, ...]) -> Step:
        """A turn button: `ts`/`td` take, `show`, `d.<tile>` discard, `f.<tile>` finish."""
        if args:  # no Okey button takes an amount or tiles: the tile is in the button
            kind = {"ts": "take", "td": "take", "show": "show", "d": "discard", "f": "finish"}
            raise Refusal("err.no_args", action=kind.get(action.partition(".")[0], action))
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

    def start_match(self) -> Step:
        """Begin a match with everyone seated: stakes into escrow (none at a tournament table),
        the first round dealt."""
        if self.running() or self.final is not None:
            raise Refusal("err.match_running")
        if len(self.seats) < 2:
            raise Refusal("err.need_players", count=2)
        stake = self.options["stake"]
        step = Step(action={"kind": "begin"})
        self.staked = [s.player_id for s in self.seats]
        for pid in self.staked if stake else ():
            step.transfers.append(Transfer(wallet(pid), escrow(self.table_id), stake, "okey stake"))
        changed = house.apply_pending(self)  # the rules of this match are fixed from here on
        options = house.engine_args("okey", self.options)["match"]
        self.match = OkeyMatch.new([str(pid) for pid in self.staked], options)
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
                "game": "okey",
                "players": [s.name for s in map(self.seat_of, range(len(self.staked)))],
                "options": dict(self.match.options),
                "root": deal_root("okey", None, seed),  # each tile position committed apart
            }
        )
        step.deals.append(
            {
                "hand": hand_id,
                "setup": {
                    "game": "okey",
                    "players": list(self.match.players),
                    "names": [self.name(i) for i in range(len(self.staked))],
                    "options": dict(self.match.options),
                },
            }
        )
        step.announce("okey.round_start", new_hand=True, hand=hand_id)
        step.notes[-1].lines.append(msg("fair.root", root=self.hands[hand_id]["root"]))
        self._events(self.match.start_round(seed), step)

    def _end_round(self, step: Step) -> None:
        assert self.match is not None and self.match.round is not None
        game = self.match.round
        hand_id = self.hand_id()
        step.record_seed(SeedRecord(hand_id, self.table_id, seed_hash(game.seed), game.seed.hex()))
        step.announce(
            "okey.round_end", hand=hand_id
        )  # the seed stays sealed (bot.core.players.proofs)
        # one row per player and round, no chips (those move with the match's own row)
        details = handstats.okey_round_details(game.view(None), self._match_id())
        for index, pid in enumerate(self.staked):
            step.results.append(GameResult(pid, "okey", 0, hand_id=hand_id, detail=details[index]))
        self.count_quiet()
        ended = self._last_round(game.view(None))
        if self.match.finished:
            self._end_match(step)
            last.keep_last(self, step, hand_id, **ended, over=True)
            return
        last.keep_last(self, step, hand_id, **ended)
        why = self.abandoned()  # nobody but computer players would play the next round
        if why is not None:
            self.abandon(step, why)
        else:
            self._deal(step)

    def _last_round(self, public: dict[str, Any]) -> dict[str, Any]:
        """The ended round's public end for the live table (`bot.core.table.last`), from the
        round's public view: each player's penalty and match total, the finisher's laid-down
        melds and their rack laid out with the finishing discard last (never another rack)."""
        assert self.match is not None
        result = public.get("result") or {}
        totals = self.match.totals
        winner = result.get("winner")
        players = [
            last.player(
                self.name(k),
                self.seat_of(k).user_id,
                penalty=public["penalties"][k],
                points=totals[k],
                winner=k == winner,
            )
            for k in range(len(self.staked))
        ]
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

    def _end_match(self, step: Step) -> None:
        assert self.match is not None
        stake = self.options["stake"]
        pool = stake * len(self.staked)
        paid = self.match.payout(pool)
        totals = self.match.totals
        match_id = self._match_id()
        for index, pid in enumerate(self.staked):
            if paid[index]:
                step.transfers.append(
                    Transfer(escrow(self.table_id), wallet(pid), paid[index], "okey payout")
                )
            step.results.append(
                GameResult(
                    pid,
                    "okey",
                    paid[index] - stake,
                    hand_id=match_id,
                    detail={
                        "v": handstats.DETAIL_VERSION,
                        "kind": "match",
                        "points": totals[index],
                        "rounds": len(self.match.history),
                    },
                )
            )
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
        self._left_to_computers(step)
        if step.status != "closed":
            step.announce("okey.again")
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

    def outcome(self) -> TableOutcome | None:
        """A tournament table's standing: lowest penalty total first, then most finishes, then
        the tournament's fair draw (`options["tiebreak"]`); a player who forfeited ranks after
        everyone still in. Final once the match is over."""
        if not self.in_tournament():
            return None
        if self.final is not None:
            figures = {int(pid): dict(f) for pid, f in self.final["figures"].items()}
            return TableOutcome(True, list(self.final["order"]), figures)
        players = list(self.staked) or [s.player_id for s in self.seats]
        # the points charged (lower is better under both presets: classic's points left are
        # its start minus these)
        totals = self.match.charged if self.match is not None else [0] * len(players)
        history = self.match.history if self.match is not None else []
        draw = list(self.options.get("tiebreak", []))
        figures: dict[int, dict[str, int]] = {}
        for index, pid in enumerate(players):
            seat = self.seats[self.find(pid) or 0]
            figures[pid] = {
                "penalty": totals[index],
                "finishes": sum(1 for h in history if h.get("winner") == index),
                "forfeit": int(seat.leaving),
            }

        def key(pid: int) -> tuple[int, int, int, int]:
            f = figures[pid]
            drawn = draw.index(pid) if pid in draw else len(draw) + pid
            return (f["forfeit"], f["penalty"], -f["finishes"], drawn)

        return TableOutcome(False, sorted(players, key=key), figures)

    def _match_id(self) -> str:
        """The id of the match being played (`<table>-m<number>`), as its results carry it."""
        return f"{self.table_id}-m{self.matches}"

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

    def _move(self, who: Who, action: Action) -> Step:
        game = self.round
        if game is None:
            raise Refusal("err.no_round")
        index = self.engine_seat(who.player_id)
        if index is None:
            raise Refusal("err.not_in_hand")
        if self.in_tournament() and self.seat_of(index).leaving:
            raise Refusal("err.tournament_forfeited")
        if game.to_act() != index:
            raise Refusal("err.not_your_turn", name=self.name(game.to_act()))
        return self._apply(index, action)

    def _apply(self, index: int, action: Action) -> Step:
        assert self.match is not None
        step = Step(action=action.to_dict(), seat=self.find(self.staked[index]))
        events = self.match.apply(index, action)
        self._events(events, step)
        return step

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

    def close(self) -> Step:
        """Close a table where no match is being played."""
        if self.running():
            raise Refusal("err.match_running")
        step = Step(action={"kind": "close"}, status="closed")
        step.announce("table.idle_closed")
        return step
