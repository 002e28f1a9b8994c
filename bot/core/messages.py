"""What flows between the adapters and the core: commands and presses in, outgoing items out.

Moves: a front end hands the core a typed move (`bot.core.moves.Move`) with `Core.act`, or a
pressed button's id (`Press`, decoded by the core's `bot.core.codec.MoveCodec`). Buttons:
`Button.custom_id` is `table:action:nonce` (the codec's encoding of the move, at most 64 bytes, so
it fits Telegram callback data and Discord custom ids). Some buttons need more input first:
`Button.needs` is `"amount"` (bet/raise: ask for a number and put it in `Press.args`, e.g.
`("40",)`) or `"cards"` (poker draw: ask which cards to exchange and put them in `Press.args`,
e.g. `("Ah", "7c")`; no cards means standing pat). A front end that does not know the button
(another process drew it) sends the move (`Ask`) to `Core.act` and gets the question back as
data (`Prompt`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from bot.core.codec import MAX_BUTTON_BYTES, codec
from bot.core.moves import Action, ConfirmDiscard, Move, PickMeld
from bot.core.sketch import Sketch

MAX_CUSTOM_ID = MAX_BUTTON_BYTES  # a button id: Telegram callback data and Discord custom ids
NEEDS_AMOUNT = "amount"
NEEDS_CARDS = "cards"
TILES = "tiles"
MELDS = "melds"  # a 101 picker of the melds on the table a tile fits (`Pick.code`: the index)
WARNING = "warning"  # a 101 discard that costs +101: made only once confirmed


@dataclass(frozen=True)
class Command:
    """A slash command typed by a user in a channel, e.g. `/poker open turkish 10`.

    `is_moderator` is set by the adapter from the platform's permissions (Discord: Manage Server,
    Manage Messages or the configured role; Telegram: chat administrator). `community` is where
    the channel belongs (Discord: the server id; Telegram: the group's chat id; the console:
    `"console"`), None outside any (a direct message): tables opened there record it with their
    results, and `/leaderboard` shows it by default.
    """

    platform: str
    channel_id: str
    user_id: str
    user_name: str
    name: str
    args: tuple[str, ...] = ()
    locale: str | None = None
    is_moderator: bool = False
    community: str | None = None


@dataclass(frozen=True)
class Sender:
    """Who makes a move (`Core.act`) and from where: as for `Command` (`channel_id` the chat
    of the table; a web page sends `"web"`)."""

    platform: str
    channel_id: str
    user_id: str
    user_name: str
    locale: str | None = None
    is_moderator: bool = False
    community: str | None = None


@dataclass(frozen=True)
class Press:
    """A button press: table id, action and the turn nonce the button was drawn with;
    `community` as for `Command`."""

    platform: str
    channel_id: str
    user_id: str
    user_name: str
    table_id: str
    action: str
    nonce: str
    args: tuple[str, ...] = ()
    locale: str | None = None
    is_moderator: bool = False
    community: str | None = None

    @property
    def sender(self) -> Sender:
        """Who pressed, and where."""
        return Sender(
            self.platform,
            self.channel_id,
            self.user_id,
            self.user_name,
            self.locale,
            self.is_moderator,
            self.community,
        )

    @property
    def raw(self) -> str:
        """The button id pressed, as `MoveCodec` reads it: `table:action:nonce`."""
        return f"{self.table_id}:{self.action}:{self.nonce}"


@dataclass(frozen=True)
class Button:
    """A button on a message; `custom_id` is what the platform sends back when it is pressed.

    `needs` says what the adapter must ask for before sending the press (`NEEDS_AMOUNT`,
    `NEEDS_CARDS` or None); `min_amount`/`max_amount`/`max_cards` bound the answer.
    """

    label: str
    table_id: str
    action: str
    nonce: str
    style: str = "secondary"
    needs: str | None = None
    min_amount: int | None = None
    max_amount: int | None = None
    max_cards: int | None = None

    @property
    def custom_id(self) -> str:
        """Compact id carried by the platform: `table:action:nonce`."""
        return f"{self.table_id}:{self.action}:{self.nonce}"

    @property
    def move(self) -> Move | None:
        """The move the button stands for (`MoveCodec`), None when its action is no move."""
        return codec.move_of(self.action)


@dataclass(frozen=True)
class Pick:
    """One card or tile a picker offers: `code` in notation (`Ah`, `Td`; `R5`, `F`), what a press
    or command takes back; `label` how to show it on a button (`A♥`, `10♦`; `R5`)."""

    code: str
    label: str


@dataclass(frozen=True)
class Picker:
    """The cards or tiles a private item shows its user as their own, as data for a front end's
    picker (a draw select, the tiles of an autocomplete): `kind` is `NEEDS_CARDS` (poker cards),
    `TILES` (an Okey rack, or the 101 tiles that can be added to the table) or `MELDS` (the 101
    melds on the table one tile fits: `code` the meld's index, `label` its tiles), `choices` in
    the order the text shows them."""

    kind: str
    choices: tuple[Pick, ...]

    @property
    def codes(self) -> tuple[str, ...]:
        """The choices' codes, in order."""
        return tuple(pick.code for pick in self.choices)


@dataclass(frozen=True)
class Prompt:
    """A question the core asks one player before a move is made, as data, so that any front
    end (any process) can ask it its own way: `kind` is `NEEDS_AMOUNT` (the total stake of
    `action`, `open`/`bet`/`raise`, between `min_amount` and `max_amount`), `NEEDS_CARDS`
    (which of `choices`, the player's own cards, to exchange: at most `max_cards`, none
    stands pat), `TILES` (101: which tile of `choices` to add to the table), `MELDS` (101:
    which meld of `choices` `tile` goes onto) or `WARNING` (101: discarding `tile` costs
    +101). The answer is a move at `table_id` with the turn's `nonce` (`answer`, `confirm`).
    A prompt showing cards or tiles only ever goes to their holder."""

    kind: str
    table_id: str
    nonce: str
    action: str
    min_amount: int | None = None
    max_amount: int | None = None
    max_cards: int | None = None
    choices: tuple[Pick, ...] = ()
    tile: str | None = None

    def answer(self, *words: str | int) -> Move:
        """The move that answers the prompt: an amount, the codes of the chosen cards (none:
        stand pat), the tile to add or the meld's index; `confirm` for a warning."""
        if self.kind == NEEDS_AMOUNT:
            return Action(self.action, amount=int(words[0]) if words else None)
        if self.kind == NEEDS_CARDS:
            return Action("draw", cards=tuple(str(w) for w in words))
        if self.kind == TILES:
            return PickMeld(str(words[0]) if words else None)
        if self.kind == MELDS and self.tile is not None and words:
            return Action("add", cards=(self.tile,), amount=int(words[0]))
        return self.confirm()

    def confirm(self) -> Move:
        """The warned move made anyway (`WARNING`)."""
        if self.kind != WARNING or self.tile is None:
            raise ValueError("only a warning is confirmed")
        return ConfirmDiscard(self.tile)


class OutKind(Enum):
    """Where an outgoing item goes."""

    PUBLIC = "public"  # a new message in the channel
    PRIVATE = "private"  # only to one user (ephemeral reply or direct message)
    EDIT_TABLE = "edit_table"  # edit the table's channel message (table_id says which)
    ERROR = "error"  # a refusal shown only to the sender


@dataclass(frozen=True)
class Mention:
    """A user a channel message calls by name (their turn at a relaxed table): the message's
    text starts with `name`, which adapters turn into a mention that notifies the user."""

    user_id: str
    name: str


@dataclass(frozen=True)
class TableLink:
    """A table a tournament's message names, for a front end to link its live web page:
    `table_id`, and `number` its number in the tournament's stage."""

    table_id: str
    number: int


@dataclass(frozen=True)
class Outgoing:
    """One message the adapter must deliver.

    PUBLIC and EDIT_TABLE go to `channel_id` (EDIT_TABLE replaces the adapter's last message for
    `table_id`, or posts one); PRIVATE and ERROR go to `user_id` only. `picture` is PNG bytes to
    attach (a PRIVATE item's picture shows that user's own cards or tiles). `sketch` is the core's
    own: a picture not drawn yet; `Core` draws it into `picture` before answering, so adapters
    always see None there.

    A PUBLIC item is an announcement people should be notified of (a table opening or closing, a
    hand or round starting, its result, a time-out); moves go into the table message instead.
    `fresh` (EDIT_TABLE only): post the table message anew at the bottom of the channel and retire
    the old one (delete it, or at least take its buttons away). `slot` (PRIVATE only): names the
    player's current private message about one hand or round (`"<table>:<hand id>"`); an adapter
    may edit the user's previous message of the same slot instead of sending a new one. Items
    without a slot are always new messages. `version` (EDIT_TABLE only): the committed table
    version the state shows, when known; adapters store it with the table message they post, so
    that several processes agree on which message shows the table (an older state never wins).
    `attachment` is a file to send with the text: (file name, content), e.g. a hand's export;
    adapters send it as a document (Discord: a file on the message; Telegram: sendDocument;
    console: written to a file whose path is printed).
    `picker` (PRIVATE only): the user's own cards or rack that the text shows, as data
    (`/poker hand`, `/okey rack`), so that a front end offers them without reading the text.
    `prompt` (PRIVATE or ERROR, to one user): a question to ask them before the move is made
    (`Prompt`: an amount, the cards to exchange, a +101 warning, the meld a tile goes onto);
    the text says the same in words for a front end that does not ask.
    `mention` (PUBLIC only): the user the message calls (`Mention`); Discord and Telegram make
    the name it starts with a mention that notifies them, other front ends show the text as is.
    `web_url` (PRIVATE only): the user's own signed address of the live web table the text
    gives (`/table web`), so that a front end may offer it as a button (Telegram: a web-app
    button, which opens the page inside the chat).
    `tables` (a tournament's EDIT_TABLE): its tables playing now (`TableLink`), so that a front
    end may offer each one's live web page (Telegram: a button per table opening the Mini App).
    """

    kind: OutKind
    text: str
    channel_id: str | None = None
    user_id: str | None = None
    table_id: str | None = None
    picture: bytes | None = None
    buttons: tuple[tuple[Button, ...], ...] = field(default_factory=tuple)
    sketch: Sketch | None = field(default=None, compare=False, repr=False)
    fresh: bool = False
    slot: str | None = None
    version: int | None = None
    attachment: tuple[str, bytes] | None = None
    picker: Picker | None = None
    web_url: str | None = None
    tables: tuple[TableLink, ...] = ()
    prompt: Prompt | None = None
    mention: Mention | None = None
