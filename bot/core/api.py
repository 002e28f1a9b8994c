"""The one contract between the core and every front end (console, Discord, Telegram, the web
table to come) and the tests: what a front end may call (`CoreApi`) and the data it gets back.

A front end never parses a text the core wrote and never reaches into the core's internals:

- `handle`, `act`, `press`, `tick`, `start` answer with `Outgoing` items (`bot.core.messages`);
  a private item that shows the asker's own cards or rack carries them as data
  (`Outgoing.picker`), and a question to ask before a move is made comes as data too
  (`Outgoing.prompt`);
- `act` makes a typed move (`bot.core.moves.Move`: the engine's `Action` or a table move);
  `press` takes a chat button's id instead and decodes it with the core's `MoveCodec`;
- `table_info` says what an adapter needs of an open table (its game, language, platform and the
  turn's nonce), from memory;
- `needs_moderator` says whether a command may need the sender's moderator rights, so an adapter
  looks them up on its platform only then (the core still enforces them);
- `table_view` is a typed view of a table for one viewer: seats, public cards or tiles, the
  viewer's own cards or rack, the moves they may make with their bounds, the turn deadline, the
  last moves and the previous hand's result lines in the language asked for (the viewer's; the
  table message keeps the table's). It
  never holds a card hidden from that viewer; chat text, pictures and any other surface can be
  drawn from it;
- `subscribe` registers a listener told (table id, version) after every committed step, so a
  live surface (the web table) redraws what changed.

`LiveTableApi` adds what the live web table needs besides: many viewers' views of a table from
one read (`table_views`), the reactions as they come (`watch_reactions`), the Okey rack arrangement each player keeps (`arrange_rack`,
`sort_rack`), listening to other processes' commits (`follow`), and the health and size of the
process (`healthy`, `open_tables`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, runtime_checkable

from bot.core.messages import Command, Outgoing, Pick, Picker, Press, Prompt, Sender
from bot.core.moves import Move
from storage import Unavailable

__all__ = [
    "ActionView",
    "CoreApi",
    "LastHand",
    "LastSeat",
    "LiveTableApi",
    "MeldView",
    "Move",
    "Pick",
    "Picker",
    "Prompt",
    "ReactionListener",
    "RematchView",
    "SeatView",
    "Sender",
    "TableInfo",
    "TableView",
    "VersionListener",
]

# told (table id, version) after a committed step of that table (called on the event loop,
# under the table's lock: it must only schedule work, never await or block)
VersionListener = Callable[[str, int], None]
# told (table id, seat index, reaction value) when a seated player reacts (`bot.core.reactions`);
# called on the event loop: it must only schedule work
ReactionListener = Callable[[str, int, str], None]
RACK_SLOTS = 30  # an Okey rack on the web table: two rows of 15 slots


@dataclass(frozen=True)
class RematchView:
    """A stopped table's "Play again" offer as one viewer sees it (`bot.core.table.rematch`):
    `pressed` of `total` players have pressed, `until` it stands; `mine` the viewer is one of
    its players, `done` they have pressed."""

    pressed: int
    total: int
    until: datetime | None = None
    mine: bool = False
    done: bool = False


@dataclass(frozen=True)
class TableInfo:
    """An open table as an adapter needs it: `game` (`turkish`, `acik`, `okey`), `group`
    (`poker` or `okey`: the command group of its moves), `locale` (the language its table
    message is written in), `platform`, and `nonce`, the current turn's (a button carrying
    another one is stale)."""

    table_id: str
    platform: str
    game: str
    group: str
    locale: str
    nonce: str


@dataclass(frozen=True)
class ActionView:
    """One kind of move the viewer may make now, with its limits: `kind` as in
    `games.base.Action` (`check`, `bet`, `raise`, `draw`, `take`, `discard`, ...); the amount a
    bet or raise brings the stake to lies between `min_amount` and `max_amount`; a draw takes at
    most `max_cards` cards; an Okey take names one of `sources` (`stock`, `discard`)."""

    kind: str
    min_amount: int | None = None
    max_amount: int | None = None
    max_cards: int | None = None
    sources: tuple[str, ...] = ()


@dataclass(frozen=True)
class SeatView:
    """One seat as everyone sees it.

    `chips`: a poker player's chips in front of them (their stack in the running hand, else
    their chips behind); `stake`: what they put in this betting round; `up`: cards every viewer
    sees (Açık poker's up cards); `down`: how many cards or tiles they hold that others do not
    see; `drew`: Türk pokeri, how many they exchanged this hand (None before the draw);
    `discards`: Okey, their discard pile, newest last; `points`: Okey, their penalty total in
    the match. `in_play`: dealt into the running hand or match. `kept`: away, and the computer
    plays the seat for them ("playing for {name}", `bot.core.table.kept`)."""

    name: str
    user_id: str
    bot: bool = False
    away: bool = False
    kept: bool = False
    leaving: bool = False
    in_play: bool = False
    dealer: bool = False
    acting: bool = False
    folded: bool = False
    all_in: bool = False
    chips: int | None = None
    stake: int = 0
    up: tuple[str, ...] = ()
    down: int = 0
    drew: int | None = None
    discards: tuple[str, ...] = ()
    points: int | None = None
    # 101 Okey: how the seat opened this round (`series`, `pairs`, None: not yet), the value of
    # a series opening (a pairs opening: how many pairs), and its penalty points this round so
    # far (+101 discards; the round's score once it is over)
    opened: str | None = None
    opening: int | None = None
    penalty: int | None = None
    # the person's skill rating in this game over every community as players see it
    # (docs/ratings.md: `1000 + 40 (mu - 3 sigma)`), `provisional` under 10 rated games; None
    # for a computer player or someone not rated yet (only the live table's views carry it)
    rating: int | None = None
    provisional: bool = False


@dataclass(frozen=True)
class MeldView:
    """A meld lying on a 101 Okey table: `kind` (`run`, `set` or `pair`), its `tiles` in order
    (wild okeys in their places), `owner` the index in `TableView.seats` of who laid it, and its
    `value` (the sum of the numbers its tiles stand for)."""

    kind: str
    tiles: tuple[str, ...]
    owner: int | None
    value: int = 0


@dataclass(frozen=True)
class LastSeat:
    """One player of the previous hand or round as everyone saw them at its end: `seat` their
    index in `TableView.seats` now (None once they left); `shown` the cards they showed at a
    showdown (public by rule; empty for a hand folded, mucked or won without a showdown);
    poker: `delta` the chips they won (+) or lost (-); Okey: `penalty` the round's points
    charged to them and `points` their match total after it; `winner`: they won a pot, or
    finished the round. Okey, at the match's end: `paid` the chips the match paid them (None in
    a tournament, which pays at its own end) and `match_winner` they won it (ties share)."""

    name: str
    user_id: str
    seat: int | None = None
    shown: tuple[str, ...] = ()
    delta: int | None = None
    penalty: int | None = None
    points: int | None = None
    winner: bool = False
    paid: int | None = None
    match_winner: bool = False


@dataclass(frozen=True)
class LastHand:
    """The public end of the previous hand or round, kept until the next one ends (the move
    log starts afresh when the next hand is dealt at once): `lines` its result as the table's
    announcements wrote it, in the language the view was asked in (as `TableView.moves`; a
    snapshot of a version that kept them as text shows them as written, in the table's
    language); `players` in the order they were dealt in.
    Okey: `melds` the finisher's laid-down melds (101 Okey: the melds on the table at the end),
    `rack` the finisher's melds (101 Okey: those on the table they laid) laid out in
    `RACK_SLOTS` slots with the finishing discard last (None: nobody finished), `over` the match
    ended with this round, `indicator` and `okey` the round's, `reason` how the round ended
    (`finished` or `stock_exhausted`; None for poker)."""

    hand_id: str
    lines: tuple[str, ...] = ()
    players: tuple[LastSeat, ...] = ()
    melds: tuple[tuple[str, ...], ...] = ()
    rack: tuple[str | None, ...] | None = None
    over: bool = False
    indicator: str | None = None
    okey: str | None = None
    reason: str | None = None


@dataclass(frozen=True)
class StandingView:
    """One player of a tournament table in the tournament's order (best first): `seat` their
    index in `TableView.seats` (None once out), `value` their tournament chips (a sit-and-go)
    or their penalty total (a knockout's match, lower is better), `place` the place they went
    out in (a sit-and-go), `forfeit` they left the tournament, `advancing` they would go on
    were the match over now (a knockout: the better half of the entrants still in)."""

    name: str
    seat: int | None = None
    value: int = 0
    place: int | None = None
    forfeit: bool = False
    advancing: bool = False


@dataclass(frozen=True)
class TournamentView:
    """What a tournament table shows of its tournament (what its chat messages say): `id`,
    `kind` (`sng`: a poker sit-and-go's one table; `knockout`: an Okey or 101 match of a
    knockout). A knockout: `table` its number in the stage, `round` the round being played (or
    the last one) of the match's `rounds`. A sit-and-go: `level` the running ante level
    (1-based) and its `ante`, `next_ante` the ante of the next level and `next_level` when it
    starts on the server's clock (None once it is due: the next hand deals at `next_ante`),
    `chips` each entrant's starting chips, `entrants` how many started. `standing`: every
    player of the table, best first (a sit-and-go: the eliminated after those still in)."""

    id: int
    kind: str
    table: int | None = None
    round: int | None = None
    rounds: int | None = None
    level: int | None = None
    ante: int | None = None
    next_ante: int | None = None
    next_level: datetime | None = None
    chips: int | None = None
    entrants: int = 0
    standing: tuple[StandingView, ...] = ()


@dataclass(frozen=True)
class TableView:
    """A table as one viewer may see it (a seated player, or anyone else: a spectator).

    `seats` in table order; `me` the viewer's index in it (None: a spectator); `mine` the
    viewer's own cards or rack, in notation (`Ah`, `Td`; `R5`, `F`), and nobody else's;
    `actions` the moves the viewer may make now (empty unless it is their turn); `acting` the
    index of the seat to act and `deadline` when it times out. `stage` is the betting phase
    (`bet1`, `draw`, `bet2`), the Açık street or the Okey turn phase (`take`, `discard`).
    Poker: `pot` (all chips in the middle), `pots` (main pot then side pots), `carried` (a pot
    carried from a hand nobody opened, between hands). Okey: `indicator`, `okey` (the joker),
    `stock` (tiles left); 101 Okey also `melds` (the melds on the table) and `threshold` (what
    an opening by series must reach). `moves` are the last moves as the table message shows
    them, in the language the view was asked in (`table_view`'s `locale`: the viewer's; by
    default the table's, as the table message has them); a line from a snapshot of a version
    that kept them as text reads as it was written, in the table's language. `locale` is the
    table's language whoever looks. `nonce` is the turn's (a move sent with another one is
    stale); `odds` Açık poker's live odds from the public cards, a whole percentage per seat
    (None for a seat out of the hand; empty when the table shows none); `rack` an Okey player's
    own rack as they arranged it, `RACK_SLOTS` slots of a tile or None (empty for anyone else).
    `last` the public end of the previous hand or round (`LastHand`, its `lines` in the view's
    language as `moves`), None before one ended. `tournament` what a tournament's table shows
    of it (`TournamentView`), None at any other table. Besides those lines, the view holds no words:
    names, numbers and codes (`stage`, `reason`, an action's `kind`) that each surface puts
    into its own language. `max_seats` is how many may sit at the table; Okey games also give
    `round_no`, the round being played (1-based; None between matches), and `rounds`, the
    match's length (the Discord Activity's Rich Presence says "round 3/5, 2 seats open")."""

    table_id: str
    game: str
    group: str
    locale: str
    phase: str  # "waiting" for players, "playing", or "closed"
    hand_id: str | None = None
    seats: tuple[SeatView, ...] = ()
    me: int | None = None
    mine: tuple[str, ...] = ()
    actions: tuple[ActionView, ...] = ()
    acting: int | None = None
    deadline: datetime | None = None
    stage: str | None = None
    pot: int = 0
    pots: tuple[int, ...] = ()
    carried: int = 0
    indicator: str | None = None
    okey: str | None = None
    stock: int | None = None
    moves: tuple[str, ...] = ()
    nonce: str = ""
    odds: tuple[int | None, ...] = ()
    rack: tuple[str | None, ...] = ()
    # 101 Okey: the melds lying on the table (their number on the table message is the index
    # + 1) and the value an opening by series must reach
    melds: tuple[MeldView, ...] = ()
    threshold: int | None = None
    last: LastHand | None = None  # the public end of the previous hand or round
    max_seats: int | None = None
    round_no: int | None = None
    rounds: int | None = None
    tournament: TournamentView | None = None  # a tournament table's tournament (level, standing)
    rematch: RematchView | None = None  # "Play again" while a stopped table offers it
    # a private table (`bot.core.table.private`): only invited people sit; `watchers` False:
    # nobody else may watch, and such a viewer's view is `hidden` (nothing of the table in it)
    private: bool = False
    watchers: bool = True
    hidden: bool = False


@runtime_checkable
class CoreApi(Protocol):
    """Everything a front end may ask of the core (`bot.core.app.Core` is the one
    implementation; tests' narrow cores implement it too)."""

    async def start(self) -> list[Outgoing]:
        """Load the open tables and tournaments (after a restart): what to show again."""
        ...

    async def handle(self, command: Command) -> list[Outgoing]:
        """One slash command (or typed line) and what to send."""
        ...

    async def act(self, table_id: str, who: Sender, nonce: str, move: Move) -> list[Outgoing]:
        """One typed move (`bot.core.moves.Move`) by `who` at the table (or tournament)
        `table_id`, made in the turn `nonce`, and what to send: the one way every front end
        plays. A stale nonce, a foreign table or a move that is not legal is refused; a move
        that needs an answer first (an amount, the cards to exchange, a +101 warning, the meld
        a tile goes onto) comes back with the question as data (`Outgoing.prompt`)."""
        ...

    async def press(self, press: Press) -> list[Outgoing]:
        """One button press (its id decoded by `bot.core.codec.MoveCodec`, completed with
        `Press.args`) made as `act` makes the move, and what to send; stale, foreign or forged
        buttons are refused."""
        ...

    async def tick(self, now: datetime | None = None) -> list[Outgoing]:
        """Run the timers (turn time-outs, idle tables, tournaments) and what to send."""
        ...

    async def locale_of(self, platform: str, user_id: str) -> str | None:
        """The user's `/lang` choice (`tr` or `en`), or None; read only."""
        ...

    def needs_moderator(self, name: str, args: tuple[str, ...]) -> bool:
        """Whether the command may need the sender's moderator rights (the adapter then looks
        them up and sets `Command.is_moderator`; the core enforces them)."""
        ...

    async def table_in_channel(self, platform: str, channel_id: str) -> str | None:
        """The id of the open table of a channel of `platform` as the store has it now (what a
        Discord Activity launched in that channel shows), or None (read only)."""
        ...

    async def choose_room(
        self, platform: str, user_id: str, channel_id: str, room: str | None
    ) -> None:
        """Keep `room` (a shared room of `channel_id`, `<channel>#<label>`) as the table
        `user_id` opened the Discord Activity on in that channel, in the store for every process
        and for an hour; None (the channel's own table) forgets it. Never raises."""
        ...

    async def chosen_room(self, platform: str, user_id: str, channel_id: str) -> str | None:
        """The shared room `user_id` last chose in `channel_id` (`choose_room`) while the choice
        holds, else None (read only; the caller checks its table is open)."""
        ...

    def table_info(self, table_id: str) -> TableInfo | None:
        """An open table by the id its buttons carry, as this process last saw it (no store
        read), or None when it is closed or unknown here."""
        ...

    async def table_view(
        self, table_id: str, platform: str, user_id: str, locale: str | None = None
    ) -> TableView | None:
        """The open table as `user_id` of `platform` may see it now, its words (the moves, the
        previous hand's lines) in `locale` (`tr` or `en`: the viewer's language; None: the
        table's), or None (no such open table on that platform)."""
        ...

    def subscribe(self, listener: VersionListener) -> Callable[[], None]:
        """Call `listener(table_id, version)` after every step committed by this process from
        now on; returns the function that unsubscribes it."""
        ...


@runtime_checkable
class LiveTableApi(CoreApi, Protocol):
    """What the live web table asks of the core besides the contract every front end uses."""

    async def table_views(
        self,
        table_id: str,
        platform: str,
        user_ids: Sequence[str | None],
        version: int | None = None,
        locale: str | None = None,
    ) -> dict[str | None, TableView] | None:
        """The open table as each of `user_ids` may see it (None: a spectator), its words (the
        moves, the previous hand's lines) in `locale` (None: the table's language), from one
        read of the store (none when this process holds `version` already); None when there is
        no such open table on that platform. Viewers of several languages take one call each."""
        ...

    async def rematch_offers(
        self, table_id: str, platform: str, user_ids: Sequence[str | None]
    ) -> dict[str, RematchView]:
        """A closed table's standing "Play again" offer (`RematchView`, counts only) for each of
        `user_ids` who was one of its players; nobody else is in the answer (read only)."""
        ...

    async def rematch_table(self, table_id: str, platform: str, user_id: str) -> str | None:
        """The id of the open table in the channel of `table_id` where `user_id` sits now (the
        new table a "Play again" press seated them at), or None (read only)."""
        ...

    async def arrange_rack(
        self, table_id: str, platform: str, user_id: str, slots: Sequence[str | None], locale: str
    ) -> str | None:
        """Keep an Okey player's rack arrangement (`RACK_SLOTS` slots, tiles they hold or None)
        for the round; None when kept, else the refusal in `locale`."""
        ...

    async def sort_rack(
        self, table_id: str, platform: str, user_id: str, mode: str, locale: str
    ) -> str | None:
        """Arrange an Okey player's rack by the solver (`runs` or `pairs`) and keep it; None
        when done, else the refusal in `locale`."""
        ...

    async def tile_symbols_of(self, platform: str, user_id: str) -> bool:
        """Whether the user chose tiles with a shape per colour (`/tiles symbols`, or the page's
        toggle); False for colours or no choice. Read only."""
        ...

    def watch_reactions(self, listener: ReactionListener) -> Callable[[], None]:
        """Call `listener(table_id, seat, reaction)` for every reaction at a table this
        process takes (a seat's index in the table's seats, the reaction's value); returns the
        function that stops it. Reactions are not committed: other processes never hear them."""
        ...

    async def follow(self) -> Callable[[], Awaitable[None]]:
        """Also tell the subscribers of steps other processes commit (PostgreSQL LISTEN);
        returns the coroutine function that stops it."""
        ...

    async def healthy(self) -> bool:
        """Whether the database answers."""
        ...

    def open_tables(self) -> int:
        """How many open tables this process holds."""
        ...


def known_fault(exc: BaseException) -> bool:
    """Whether an error a core call raised (`tick`) is a known fault of the world outside rather
    than a bug: the database away or busy, a connection lost. Worth one log line, no traceback."""
    return isinstance(exc, Unavailable | OSError | TimeoutError)
