"""What every game session shares: seats, notes to send, and the result of one accepted step.

A session is the game-specific state of one table (seats, engine, hand loop). It never performs
I/O: it returns a `Step` (messages to send, chip transfers, results, seeds) that the table service
persists in one commit before anything is sent.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import TYPE_CHECKING, Any

from bot.core.codec import codec
from bot.core.errors import Refusal
from bot.core.messages import Picker, Prompt
from bot.core.moves import Move
from bot.core.sketch import Sketch
from games.base import ActionSpec
from storage import (
    ComputerLimit,
    GameResult,
    PenaltyEntry,
    SeedRecord,
    Transfer,
    escrow,
    wallet,
)

if TYPE_CHECKING:
    from bot.core.api import TournamentView


@dataclass
class Seat:
    """A player sitting at a table (a person or a computer player)."""

    player_id: int
    user_id: str  # the platform's user id: where private messages go
    name: str
    locale: str
    bot: bool = False
    away: bool = False  # timed out repeatedly: the computer player acts for them
    timeouts: int = 0
    away_hands: int = 0  # hands or rounds ended while away (`bot.core.table.kept`)
    leaving: bool = False  # asked to leave during a hand: cashed out when it ends
    kicked: bool = False  # a moderator removed them: `back` cannot cancel that leaving
    # a computer seat's level (bot.core.table.ai.LEVELS); snapshots from before levels have no field
    # and their computer seats keep playing as they did, which is `easy`
    level: str = "easy"
    # their tiles drawn with a shape per colour too (`/tiles symbols`), as of their last move here
    symbols: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form for the table snapshot (`asdict`'s, without its deep copies: every
        field is a plain value)."""
        return {name: getattr(self, name) for name in _SEAT_FIELDS}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        """Rebuild a seat from `to_dict` output."""
        return cls(**data)

    @property
    def kept(self) -> bool:
        """The computer keeps this person's seat while they are away (`bot.core.table.kept`):
        not one who left mid-match or was removed; one stood up by the away limit, to the end."""
        kept = self.away and not (self.bot or self.kicked)
        return kept and (not self.leaving or self.away_hands > 0)


_SEAT_FIELDS = tuple(f.name for f in fields(Seat))


@dataclass(frozen=True)
class Msg:
    """A catalogue key with parameters; parameters may themselves be `Msg` values."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form (the move log in the table snapshot): nested `Msg` parameters as
        dicts, lists item by item, numbers and text as they are; any other value as the text
        it reads as (what the catalogue's `{name}` makes of it), so the line reads the same."""
        return {"key": self.key, "params": {k: _plain(v) for k, v in self.params.items()}}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Msg:
        """Rebuild a message from `to_dict` output."""
        return cls(data["key"], {k: _message(v) for k, v in data.get("params", {}).items()})


def json_copy(value: Any) -> Any:
    """A copy of JSON-like data (dicts, lists, tuples, and values never changed in place) that
    shares nothing changeable with it: `copy.deepcopy` for snapshot data, several times faster."""
    kind = type(value)
    if kind is dict:
        return {k: json_copy(v) for k, v in value.items()}
    if kind is list:
        return [json_copy(v) for v in value]
    if kind is tuple:
        return tuple(json_copy(v) for v in value)
    if kind in _ATOMS:
        return value
    return copy.deepcopy(value)  # anything else (a set, a subclass): the slow, general way


_ATOMS = frozenset({str, int, float, bool, type(None)})


def _plain(value: Any) -> Any:
    if isinstance(value, Msg):
        return value.to_dict()
    if isinstance(value, list):  # `words` joins a list parameter: it stays a list
        return [_plain(v) for v in value]
    if value is None or isinstance(value, str | int | float):
        return value
    return str(value)


def _message(value: Any) -> Any:
    if isinstance(value, dict):  # only a nested `Msg` is stored as a dict
        return Msg.from_dict(value)
    if isinstance(value, list):
        return [_message(v) for v in value]
    return value


