"""What flows between the adapters and the core: commands and presses in, outgoing items out."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


@dataclass(frozen=True)
class Command:
    """A slash command typed by a user in a channel, e.g. `/poker open turkish 10`."""

    platform: str
    channel_id: str
    user_id: str
    user_name: str
    name: str
    args: tuple[str, ...] = ()
    locale: str | None = None


@dataclass(frozen=True)
class Press:
    """A button press: table id, action and the turn nonce the button was drawn with."""

    platform: str
    channel_id: str
    user_id: str
    user_name: str
    table_id: str
    action: str
    nonce: str
    args: tuple[str, ...] = ()
    locale: str | None = None


@dataclass(frozen=True)
class Button:
    """A button on a message; `custom_id` is what the platform sends back when it is pressed."""

    label: str
    table_id: str
    action: str
    nonce: str
    style: str = "secondary"

    @property
    def custom_id(self) -> str:
        """Compact id carried by the platform: `table:action:nonce`."""
        return f"{self.table_id}:{self.action}:{self.nonce}"


class OutKind(Enum):
    """Where an outgoing item goes."""

    PUBLIC = "public"  # a new message in the channel
    PRIVATE = "private"  # only to one user (ephemeral reply or direct message)
    EDIT_TABLE = "edit_table"  # edit the table's channel message
    ERROR = "error"  # a refusal shown only to the sender


@dataclass(frozen=True)
class Outgoing:
    """One message the adapter must deliver."""

    kind: OutKind
    text: str
    channel_id: str | None = None
    user_id: str | None = None
    table_id: str | None = None
    picture: bytes | None = None
    buttons: tuple[tuple[Button, ...], ...] = field(default_factory=tuple)
