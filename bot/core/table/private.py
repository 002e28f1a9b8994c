"""Private tables: who may sit and who may watch (docs/commands.md, "Private tables").

`/poker open ... private` or `/okey start ... private` (`özel`) opens a table only its opener and
the people they invite may sit at; `watchers=off` (`izleyici=kapalı`) at the opening, or
`/table watchers off` later, keeps everyone else off the web table too (the chat's table
message stays where the chat shows it, saying the table is private). The table keeps it all in
its options (`options["private"]`, so in its snapshot, committed with each step):

    {"opener": user id, "watchers": bool, "members": [user ids that sat here],
     "invites": {invitation id: {"user": user id | None, "name": str, "until": ISO time,
                                 "used": bool}}}

An invitation names a user id (a Discord user option, a Telegram reply) or a name, which
matches a user id only (the console's ids are its names; a chat name is not proof of anyone).
Who sat once stays a member: they may sit again after their invitation expired. Computer
players may sit when the person who adds them may.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from bot.core.commands import fold
from bot.core.errors import Refusal
from bot.core.table.session import Msg, TableSession, Who, from_iso, is_computer, msg

__all__ = [
    "INVITE_HOURS",
    "KEY",
    "MAX_INVITES",
    "make_private",
    "may_sit",
    "may_watch",
    "privacy",
    "private_line",
    "seat_guard",
    "take_private_words",
]

KEY = "private"
INVITE_HOURS = 24  # an invitation (and its link) works this long
MAX_INVITES = 20  # live invitations a table holds at once
_PRIVATE = frozenset({"private", "ozel", "davetli"})
_WATCHERS = frozenset({"watchers", "izleyici", "izleyiciler", "seyirci", "watch"})
_OFF = frozenset({"off", "kapali", "hayir", "yok", "no"})
_ON = frozenset({"on", "acik", "evet", "var", "yes"})


def take_private_words(args: tuple[str, ...]) -> tuple[tuple[str, ...], bool | None]:
    """The opener's words without the private ones, and whether spectators may watch (None:
    the table is not private). `private`/`özel` makes it private; `watchers=off` beside it
    (`izleyici=kapalı`) keeps spectators away. A `watchers=...` without `private` stays in the
    words (the game refuses it as an unknown option)."""
    if not any(fold(word) in _PRIVATE for word in args):
        return args, None
    kept: list[str] = []
    watchers = True
    for word in args:
        name, eq, value = fold(word).partition("=")
        if not eq and name in _PRIVATE:
            continue
        if eq and name in _WATCHERS and value in _OFF | _ON:
            watchers = value in _ON
            continue
        kept.append(word)
    return tuple(kept), watchers


def switch(word: str) -> bool | None:
    """`on`/`off` (`açık`/`kapalı`) as True/False, else None."""
    folded = fold(word)
    return True if folded in _ON else False if folded in _OFF else None


def privacy(session: TableSession) -> dict[str, Any] | None:
    """The table's privacy (see the module), or None for a table anyone may join."""
    found = session.options.get(KEY)
    return found if isinstance(found, dict) else None


def make_private(session: TableSession, opener: Who, watchers: bool) -> None:
    """Make a new table private to `opener` (and whom they invite)."""
    session.options[KEY] = {
        "opener": opener.user_id,
        "watchers": watchers,
        "members": [opener.user_id],
        "invites": {},
    }


def invited(found: dict[str, Any], user_id: str, now: datetime) -> bool:
    """Whether an invitation of `found` (unexpired) names `user_id`."""
    for invite in found.get("invites", {}).values():
        names = invite.get("user") or ""
        if not names and invite.get("name"):
            names = fold(invite["name"]).lstrip("@")
        until = from_iso(invite.get("until"))
        if fold(names) == fold(user_id) and until is not None and now < until:
            return True
    return False


def may_sit(session: TableSession, user_id: str, now: datetime) -> bool:
    """Whether `user_id` may sit at the table (any table that is not private: anyone)."""
    found = privacy(session)
    if found is None:
        return True
    return (
        user_id == found.get("opener")
        or user_id in found.get("members", ())
        or invited(found, user_id, now)
    )


def may_watch(session: TableSession, user_id: str | None, now: datetime) -> bool:
    """Whether `user_id` (None: anyone) may watch the table on the web: unless the opener
    turned watching off, everyone; then those who may sit."""
    found = privacy(session)
    if found is None or found.get("watchers", True):
        return True
    return user_id is not None and may_sit(session, user_id, now)


def private_line(session: TableSession) -> Msg | None:
    """The table message's line saying the table is private (and whether it may be
    watched), or None."""
    found = privacy(session)
    if found is None:
        return None
    return msg("table.private" if found.get("watchers", True) else "table.private_closed")


def seat_guard(session: TableSession, who: Who | None) -> Callable[[], None]:
    """Call before a step, and call what it returns after it: a person the table does not let
    sit who took a seat in the step, or a computer player seated by someone who may not sit
    here, refuses the step (`err.private_not_invited`; the service throws the step away).
    Everyone seated in it becomes a member."""
    if privacy(session) is None:
        return lambda: None
    before = {seat.user_id for seat in session.seats}

    def check() -> None:
        found = privacy(session)
        if found is None:
            return
        fresh = [seat for seat in session.seats if seat.user_id not in before]
        for seat in fresh:
            sitter = who.user_id if seat.bot and who is not None else seat.user_id
            if seat.bot and (who is None or is_computer(who)):
                continue  # the table's own steps (a tournament's, a stand-in)
            if not may_sit(session, sitter, session.now):
                raise Refusal("err.private_not_invited")
            if not seat.bot and seat.user_id not in found["members"]:
                found["members"].append(seat.user_id)

    return check


def expired_before(found: dict[str, Any], now: datetime) -> None:
    """Forget invitations that expired more than a day ago (their links read as expired
    anyway: the token carries its time)."""
    old = now - timedelta(hours=INVITE_HOURS)
    invites = found.get("invites", {})
    for key in [k for k, v in invites.items() if (from_iso(v.get("until")) or old) <= old]:
        del invites[key]