# one line of the move log or of the previous hand's end (`TableSession.last`): a message
# (`Msg.to_dict`), put into words when shown (each viewer's language); a snapshot from before
# kept its lines as text, in the table's language
KeptLine = dict[str, Any] | str


def msg(key: str, **params: Any) -> Msg:
    """Build a `Msg`."""
    return Msg(key, params)


@dataclass(frozen=True)
class ButtonSpec:
    """A turn button before it is put into words: the move it makes, label key and input
    needs."""

    move: Move
    label: Msg
    style: str = "secondary"
    needs: str | None = None
    min_amount: int | None = None
    max_amount: int | None = None
    max_cards: int | None = None

    @property
    def action(self) -> str:
        """The move's code on the button (`bot.core.codec`)."""
        return codec.code(self.move)


@dataclass
class Note:
    """One message before it is put into words: to the channel (`to` is None) or one seat.

    `table` asks for the table's state message (with the turn buttons) to be sent or edited.
    A public note is a move (its lines go into the table's move log, shown in the table message)
    unless `announce` is set: then it is an announcement people should be notified of (a table
    opening or closing, a hand or round starting, its result, a time-out), a message of its own.
    `hand` (private notes only) is the id of the hand or round the note shows the player's cards
    or tiles of: the item carries that hand's slot, so an adapter may edit the player's previous
    message about it; one-off notices have none.
    """

    lines: list[Msg]
    to: Seat | None = None
    table: bool = False
    buttons: list[ButtonSpec] = field(default_factory=list)  # private turn buttons (Okey tiles)
    picture: Sketch | None = None  # public: from view(None) only; private: that seat's own view
    announce: bool = False
    hand: str | None = None
    new_hand: bool = False  # a hand or round starts here: the move log starts afresh
    picker: Picker | None = None  # private: the choices its buttons offer, as data (101's add)
    prompt: Prompt | None = None  # private: a question for the player, as data (`Prompt`)


DEFAULT_AWAY_LIMIT = 3  # the `away` house option: hands (poker) or rounds (Okey) away, then gone


def seated_computers(snapshot: dict[str, Any]) -> int:
    """How many computer players a table's stored snapshot seats."""
    return sum(1 for seat in snapshot.get("seats", ()) if seat.get("bot"))


@dataclass
class Step:
    """Everything one accepted command changes, persisted in one commit before replying."""

    notes: list[Note] = field(default_factory=list)
    transfers: list[Transfer] = field(default_factory=list)
    results: list[GameResult] = field(default_factory=list)
    penalties: list[PenaltyEntry] = field(default_factory=list)
    seeds: list[SeedRecord] = field(default_factory=list)
    # hands or rounds dealt in this step: their `games.history.Setup` (as a dict) and id, logged
    # with the action so that `/replay` and `/export` can play them again
    deals: list[dict[str, Any]] = field(default_factory=list)
    status: str | None = None  # "closed" when the table ends
    action: dict[str, Any] | None = None  # what goes into the action log
    seat: int | None = None
    player_id: int | None = None
    # a private answer that changes nothing (a warning, a picker): not committed, so the turn's
    # nonce, its deadline and the table message stay as they were and nobody else can tell
    answer_only: bool = False
    # the step seats a computer player: the community's limit, counted in the commit
    computers: ComputerLimit | None = None
    # what a wallet short of the chips the step moves is told (a computer's: its bankroll)
    funds_refusal: str = "err.funds"

    def say(self, key: str, **params: Any) -> None:
        """Add a public move line (it goes into the table's move log)."""
        self.notes.append(Note([Msg(key, params)]))

    def announce(self, key: str, new_hand: bool = False, **params: Any) -> None:
        """Add a public announcement line (a message of its own in the channel); `new_hand`:
        it starts a hand or round, whose moves the move log shows from now on."""
        self.notes.append(Note([Msg(key, params)], announce=True, new_hand=new_hand))

    def tell(self, seat: Seat, key: str, **params: Any) -> None:
        """Add a private line for one seat."""
        self.notes.append(Note([Msg(key, params)], to=seat))

    def record_seed(self, record: SeedRecord) -> None:
        """Add a hand's seed record; a later record of the same hand (its seed revealed when it
        ends in the step that dealt it) replaces the earlier one, as the store takes each hand
        once per commit."""
        self.seeds = [s for s in self.seeds if s.hand_id != record.hand_id]
        self.seeds.append(record)

    def show_table(self) -> None:
        """Ask for the table message to be refreshed."""
        self.notes.append(Note([], table=True))


