"""Shared helpers of the core tests: an injectable clock, command builders and a core factory."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.core.app import Core
from bot.core.config import CoreConfig
from bot.core.messages import Button, Command, Outgoing, OutKind, Press
from bot.core.table.fairness import SeededSource

START = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)


@dataclass
class Clock:
    """A clock the test moves by hand."""

    now: datetime = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> datetime:
        self.now += timedelta(seconds=seconds)
        return self.now


def make_core(store, seed: str = "test", clock: Clock | None = None, **config) -> Core:
    """A core on `store` with repeatable seeds and a hand-moved clock."""
    config.setdefault("default_locale", "en")
    return Core(store, CoreConfig(**config), clock=clock or Clock(), seeds=SeededSource(seed))


def cmd(
    user: str,
    line: str,
    *,
    channel: str = "c1",
    locale: str | None = "en",
    mod: bool = False,
    community: str | None = None,
) -> Command:
    """`cmd("ayse", "/poker join 200")`."""
    words = line.lstrip("/").split()
    return Command(
        "test", channel, user, user.capitalize(), words[0], tuple(words[1:]), locale, mod, community
    )


def press(user: str, button: Button, *args: str, channel: str = "c1") -> Press:
    """Press a button as `user`."""
    return Press(
        "test",
        channel,
        user,
        user.capitalize(),
        button.table_id,
        button.action,
        button.nonce,
        tuple(args),
        "en",
    )


def errors(out: list[Outgoing]) -> list[str]:
    """Texts of the refusals in `out`."""
    return [o.text for o in out if o.kind is OutKind.ERROR]


def public_text(out: list[Outgoing]) -> str:
    """All channel text in `out`."""
    return "\n".join(o.text for o in out if o.kind in (OutKind.PUBLIC, OutKind.EDIT_TABLE))


def private_to(out: list[Outgoing], user: str) -> list[str]:
    """Private texts sent to `user`."""
    return [o.text for o in out if o.kind is OutKind.PRIVATE and o.user_id == user]


def last_buttons(out: list[Outgoing]) -> dict[str, Button]:
    """The newest table buttons in `out`, by action."""
    for item in reversed(out):
        if item.kind is OutKind.EDIT_TABLE and item.buttons:
            return {b.action: b for row in item.buttons for b in row}
    return {}


def buttons_for(out: list[Outgoing], user: str | None) -> dict[str, Button]:
    """The buttons of the newest message in `out` for `user` (None: the table message), by
    action."""
    for item in reversed(out):
        if user is None and item.kind is OutKind.EDIT_TABLE:
            return {b.action: b for row in item.buttons for b in row}
        if (
            user is not None
            and item.kind is OutKind.PRIVATE
            and item.user_id == user
            and item.buttons
        ):
            return {b.action: b for row in item.buttons for b in row}
    return {}
