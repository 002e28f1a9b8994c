"""A poker table's state machine: seats and buy-ins, the hand loop (dealer moving left, carried
pots), moves applied to the engine and its events sent on as notes. The words a player types are
read in `bot.core.poker.words` (mixed into `PokerSession`); the lines, buttons and pictures
are pure functions of the table's data in `bot.core.poker.messages`, which this session calls.

Chips: a buy-in moves wallet -> table escrow; the engine's stacks are chips inside the escrow;
leaving moves escrow -> wallet. At every committed state the escrow holds exactly
`sum(chips behind) + carried pot + (engine stacks + engine pot while a hand runs)`.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from types import ModuleType
from typing import Any, ClassVar

from bot.core.commands import parse_int
from bot.core.config import CoreConfig
from bot.core.errors import Refusal
from bot.core.moves import AMOUNT_KINDS, ASK_KINDS, Ask, Move
from bot.core.poker import messages, money, odds_cache, prompts
from bot.core.poker.deal import deal_setup
from bot.core.poker.words import ACTION_WORDS, PokerWords, card_word
from bot.core.sketch import Sketch
from bot.core.table import ai, house, kept, last, pictures
from bot.core.table import stats as handstats
from bot.core.table.session import (
    ButtonSpec,
    Msg,
    Note,
    Seat,
    Step,
    TableSession,
    Who,
    from_iso,
    msg,
    spec_for,
)
from games.base import (
    Action,
    ActionSpec,
    Event,
    IllegalAction,
    seed_hash,
)
from games.poker import acik, turkish
from games.poker.odds import Odds
from games.positions import deal_root
from storage import GameResult, SeedRecord, Transfer, escrow, wallet

ENGINES: dict[str, ModuleType] = {"turkish": turkish, "acik": acik}
MAX_SEATS = {"turkish": turkish.MAX_PLAYERS, "acik": acik.MAX_PLAYERS[52]}
# public events announced in a message of their own: the hand's start and its result; every
# other public event is a move and goes into the table message's move log
ANNOUNCED_EVENTS = ("hand_started", "opening_was_legal", "carried", "won", "returned", "showdown")
MOVE_KINDS = frozenset(ACTION_WORDS) - {"pat"}  # the engine's move kinds
HAND_EVENTS = ("hand", "hole", "drew_cards")  # private events whose message shows the hand


class PokerSession(PokerWords, TableSession):
    """One poker table (Türk pokeri; Açık poker when its engine is registered)."""

    group = "poker"
    # a snapshot key -> the subclass that restores such a snapshot; each subclass registers
    # itself (`SitAndGoSession`: "sng"), so this module never imports what builds on it
    restored_as: ClassVar[dict[str, type[PokerSession]]] = {}

    def __init__(self, game: str, locale: str, options: dict[str, Any], created: datetime) -> None:
        super().__init__(locale, options, created)
        self.game = game
        self.chips: dict[str, int] = {}  # player id -> chips behind (outside the running hand)
        self.carried = 0  # the pot left by a hand nobody opened
        self.button: int | None = None  # seat index of the last dealer
        self.engine: Any = None
        self.in_hand: list[int] = []  # player ids of the engine's seats
        self.start_stacks: list[int] = []
        self.tally: list[dict[str, Any]] = []  # per engine seat: the running hand's statistics

    @property
    def max_seats(self) -> int:  # type: ignore[override]
        """Seats at this table (an Açık table with the 32-card deck has fewer, and so has one
        where a change to it is pending: the next hand must be able to take it)."""
        now = seat_limit(self.game, self.options)
        return min(now, seat_limit(self.game, {**self.options, **self.pending}))

    @classmethod
    def create(
        cls, game: str, locale: str, args: tuple[str, ...], config: CoreConfig, now: datetime
    ) -> PokerSession:
        """A new table from `/poker open [ante] [structure] [name=value ...]` words (after the
        variant); the `name=value` words are house rules (`bot.core.table.house`)."""
        from bot.core.commands import STRUCTURES, lookup, parse_int

        ante, structure = config.poker_ante, "pot_limit"
        chosen = house.parse(game, [w for w in args if house.is_setting(w)], opening=True)
        for word in args:
            if house.is_setting(word):
                continue
            number = parse_int(word)
            if number is not None:
                if not 1 <= number <= config.max_ante:
                    raise Refusal("err.bad_ante", max=config.max_ante)
                ante = number
                continue
            found = lookup(STRUCTURES, word)
            if found is None:
                raise Refusal("err.poker_open_usage")
            structure = found
        options = {
            "ante": ante,
            "structure": structure,
            "min_buy_in": ante * config.poker_min_buy_in_antes,
            "default_buy_in": ante * config.poker_default_buy_in_antes,
            **house.defaults(game),
            **house.stored(chosen),
        }
        return cls(game, locale, options, now)

    # --- snapshot -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole table as JSON-safe data."""
        data = self.base_dict()
        data.update(
            chips=dict(self.chips),
            carried=self.carried,
            button=self.button,
            engine=None if self.engine is None else self.engine.to_dict(),
            in_hand=list(self.in_hand),
            start_stacks=list(self.start_stacks),
            tally=[dict(t) for t in self.tally],
        )
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PokerSession:
        """Rebuild a table from `to_dict` output (a sit-and-go table as its own class)."""
        if cls is PokerSession:
            for key, kind in cls.restored_as.items():
                if key in data:
                    return kind.from_dict(data)
        created = from_iso(data["created"])
        assert created is not None
        session = cls(data["game"], data["locale"], data["options"], created)
        session.load_base(data)
        session.chips = dict(data["chips"])
        session.carried = data["carried"]
        session.button = data["button"]
        engine = data["engine"]
        if engine is not None:
            module = ENGINES[data["game"]]
            session.engine = _hand_class(module).from_dict(engine)
        session.in_hand = list(data["in_hand"])
        session.start_stacks = list(data["start_stacks"])
        session.tally = [dict(t) for t in data.get("tally", ())]  # older snapshots have none
        return session

    # --- queries --------------------------------------------------------------------------------

    def running(self) -> bool:
        """True while a hand is being played."""
        return self.engine is not None and not self.engine.finished

    def engine_seat(self, player_id: int) -> int | None:
        """The engine seat of a player in the running hand, or None."""
        if not self.running() or player_id not in self.in_hand:
            return None
        return self.in_hand.index(player_id)

    def seat_of_engine(self, index: int) -> Seat:
        """The table seat of an engine seat."""
        seat = self.find(self.in_hand[index])
        assert seat is not None
        return self.seats[seat]

    def name(self, index: int) -> str:
        """The name of the player at engine seat `index`."""
        return self.seat_of_engine(index).name

    def actor(self) -> int | None:
        """The table seat to act, or None."""
        if not self.running():
            return None
        index = self.engine.to_act()
        return None if index is None else self.find(self.in_hand[index])

    def in_play(self, player_id: int) -> bool:
        """True when the player was dealt into the running hand (folded or not): their chips are
        inside the engine until it ends."""
        return self.engine_seat(player_id) is not None

    def wants_action(self, who: Who, word: str) -> bool:
        """`/poker open` from the seat to act while opening is a move anyone could make (the
        first betting round, nobody opened yet) is the move, not a new table. Decided on public
        information only: whether the sender holds openers is checked by the move itself."""
        index = self.engine_seat(who.player_id)
        if index is None or self.engine.to_act() != index:
            return False
        return spec_for(self._public_specs(index), word) is not None

    def _public_specs(self, index: int) -> list[ActionSpec]:
        """The moves engine seat `index` is offered where everybody sees them: they depend on
        public information only (never on openers or a down card)."""
        return getattr(self.engine, "public_legal_actions", self.engine.legal_actions)(index)

    # --- what the table says (pure functions of this data: `bot.core.poker.messages`) ----------

    def names(self) -> list[str]:
        """The names of the running hand's engine seats, in seat order."""
        return [self.name(i) for i in range(len(self.in_hand))]

    def table_lines(self) -> list[Msg]:
        """Header, each seat's chips and state, pot, and whose turn it is."""
        view = self.engine.view(None) if self.running() else None
        return messages.table_lines(
            messages.PokerTable(
                *(self.game, self.table_id, self.options, self.seats, self.chips, self.in_hand),
                *(view, self.public_odds(view), self.actor(), self.carried, self.hand_id()),
            )
        )

    def buttons(self) -> list[ButtonSpec]:
        """Buttons of the move kinds the seat to act may make."""
        index = self.engine.to_act() if self.running() else None
        if index is None:
            return []
        return messages.turn_buttons(self._public_specs(index), self.engine.view(None), index)

    def private_lines(self, index: int, sub: str, args: tuple[str, ...]) -> list[Msg]:
        """`/poker hand`: the player's cards in the running hand."""
        if not self.running():
            raise Refusal("err.no_hand")
        e = self.engine_seat(self.seats[index].player_id)
        if e is None:
            raise Refusal("err.not_in_hand")
        return messages.own_lines(self.engine.view(e), e, self.public_odds(self.engine.view(None)))

    def rules_lines(self) -> list[Msg]:
        """The table's options, the game's rules in short, then every house rule."""
        args = (self.game, self.group, self.options, self.pending, self.max_seats)
        return messages.rules_lines(*args)

    def table_sketch(self) -> Sketch | None:
        """The public table of the running hand (from `view(None)`), when pictures are on."""
        view = self.engine.view(None) if self.running() and self.draws_for(None) else None
        odds = self.public_odds(view)
        return (
            None if view is None else messages.table_sketch(view, self.names(), self.locale, odds)
        )

    def private_sketch(self, index: int, sub: str, args: tuple[str, ...]) -> Sketch | None:
        """`/poker hand`'s picture: the player's own cards (none once folded)."""
        seat = self.seats[index]
        e = self.engine_seat(seat.player_id)
        view = None if e is None or not self.draws_for(seat) else self.engine.view(e)
        return None if view is None or view["folded"][e] else pictures.poker_hand(view, seat.locale)

    verify_lines = staticmethod(messages.verify_lines)  # the deal again from its seed

    # --- commands -------------------------------------------------------------------------------

    def command(self, who: Who, sub: str, args: tuple[str, ...]) -> Step:
        """`join`, `leave`, `start` or an action typed as a command (`/poker raise 40`)."""
        if sub == "join":
            return self._join(who, args, bot=False)
        if sub in ("leave", "start") and args:
            raise Refusal("err.no_args", action=sub)
        if sub == "leave":
            return self._leave(who)
        if sub == "start":
            return self._start(who)
        if sub in ACTION_WORDS:
            return self._act(who, sub, args)
        raise Refusal("err.poker_usage")

    def act(self, who: Who, move: Move) -> Step:
        """A typed move: the engine's `Action` (cards as typed are read as cards), or `Ask`,
        a button that needs an answer (an amount move without its amount asks for it, without
        playing the one amount a button would)."""
        if isinstance(move, Ask) and move.kind in ASK_KINDS:
            return self._ask(who, move.kind)
        if not isinstance(move, Action) or move.kind not in MOVE_KINDS:
            raise Refusal("err.bad_button")
        if move.kind in AMOUNT_KINDS and move.amount is None:
            return self._ask(who, move.kind, pressed=False)
        index = self._turn(who)
        return self._apply(index, replace(move, cards=tuple(card_word(c) for c in move.cards)))

    def _ask(self, who: Who, kind: str, pressed: bool = True) -> Step:
        """A button that needs an answer: the one amount it allows is played (`pressed`); else
        the question comes back as data (`bot.core.poker.prompts`)."""
        index = self._turn(who)
        # public limits: what a press is answered must not tell the presser's cards
        spec = spec_for(self._public_specs(index), kind)
        if spec is None:
            raise Refusal("err.amount_usage", action=kind)
        if kind == "draw":
            seat = self.find(self.in_hand[index])
            assert seat is not None
            hand = self.engine.view(index)["hand"]
            return prompts.draw_question(self, seat, hand, spec.max_cards)
        if pressed and spec.min_amount is not None and spec.min_amount == spec.max_amount:
            return self._apply(index, Action(kind, amount=spec.min_amount))  # the only amount
        raise prompts.amount_needed(str(self.table_id), self.nonce, spec)

    def add_bot(self, bot: Who, args: tuple[str, ...]) -> Step:
        """Seat a computer player: `[level] [buy-in]` (default `normal`, the default buy-in)."""
        level, rest = ai.split_level(args)
        if len(rest) > 1 or (rest and parse_int(rest[0]) is None):
            raise Refusal("err.addbot_poker_usage")
        return self._join(bot, rest, bot=True, level=level)

    def _join(self, who: Who, args: tuple[str, ...], bot: bool, level: str = "easy") -> Step:
        amount = self.options["default_buy_in"]
        if args:
            number = parse_int(args[0])
            if number is None:
                raise Refusal("err.buy_in_usage", min=self.options["min_buy_in"])
            amount = number
        if amount < self.options["min_buy_in"]:
            raise Refusal("err.buy_in_small", min=self.options["min_buy_in"])
        index = self.find(who.player_id)
        step = Step(action={"kind": "buy_in", "amount": amount})
        if index is not None:
            if self.in_play(who.player_id) or self.seats[index].leaving:
                raise Refusal("err.already_seated")
            self.chips[str(who.player_id)] += amount
            step.say("poker.rebuy", name=who.name, amount=amount)
        else:
            if len(self.seats) >= self.max_seats:
                if self.max_seats < MAX_SEATS[self.game]:
                    raise Refusal("err.table_full_deck", seats=self.max_seats)
                raise Refusal("err.table_full", seats=self.max_seats)
            seat = Seat(who.player_id, who.user_id, who.name, who.locale, bot=bot, level=level)
            self.seats.append(seat)
            self.chips[str(who.player_id)] = amount
            step.say("poker.joined", name=who.name, amount=amount)
            if self.running():
                step.say("poker.next_hand", name=who.name)
        step.transfers.append(
            Transfer(wallet(who.player_id), escrow(self.table_id), amount, "poker buy-in")
        )
        step.seat = self.find(who.player_id)
        step.show_table()
        return step

    def seat_in_play(self, index: int) -> bool:
        """A seat is in play when it was dealt into the running hand."""
        return self.in_play(self.seats[index].player_id)

    def mark_leaving(self, seat: Seat, kicked: bool) -> None:
        """Folded at their next turn, paid out after the hand."""
        seat.leaving = True

    def leaving_line(self, who: Who, seat: Seat) -> Msg:
        """Said when a player leaves mid-hand (with the name saved at their seat, as every
        other table line)."""
        return msg("poker.leaving", name=seat.name)

    def _remove(self, index: int, step: Step) -> None:
        """Cash a seat out and take it away; the last player out also takes a carried pot."""
        seat = self.seats.pop(index)
        amount = self.chips.pop(str(seat.player_id), 0)
        if not self.seats and not self.running():
            if self.carried:  # in their history, not a hand played (`carried_result`)
                step.results.append(
                    money.carried_result(seat.player_id, self.game, self.carried, self.hand_id())
                )
            amount += self.carried
            self.carried = 0
        if amount:
            step.transfers.append(
                Transfer(escrow(self.table_id), wallet(seat.player_id), amount, "poker cash-out")
            )
        step.say("poker.left", name=seat.name, amount=amount)
        if self.button is not None and index <= self.button:
            self.button = self.button - 1 if self.button > 0 else None
        if not self.seats and not self.running():
            step.status = "closed"
            step.announce("table.closed")

    def _eligible(self) -> list[int]:
        return [
            i
            for i, s in enumerate(self.seats)
            if self.chips.get(str(s.player_id), 0) >= 1 and not s.leaving
        ]

    def _start(self, who: Who) -> Step:
        if self.find(who.player_id) is None:
            raise Refusal("err.not_seated")
        if self.running():
            raise Refusal("err.already_playing")
        if len(self._eligible()) < 2:
            raise Refusal("err.need_players", count=2)
        step = Step(action={"kind": "start"})
        self.phase = "playing"
        self._deal(step)
        return step

    # --- the hand loop --------------------------------------------------------------------------

    def _deal(self, step: Step) -> None:
        eligible = self._eligible()
        self.hand_no += 1
        seed = self.seeds(self.hand_id())
        if self.button is None or not self.seats:
            dealer_seat = eligible[seed[0] % len(eligible)]
        else:
            n = len(self.seats)
            order = [(self.button + k) % n for k in range(1, n + 1)]
            dealer_seat = next(i for i in order if i in eligible)
        self.button = dealer_seat
        self.in_hand = [self.seats[i].player_id for i in eligible]
        self.start_stacks = [self.chips[str(pid)] for pid in self.in_hand]
        for pid in self.in_hand:
            self.chips[str(pid)] = 0
        module = ENGINES[self.game]
        changed = house.apply_pending(self)  # the rules of this hand are fixed from here on
        rules = house.engine_args(self.game, self.options)
        self.engine = module.new(
            [str(pid) for pid in self.in_hand],
            self.start_stacks,
            rules["rules"],
            seed,
            eligible.index(dealer_seat),
            ante=self.options["ante"],
            structure=self.options["structure"],
            carried_pot=self.carried,
            **rules["hand"],
        )
        self.tally = handstats.new_tally(len(self.in_hand))
        hand_id = self.hand_id()
        names = [self.seats[i].name for i in eligible]
        dealt = (self.game, self.in_hand, names, self.start_stacks, eligible.index(dealer_seat))
        setup = deal_setup(*dealt, rules, self.options, self.carried)
        step.deals.append({"hand": hand_id, "setup": setup})
        self.carried = 0
        step.record_seed(SeedRecord(hand_id, self.table_id, seed_hash(seed), None))
        root = deal_root(self.game, self.engine, seed)  # each card position committed apart
        self.remember_hand(
            {
                "game": self.game,
                "players": [self.seats[i].name for i in eligible],
                "dealer": eligible.index(dealer_seat),
                "rules": rules["rules"],  # /verify deals with the rules this hand used
                "root": root,
            }
        )
        start = msg("poker.hand_start", hand=hand_id, dealer=self.seats[dealer_seat].name)
        lines = [start] if changed is None else [start, changed]
        lines.append(msg("fair.root", root=root))
        step.notes.append(Note(lines, announce=True, new_hand=True))
        self._events(self.engine.initial_events(), step)
        step.show_table()

    def _finish(self, step: Step) -> None:
        """Settle a finished hand: chips back behind, results, the seed revealed, leavers paid,
        then the next hand dealt when enough players have chips."""
        self._settle(step)
        self._after_hand(step)

    def _settle(self, step: Step) -> None:
        """Chips of a finished hand back behind, its results, its seed revealed; no hand runs
        afterwards."""
        view = self.engine.view(None)
        hand_id = self.hand_id()
        details = self._details(view)
        for index, pid in enumerate(self.in_hand):
            self.chips[str(pid)] = view["stacks"][index]
            delta = view["stacks"][index] - self.start_stacks[index]
            step.results.append(
                GameResult(pid, self.game, delta, hand_id=hand_id, detail=details[index])
            )
        self.carried = view["pot"] if view["carried"] else 0
        seed = view["seed"]
        step.record_seed(SeedRecord(hand_id, self.table_id, view["seed_hash"], seed))
        # the seed stays sealed (bot.core.players.proofs)
        step.announce("poker.hand_end", hand=hand_id)
        self._keep_last(step, view, hand_id)
        self.engine = None
        self.in_hand, self.start_stacks, self.tally = [], [], []
        self.count_quiet(step)

    def _keep_last(self, step: Step, view: dict[str, Any], hand_id: str) -> None:
        """Keep the hand's public end for the live table (`bot.core.table.last`): the cards
        shown at its showdown (the engine's public `shown`: never a folded hand), each
        player's chips won or lost, the result lines."""
        seats = [self.seat_of_engine(index) for index in range(len(self.in_hand))]
        players = messages.last_players(view, seats, self.start_stacks)
        last.keep_last(self, step, hand_id, players)

    def _after_hand(self, step: Step) -> None:
        """Between hands: leavers (and computers without chips) paid out, the next hand dealt."""
        first = len(step.notes)
        for index in reversed(range(len(self.seats))):
            seat = self.seats[index]
            if seat.leaving or (seat.bot and self.chips.get(str(seat.player_id), 0) == 0):
                self._remove(index, step)
        for seat in self.seats:
            if self.chips.get(str(seat.player_id), 0) == 0:
                step.tell(seat, "poker.busted")
        if step.status == "closed":
            return
        why = self.abandoned()  # nobody but computer players is left, or plays
        if why is not None:
            self.abandon(step, why)
        elif len(self._eligible()) >= 2 and self.people_to_play():  # never computers alone
            # the new hand's move log starts at its deal: a leaver's line must be its own message
            for note in step.notes[first:]:
                if note.to is None and not note.table:
                    note.announce = True
            self._deal(step)
        else:
            self.phase = "waiting"
            step.say("poker.waiting_players")
            step.show_table()

    def _details(self, view: dict[str, Any]) -> list[dict[str, Any]]:
        """Each engine seat's statistics of the hand that just ended (`game_results.detail`)."""
        if len(self.tally) != len(self.in_hand):  # a hand dealt before statistics were kept
            return [{} for _ in self.in_hand]
        pot = handstats.hand_pot(self.tally, view["pot"] if view["carried"] else 0)
        return handstats.poker_details(self.game, self.tally, pot)

    def _events(self, events: list[Event], step: Step) -> None:
        showdown: tuple[Event, Note] | None = None
        presenter = messages.PokerPresenter(self.game)
        hand_notes: dict[int, Note] = {}  # engine seat -> its last message about its cards
        for event in events:
            handstats.poker_tally(self.tally, event)
            if event.seat is not None:
                seat = self.seat_of_engine(event.seat)
                lines = presenter.own(event)
                if lines:
                    step.notes.append(self.tell_hand(seat, lines))
                    if event.kind in HAND_EVENTS:
                        hand_notes[event.seat] = step.notes[-1]
                continue
            lines = presenter.describe(event, self.names(), self.locale)
            if lines:
                step.notes.append(Note(lines, announce=event.kind in ANNOUNCED_EVENTS))
                if event.kind == "showdown":
                    showdown = event, step.notes[-1]
        for index, note in hand_notes.items():  # the hand as it is now, once per player
            seat = self.seat_of_engine(index)
            if self.draws_for(seat):
                note.picture = pictures.poker_hand(self.engine.view(index), seat.locale)
        if showdown is not None and self.draws_for(None):
            won = {e.data["seat"] for e in events if e.kind == "won"}  # not "returned" chips
            args = (self.engine.view(None), self.names(), self.locale, showdown[0], won)
            showdown[1].picture = messages.showdown_sketch(self.game, *args)
        if self.engine is not None and self.engine.finished:
            self._finish(step)
        else:
            step.show_table()

    # --- moves ----------------------------------------------------------------------------------

    def _act(self, who: Who, kind: str, args: tuple[str, ...]) -> Step:
        """A move typed as a command (`/poker raise 40`)."""
        index = self._turn(who)
        return self._apply(index, self._parse(index, kind, args))

    def _turn(self, who: Who) -> int:
        """The engine seat of `who`, when it is theirs to act; a refusal otherwise."""
        if not self.running():
            raise Refusal("err.no_hand")
        index = self.engine_seat(who.player_id)
        if index is None:
            raise Refusal("err.not_in_hand")
        to_act = self.engine.to_act()
        if to_act != index:
            raise Refusal("err.not_your_turn", name=self.name(to_act))
        return index

    def _apply(self, index: int, action: Action) -> Step:
        step = Step(action=action.to_dict(), seat=self.find(self.in_hand[index]))
        try:
            events = self.engine.apply(index, action)
        except IllegalAction as exc:
            if action.kind == "open" and exc.params.get("action") == "bet":
                exc.params["action"] = "open"  # the engine checks an opening as a bet
            raise
        self._events(events, step)
        return step

    def auto_move(self, index: int, afk: bool) -> Step:
        """The computer acts for table seat `index`."""
        seat = self.seats[index]
        engine_index = self.in_hand.index(seat.player_id)
        cautious, level = kept.poker_how(seat, afk)  # a kept seat: `normal`, from its view
        action = ai.poker_move(self.engine, engine_index, cautious, level=level)
        step = self._apply(engine_index, action)
        step.action = {**action.to_dict(), **kept.marker(seat, afk)}
        return step

    # --- live odds and house rules --------------------------------------------------------------

    def public_odds(self, view: dict[str, Any] | None) -> Odds | None:
        """Açık poker's live odds from public information for `view(None)` of the running hand,
        when the table shows them (`messages.public_odds`)."""
        return messages.public_odds(self.game, self.options, view)

    def odds_views(self, player_id: int | None) -> list[dict[str, Any]]:
        """The views whose odds the next message may show: the public one while an Açık hand
        with odds on runs, and `player_id`'s own when they play in it."""
        public = self.engine.view(None) if self.game == "acik" and self.running() else None
        if public is None or not messages.odds_shown(self.game, self.options, public):
            return []
        seat = None if player_id is None else self.engine_seat(player_id)
        own = [] if seat is None or public["folded"][seat] else [self.engine.view(seat)]
        return [public, *own]

    async def prepare(self, player_id: int | None) -> None:
        """Work out the odds the next message may show in a worker thread, so that the event
        loop stays free (`odds_cache.prepare`)."""
        await odds_cache.prepare(self.odds_views(player_id))

    def set_rules(self, who: Who, words: tuple[str, ...]) -> Step:
        """`/poker rules set name=value ...` (the moderator check is the caller's): in force at
        once between hands, else from the next hand (`house.change`)."""
        return house.change(self, who, words)

    def rules_problem(self, options: dict[str, Any]) -> Refusal | None:
        """`deck=32` with more players seated than it deals to."""
        limit = seat_limit(self.game, options)
        if len(self.seats) > limit:
            return Refusal("err.house_deck_seats", max=limit, count=len(self.seats))
        return None

    # --- money ----------------------------------------------------------------------------------

    def held(self) -> int:
        """Chips this table should hold in escrow right now (`money.held`)."""
        return money.held(self.chips, self.carried, self._public_view())

    def refunds(self) -> dict[int, int]:
        """Each player's chips at the table now (`money.refunds`)."""
        seated = [s.player_id for s in self.seats]
        return money.refunds(seated, self.chips, self.carried, self.in_hand, self._public_view())

    def _public_view(self) -> dict[str, Any] | None:
        """The running hand's public view, None between hands."""
        return self.engine.view(None) if self.running() else None

    def close(self) -> Step:
        """Close a table nobody plays at: everyone is paid back."""
        if self.running():
            raise Refusal("err.already_playing")
        step = Step(action={"kind": "close"}, status="closed")
        self._pay_back(step)
        step.announce("table.idle_closed")
        return step

    def people_to_play(self) -> bool:
        """A person would play the next hand: a seat that is not a computer, not leaving, with
        chips to play."""
        return any(
            not s.bot and not s.leaving and self.chips.get(str(s.player_id), 0) >= 1
            for s in self.seats
        )

    def abandon(self, step: Step, key: str) -> None:
        """Close between hands (`abandoned`): everyone is paid back, the channel told why."""
        self._pay_back(step)
        step.status = "closed"
        step.announce(key)

    def _pay_back(self, step: Step) -> None:
        """Between hands: each seat's chips back to its wallet, a carried pot shared (each
        share is also a result, so that a player's `/history` adds up to their wallet)."""
        refunds = self.refunds()
        for pid, amount in refunds.items():
            share = amount - self.chips.get(str(pid), 0)
            if self.carried and share > 0:
                step.results.append(money.carried_result(pid, self.game, share, self.hand_id()))
            step.transfers.append(
                Transfer(escrow(self.table_id), wallet(pid), amount, "table closed: refund")
            )
        self.chips, self.carried = {}, 0


def seat_limit(game: str, options: dict[str, Any]) -> int:
    """The seats of a poker table with these options: Açık with 32 cards deals to fewer."""
    deck = house.deck_size(game, options)
    return MAX_SEATS[game] if deck is None else acik.MAX_PLAYERS[deck]


def _hand_class(module: ModuleType) -> Any:
    """The hand class of an engine module (the type `new` returns)."""
    for name in ("TurkishHand", "AcikHand"):
        if hasattr(module, name):
            return getattr(module, name)
    raise LookupError(f"no hand class in {module.__name__}")