def spec_for(specs: list[ActionSpec], kind: str) -> ActionSpec | None:
    """The spec of `kind` among `specs`, or None."""
    return next((s for s in specs if s.kind == kind), None)


def iso(moment: datetime | None) -> str | None:
    """A datetime as ISO text for snapshots."""
    return None if moment is None else moment.isoformat()


def from_iso(text: str | None) -> datetime | None:
    """Parse `iso` output."""
    return None if text is None else datetime.fromisoformat(text)


@dataclass(frozen=True)
class Who:
    """The person behind a command or press, as the table service knows them."""

    player_id: int
    user_id: str
    name: str
    locale: str
    is_moderator: bool = False
    symbols: bool = False  # `/tiles symbols`: their own tile pictures carry a shape per colour


COMPUTER_PREFIX = "bot-"  # the user id of every computer player starts so (`Accounts.computer`)


def is_computer(who: Who | Seat) -> bool:
    """True when `who` (a person behind a command, or a seat) is a computer player."""
    return (isinstance(who, Seat) and who.bot) or who.user_id.startswith(COMPUTER_PREFIX)


MOVE_LOG = 5  # public move lines the table message shows


@dataclass
class TableOutcome:
    """Where a tournament table stands: `order` lists the player ids best first (the final
    order once `finished`; while playing, the current order); `figures` holds each player's
    numbers for the standings (Okey: `penalty`, `finishes`; poker: `chips`)."""

    finished: bool
    order: list[int]
    figures: dict[int, dict[str, int]] = field(default_factory=dict)


