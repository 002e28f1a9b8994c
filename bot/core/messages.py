"""What flows between the adapters and the core: commands and presses in, outgoing items out.

Buttons: `Button.custom_id` is `table:action:nonce` (at most 64 bytes, so it fits Telegram callback
data and Discord custom ids). An adapter turns a pressed id back into a `Press` with
`parse_custom_id`. Some actions need more input before they can be sent: `Button.needs` is
`"amount"` (bet/raise: ask for a number and put it in `Press.args`, e.g. `("40",)`) or `"cards"`
(poker draw: ask which cards to exchange and put them in `Press.args`, e.g. `("Ah", "7c")`; no
cards means standing pat).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from bot.core.sketch import Sketch

MAX_CUSTOM_ID = 64
NEEDS_AMOUNT = "amount"
NEEDS_CARDS = "cards"
TILES = "tiles"
MELDS = "melds"  # a 101 picker of the melds on the table a tile fits (`Pick.code`: the index)


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


def parse_custom_id(custom_id: str) -> tuple[str, str, str] | None:
    """Split `table:action:nonce` into its parts; None when the id is not one of ours."""
    parts = custom_id.split(":")
    if len(parts) != 3 or not all(parts) or len(custom_id) > MAX_CUSTOM_ID:
        return None
    return parts[0], parts[1], parts[2]


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
    `mention` (PUBLIC only): the user the message calls (`Mention`); Discord and Telegram make
    the name it starts with a mention that notifies them, other front ends show the text as is.
    `web_url` (PRIVATE only): the user's own signed address of the live web table the text
    gives (`/table web`), so that a front end may offer it as a button (Telegram: a web-app
    button, which opens the page inside the chat).
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
    mention: Mention | None = None