class TableSession:
    """The common state of one table: seats, phase, locale, the history of dealt hands and the
    move log (the last `MOVE_LOG` public move lines as messages, newest last: each surface puts
    them into its own language).

    Subclasses add the game: `poker.PokerSession` and `okey.OkeySession`. The table service
    sets `now` and `seeds` before each use; neither is stored.
    """

    game: str = ""
    group: str = ""  # the command group: "poker" or "okey"
    max_seats: int = 2
    begin_sub = "start"  # the sub-command that begins a hand or match (a rematch's start)

    def __init__(self, locale: str, options: dict[str, Any], created: datetime) -> None:
        self.table_id = 0  # set by the table service from the stored record
        self.locale = locale
        self.options = options
        self.seats: list[Seat] = []
        self.phase = "waiting"  # "waiting" for players, "playing", or "closed"
        self.created = created
        self.deadline: datetime | None = None  # when the player to act times out
        # whose turn `deadline` times and since when (`bot.core.table.speed`)
        self.turn_of: int | None = None
        self.turn_from: datetime | None = None
        self.hand_no = 0
        self.hands: dict[str, dict[str, Any]] = {}  # hand id -> what /verify needs
        self.nonce = ""  # changes with every accepted step: stale buttons are refused
        self.touched = created  # time of the last accepted step
        self.now: datetime = created
        self.seeds: Any = None
        self.pictures = False  # set by the table service from CoreConfig.pictures
        self.moves: list[KeptLine] = []  # the move log, newest last
        self.pending: dict[str, Any] = {}  # house rule changes for the next hand or match
        # the public end of the previous hand or round (`bot.core.table.last`), kept until the
        # next one ends
        self.last: dict[str, Any] | None = None
        # a person (not a computer player) acting here: when they last did, and how many hands
        # or rounds ended since (`abandoned`); the limits are the service's (`CoreConfig`)
        self.heard = created
        self.quiet = 0
        self.spoke = False  # a person acted in the running hand or round
        self.stood_in = False  # a computer player moved in it (for a bot or an away seat)
        self.idle_hands = 0  # 0: no limit (set by the table service)
        self.idle_seconds = 0.0
        # "Play again" (`bot.core.table.rematch`): the standing offer, the seats of the last
        # hand or round dealt, and how long an offer stands (set by the table service)
        self.rematch: dict[str, Any] | None = None
        self.company: list[dict[str, Any]] = []
        self.rematch_seconds = 600.0

    # --- snapshot -------------------------------------------------------------------------------

    def base_dict(self) -> dict[str, Any]:
        """The common part of the snapshot."""
        return {
            "game": self.game,
            "locale": self.locale,
            "options": json_copy(self.options),  # the snapshot never shares the live state
            "seats": [s.to_dict() for s in self.seats],
            "phase": self.phase,
            "created": iso(self.created),
            "deadline": iso(self.deadline),
            "turn_of": self.turn_of,
            "turn_from": iso(self.turn_from),
            "hand_no": self.hand_no,
            "hands": dict(self.hands),  # (a hand's entry is never changed once written)
            "nonce": self.nonce,
            "touched": iso(self.touched),
            "moves": json_copy(self.moves),
            "pending": dict(self.pending),
            "heard": iso(self.heard),
            "quiet": self.quiet,
            "spoke": self.spoke,
            "stood_in": self.stood_in,
            "last": json_copy(self.last),
            "rematch": json_copy(self.rematch),
            "company": json_copy(self.company),
        }

    def load_base(self, data: dict[str, Any]) -> None:
        """Restore the common part of the snapshot."""
        self.seats = [Seat.from_dict(s) for s in data["seats"]]
        self.phase = data["phase"]
        self.deadline = from_iso(data["deadline"])
        self.turn_of = data.get("turn_of")  # (snapshots from before table speeds have none)
        self.turn_from = from_iso(data.get("turn_from"))
        self.hand_no = data["hand_no"]
        self.hands = data["hands"]
        self.nonce = data["nonce"]
        self.touched = from_iso(data["touched"]) or self.created
        # snapshots from before the log have none, and from before messages text lines
        self.moves = json_copy(data.get("moves", []))
        self.pending = dict(data.get("pending", {}))  # nor pending house rules
        # nor when a person last acted (counted from the last step, then)
        self.heard = from_iso(data.get("heard")) or self.touched
        self.quiet = int(data.get("quiet", 0))
        self.spoke = bool(data.get("spoke", False))
        self.stood_in = bool(data.get("stood_in", False))
        self.last = json_copy(data.get("last"))  # nor the previous hand's end
        self.rematch = json_copy(data.get("rematch"))  # nor a rematch offer
        self.company = json_copy(data.get("company", []))

    def log_moves(self, lines: list[Msg], fresh: bool = False) -> None:
        """Append public move lines to the move log (`fresh`: to an empty one), keeping the
        newest `MOVE_LOG`."""
        kept = [*([] if fresh else self.moves), *(line.to_dict() for line in lines)]
        self.moves = kept[-MOVE_LOG:]

    # --- tables nobody plays ---------------------------------------------------------------------

    def hear(self, now: datetime) -> None:
        """A person (not a computer player) acted here now."""
        self.heard, self.quiet, self.spoke = now, 0, True

    def count_quiet(self, step: Step | None = None) -> None:
        """A hand or round has ended: it was a quiet one (`abandoned`) when computer players
        moved in it and no person did (a hand played out with everyone all-in is not)."""
        if self.stood_in and not self.spoke:
            self.quiet += 1
        self.spoke = self.stood_in = False
        self.count_away(step)

    def count_away(self, step: Step | None) -> None:
        """Kept seats count one more hand or round away; one at the `away` limit leaves as if
        they asked to while a person is still here (else `abandoned` ends the table), never at
        a tournament table. `step`: the announcement, and `/history`'s mark on their result."""
        here = any(not s.bot and not s.away and not s.leaving for s in self.seats)
        limit = int(self.options.get("away", DEFAULT_AWAY_LIMIT))  # (a table from before it)
        for seat in [s for s in self.seats if s.kept and not s.leaving]:
            for result in [] if step is None else step.results:
                if result.player_id == seat.player_id:
                    result.detail["kept"] = True
            seat.away_hands += 1
            if here and seat.away_hands >= limit and not self.options.get("tournament"):
                self.mark_leaving(seat, kicked=False)
                if step is not None:
                    step.announce(f"kept.left.{self.group}", name=seat.name, count=seat.away_hands)

    def people_left(self) -> bool:
        """True when a person still plays on: a seat that is not a computer and not leaving."""
        return any(not s.bot and not s.leaving for s in self.seats)

    def people_to_play(self) -> bool:
        """True when a person would play the next hand or round (`people_left` by default;
        poker: one with chips). Without one the next hand is not dealt, but the table stays
        open while a person sits at it (they may buy chips again)."""
        return self.people_left()

    def abandoned(self) -> str | None:
        """Why the next hand or round must not be dealt, as the key of the table's last
        message: nobody but computer players is left (`table.only_computers`), or no person has
        acted for `idle_hands` hands or rounds or for `idle_seconds` (`table.abandoned`); None
        to deal on. A tournament table plays to its end (its stakes are the tournament's)."""
        if self.options.get("tournament"):
            return None
        if not self.people_left():
            return "table.only_computers"
        if self.idle_hands and self.quiet >= self.idle_hands:
            return "table.abandoned"
        if self.idle_seconds and (self.now - self.heard).total_seconds() >= self.idle_seconds:
            return "table.abandoned"
        return None

    def abandon(self, step: Step, key: str) -> None:
        """Close the table between hands or rounds because of `abandoned`: every player gets
        their chips in it back (`refunds`), and the channel is told why (`key`). Games refine
        it (poker: a carried pot's shares are results too; Okey: the match is dropped)."""
        for pid, amount in sorted((self.refunds() or {}).items()):
            step.transfers.append(
                Transfer(escrow(self.table_id), wallet(pid), amount, "table closed: refund")
            )
        step.status = "closed"
        step.announce(key)

    # --- seats ----------------------------------------------------------------------------------

    def find(self, player_id: int) -> int | None:
        """Index of the seat held by `player_id`, or None."""
        return next((i for i, s in enumerate(self.seats) if s.player_id == player_id), None)

    def find_name(self, text: str) -> int | None:
        """Index of the seat whose name or user id matches `text` (case-insensitive), or None."""
        want = text.strip().lstrip("@").casefold()
        for i, seat in enumerate(self.seats):
            if want in (seat.name.casefold(), seat.user_id.casefold()):
                return i
        return None

    def hand_id(self) -> str:
        """The id of the current hand or round, as /verify takes it: `<table>-<number>`."""
        return f"{self.table_id}-{self.hand_no}"

    def tell_hand(self, seat: Seat, lines: list[Msg], **extra: Any) -> Note:
        """A private note showing `seat` their cards or tiles of the current hand or round
        (carrying its slot); `extra` are further `Note` fields (buttons, picture)."""
        return Note(lines, to=seat, hand=self.hand_id(), **extra)

    def remember_hand(self, info: dict[str, Any], keep: int = 200) -> None:
        """Keep what /verify needs about the current hand (the last `keep` hands)."""
        self.hands[self.hand_id()] = info
        while len(self.hands) > keep:
            del self.hands[next(iter(self.hands))]
        # who plays it: the players a rematch offers to play again (`bot.core.table.rematch`);
        # a hand or round dealt takes any offer's place
        self.rematch = None
        self.company = [s.to_dict() for i, s in enumerate(self.seats) if self.seat_in_play(i)]

    def rematch_cost(self) -> int:
        """The chips a player needs to play again: poker's default buy-in, Okey's stake."""
        return int(self.options.get("default_buy_in", self.options.get("stake", 0)))

    # --- what each game provides ----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole snapshot (JSON-safe)."""
        raise NotImplementedError

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableSession:
        """Rebuild a session from `to_dict` output."""
        raise NotImplementedError

    def command(self, who: Who, sub: str, args: tuple[str, ...]) -> Step:
        """Handle a table sub-command (`join`, `start`, an action typed as a command ...)."""
        raise NotImplementedError

    def act(self, who: Who, move: Move) -> Step:
        """Make a typed move (a pressed button, a web page's move; `Core.act`)."""
        raise NotImplementedError

    def actor(self) -> int | None:
        """Index of the seat to act, or None."""
        raise NotImplementedError

    def buttons(self) -> list[ButtonSpec]:
        """The turn buttons of the seat to act (empty when nobody is to act)."""
        raise NotImplementedError

    def table_lines(self) -> list[Msg]:
        """The public table message: players, chips, pot, whose turn."""
        raise NotImplementedError

    def private_lines(self, index: int, sub: str, args: tuple[str, ...]) -> list[Msg]:
        """What only the player at seat `index` may see: `hand`/`rack` (their cards or tiles) or
        `arrange` (Okey: the rack sorted into melds)."""
        raise NotImplementedError

    def add_bot(self, bot: Who, args: tuple[str, ...]) -> Step:
        """Seat a computer player."""
        raise NotImplementedError

    def wants_action(self, who: Who, word: str) -> bool:
        """True when `word` (e.g. `open`) is a move `who` may make now rather than a command
        to open a new table."""
        return False

    @classmethod
    def verify_lines(cls, info: dict[str, Any], seed_hex: str, posted_hash: str) -> list[Msg]:
        """Recompute a finished hand's deal from its revealed seed, for `/verify`."""
        raise NotImplementedError

    def auto_move(self, index: int, afk: bool) -> Step:
        """Let the computer act for seat `index` (a bot seat, an away player, or a time-out)."""
        raise NotImplementedError

    def outcome(self) -> TableOutcome | None:
        """A tournament table's standing (see `TableOutcome`); None at a table outside any
        tournament (`options["tournament"]` unset)."""
        return None

    def tournament_view(self) -> TournamentView | None:
        """What the table's page shows of its tournament (level, standing); None outside one."""
        return None

    def refunds(self) -> dict[int, int] | None:
        """Chips each player gets back if the table is reset now (None: let storage compute)."""
        raise NotImplementedError

    def close(self) -> Step:
        """End the table now, paying every player back their chips in it."""
        raise NotImplementedError

    def seat_in_play(self, index: int) -> bool:
        """True when the seat at `index` takes part in the running hand or match, so that it
        can only be marked as leaving (and is removed once that ends)."""
        raise NotImplementedError

    def mark_leaving(self, seat: Seat, kicked: bool) -> None:
        """Mark a seat in play as leaving (`kicked`: a moderator's decision)."""
        raise NotImplementedError

    def leaving_line(self, who: Who, seat: Seat) -> Msg:
        """The public line saying that `who` (at `seat`) leaves once the hand or match ends."""
        raise NotImplementedError

    def _remove(self, index: int, step: Step) -> None:
        """Take the seat at `index` away now, paying out what is theirs and closing the table
        when it was the last one."""
        raise NotImplementedError

    def _leave(self, who: Who) -> Step:
        """`who` leaves: at once when not in play, else marked to go when the play ends."""
        index = self.find(who.player_id)
        if index is None:
            raise Refusal("err.not_seated")
        step = Step(action={"kind": "leave"}, seat=index)
        seat = self.seats[index]
        if self.seat_in_play(index):
            self.mark_leaving(seat, kicked=False)
            step.notes.append(Note([self.leaving_line(who, seat)]))
        else:
            self._remove(index, step)
            self._left_to_computers(step)
        step.show_table()
        return step

    def _left_to_computers(self, step: Step) -> None:
        """After a seat was taken away between hands: when only computer players are left, the
        table closes (they would only play each other)."""
        if (
            step.status != "closed"
            and self.seats
            and not self.running()
            and not self.options.get("tournament")
            and not self.people_left()
        ):
            self.abandon(step, "table.only_computers")

    def kick(self, index: int) -> Step:
        """Remove the player at seat `index` (a moderator's decision), paying out what is theirs;
        a seat in play is marked to go when the play ends."""
        seat = self.seats[index]
        step = Step(seat=index)
        step.say("poker.kicked", name=seat.name)
        if self.seat_in_play(index):
            self.mark_leaving(seat, kicked=True)
        else:
            self._remove(index, step)
            self._left_to_computers(step)
        step.show_table()
        return step

    def rules_lines(self) -> list[Msg]:
        """The table's rule options, for the `rules` command."""
        raise NotImplementedError

    def running(self) -> bool:
        """True while a hand (poker) or match (Okey) is being played."""
        raise NotImplementedError

    def rules_problem(self, options: dict[str, Any]) -> Refusal | None:
        """Why these options cannot be in force at this table now (e.g. a 32-card deck with
        more players seated than it deals to), or None."""
        return None

    def set_rules(self, who: Who, words: tuple[str, ...]) -> Step:
        """A moderator's `rules set name=value ...`: in force at once between hands, else
        pending until the next hand or match (`house.change`)."""
        raise NotImplementedError

    async def prepare(self, player_id: int | None) -> None:
        """Work out, off the event loop, what the next message about this table may show and
        is costly to compute (Açık poker's odds; `player_id`: the asker, for their own); the
        table service awaits it under the table's lock before it builds that message."""
        return None

    def table_sketch(self) -> Sketch | None:
        """The public table picture (from `view(None)` only) while a hand or round is played,
        when pictures are on; else None."""
        return None

    def private_buttons(self, index: int) -> list[ButtonSpec]:
        """The private turn buttons of the seat at `index` right now (Okey: a button per tile
        while they must discard), so that a private message about their hand replacing an
        earlier one keeps its buttons; none by default."""
        return []

    def private_sketch(self, index: int, sub: str, args: tuple[str, ...]) -> Sketch | None:
        """The picture for `private_lines(index, sub, args)` (the seat's own cards or tiles),
        when pictures are on; else None. Call it after `private_lines` accepted the words."""
        return None

    def draws_for(self, seat: Seat | None) -> bool:
        """True when a picture for `seat` (None: the channel) is worth building: pictures are on
        and nobody draws for a computer player."""
        return self.pictures and (seat is None or not seat.bot)

    def back(self, who: Who) -> Step:
        """An away player is back: the computer stops playing for them."""
        index = self.find(who.player_id)
        if index is None:
            raise Refusal("err.not_seated")
        if not self.seats[index].away:
            raise Refusal("err.not_away")
        step = Step(action={"kind": "back"}, seat=index)
        step.say("turn.back", name=self.seats[index].name)
        step.show_table()
        return step

    def auto_seat(self) -> int | None:
        """Index of the seat to act when the computer plays it (a bot or an away player)."""
        index = self.actor()
        if index is None:
            return None
        seat = self.seats[index]
        return index if seat.bot or seat.away or seat.leaving else None
