"""`/table invite|uninvite|watchers|join`: the opener of a private table invites people, takes
an invitation back and lets spectators watch or not; an invited person sits with their
invitation's token (`/table join <token>`; Telegram: the deep link that sends it, docs/telegram.md).

Every refusal is private, in the asker's language, and changes nothing: no table here, a table
that is not private, an asker who is not its opener, an invitation to oneself, to a computer
player or to someone seated, too many live invitations; a token that is forged, expired,
withdrawn, used already or someone else's. A token is never logged and never goes into a public
message: the opener gets it privately (`Outgoing.invite`, which each front end offers as it
can: a Telegram deep link, the console's `/table join <token>`; `bot.adapters.invites`).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from bot.core.commands import fold
from bot.core.config import CoreConfig
from bot.core.errors import Refusal
from bot.core.i18n import t
from bot.core.messages import Command, Outgoing, OutKind
from bot.core.table.invite_tokens import Ticket, make_token, new_invite_id, read_token
from bot.core.table.live import LiveTable
from bot.core.table.private import (
    INVITE_HOURS,
    MAX_INVITES,
    expired_before,
    privacy,
    switch,
)
from bot.core.table.service import TableService
from bot.core.table.session import COMPUTER_PREFIX, Step, TableSession, Who, from_iso, iso

if TYPE_CHECKING:
    from storage import Store

__all__ = ["INVITE_SUBS", "Invites"]

INVITE_SUBS = frozenset({"invite", "uninvite", "watchers", "join"})
SECRET_NAME = "web"  # the bot's signing key, the one the web table's links are signed with
_MENTION = re.compile(r"^<@!?([A-Za-z0-9_-]{1,40})>$")
_COMPUTER_NAME = re.compile(r"^bot[ -]?\d+$")


class Invitee:
    """Whom an invitation names: a user id (`<@id>`, a user option or a reply) or a name."""

    def __init__(self, args: tuple[str, ...]) -> None:
        if not args:
            raise Refusal("err.invite_usage")
        mention = _MENTION.match(args[0].strip())
        self.user: str | None = mention.group(1) if mention else None
        rest = args[1:] if mention else args
        self.name = " ".join(rest).strip().lstrip("@") or (self.user or "")
        if not self.name:
            raise Refusal("err.invite_usage")

    def is_user(self, user_id: str, name: str | None = None) -> bool:
        """Whether the invitee is this user (by id; a name-only invitee by id or `name`)."""
        if self.user is not None:
            return self.user == user_id
        return fold(self.name) in {fold(user_id), *([fold(name)] if name else [])}

    def names(self, invite: dict[str, Any]) -> bool:
        """Whether a stored invitation is this invitee's."""
        if self.user is not None:
            return invite.get("user") == self.user
        return fold(invite.get("name") or "") == fold(self.name) or fold(
            invite.get("user") or ""
        ) == fold(self.name)


class Invites:
    """Answers the private tables' `/table` sub-commands (`INVITE_SUBS`)."""

    def __init__(self, store: Store, config: CoreConfig, tables: TableService) -> None:
        self.store = store
        self.config = config
        self.tables = tables
        self._key: str | None = config.invite_key

    @property
    def clock(self) -> Callable[[], datetime]:
        """The table service's clock (injected in tests)."""
        return self.tables.clock

    async def key(self) -> str:
        """The signing key: `CoreConfig.invite_key`, else the bot's web signing key kept in the
        store (made by the first process that needs one)."""
        if self._key is None:
            self._key = await self.store.shared_secret(SECRET_NAME, secrets.token_urlsafe(32))
        return self._key

    async def command(
        self, command: Command, who: Who, sub: str, args: tuple[str, ...]
    ) -> list[Outgoing]:
        """Run `/table invite|uninvite|watchers|join`."""
        if sub == "join":
            return await self._join(who, command.platform, args)
        live = await self.tables.find(command.platform, command.channel_id, who.player_id)
        if live is None:
            raise Refusal("err.no_table")
        found = privacy(live.session)
        if found is None:
            raise Refusal("err.invite_not_private")
        if found.get("opener") != who.user_id:
            raise Refusal("err.invite_not_opener")
        if sub == "watchers":
            return await self._watchers(live, who, args)
        invitee = Invitee(args)
        if sub == "uninvite":
            return await self._uninvite(live, who, invitee)
        return await self._invite(live, who, invitee)

    async def _invite(self, live: LiveTable, who: Who, invitee: Invitee) -> list[Outgoing]:
        session = live.session
        if invitee.is_user(who.user_id, who.name):
            raise Refusal("err.invite_self")
        if (invitee.user or "").startswith(COMPUTER_PREFIX) or any(
            _COMPUTER_NAME.match(fold(word)) for word in (invitee.name, invitee.user or "")
        ):
            raise Refusal("err.invite_computer")
        for seat in session.seats:
            if invitee.is_user(seat.user_id, seat.name):
                if seat.bot:
                    raise Refusal("err.invite_computer")
                raise Refusal("err.invite_seated", name=seat.name)
        now = self.clock()
        until = (now + timedelta(hours=INVITE_HOURS)).replace(microsecond=0)
        iid = new_invite_id()
        token = make_token(await self.key(), Ticket(live.id, iid, until))

        def change(s: TableSession) -> Step:
            found = _private(s)
            expired_before(found, now)
            live_ones = [
                v
                for v in found["invites"].values()
                if not v.get("used") and (from_iso(v.get("until")) or now) > now
            ]
            if len(live_ones) >= MAX_INVITES:
                raise Refusal("err.invite_many", max=MAX_INVITES)
            found["invites"][iid] = {
                "user": invitee.user,
                "name": invitee.name,
                "until": iso(until),
                "used": False,
            }
            step = Step(action={"kind": "invite"})
            step.say("invite.sent", inviter=who.name, name=invitee.name)
            step.show_table()
            return step

        out = await self.tables.run(live, who, change, checked=True)
        table = str(live.id)
        made = t(who.locale, "invite.made", name=invitee.name, table=table, hours=INVITE_HOURS)
        out.append(Outgoing(OutKind.PRIVATE, made, user_id=who.user_id, invite=token))
        if invitee.user is not None:
            join = f"/{session.group} join"
            text = t(session.locale, "invite.for_you", inviter=who.name, table=table, join=join)
            out.append(Outgoing(OutKind.PRIVATE, text, user_id=invitee.user, invite=token))
        return out

    async def _uninvite(self, live: LiveTable, who: Who, invitee: Invitee) -> list[Outgoing]:
        def change(s: TableSession) -> Step:
            found = _private(s)
            gone = [k for k, v in found["invites"].items() if invitee.names(v)]
            members = [m for m in found["members"] if not invitee.is_user(m)]
            if invitee.user is None:  # a name-only invitation used by someone: theirs too
                users = {found["invites"][k].get("user") for k in gone}
                members = [m for m in members if m not in users]
            if not gone and members == found["members"]:
                raise Refusal("err.uninvite_none", name=invitee.name)
            for key in gone:
                del found["invites"][key]
            found["members"] = members
            step = Step(action={"kind": "uninvite"})
            step.say("invite.withdrawn", inviter=who.name, name=invitee.name)
            step.show_table()
            return step

        return await self.tables.run(live, who, change, checked=True)

    async def _watchers(self, live: LiveTable, who: Who, args: tuple[str, ...]) -> list[Outgoing]:
        on = switch(args[0]) if len(args) == 1 else None
        if on is None:
            raise Refusal("err.watchers_usage")

        def change(s: TableSession) -> Step:
            _private(s)["watchers"] = on
            step = Step(action={"kind": "watchers", "on": on})
            step.say("invite.watchers_on" if on else "invite.watchers_off", name=who.name)
            step.show_table()
            return step

        return await self.tables.run(live, who, change, checked=True)

    async def _join(self, who: Who, platform: str, args: tuple[str, ...]) -> list[Outgoing]:
        """Sit with an invitation's token, wherever it is typed (Telegram: the bot's private
        chat, from the deep link): the invitation is used once, in the same commit that seats."""
        if len(args) != 1:
            raise Refusal("err.invite_join_usage")
        ticket = read_token(await self.key(), args[0].strip())
        if ticket is None:
            raise Refusal("err.invite_forged")
        now = self.clock()
        if ticket.until <= now:
            raise Refusal("err.invite_expired")
        live = await self.tables.fetch(str(ticket.table_id))
        if live is None or live.closed or live.platform != platform:
            raise Refusal("err.invite_table_gone")

        def change(s: TableSession) -> Step:
            found = privacy(s)
            invite = None if found is None else found["invites"].get(ticket.invite_id)
            if found is None or invite is None:
                raise Refusal("err.invite_withdrawn")
            if invite.get("used"):
                raise Refusal("err.invite_used")
            if invite.get("user") not in (None, who.user_id):
                raise Refusal("err.invite_not_yours")
            if s.find(who.player_id) is not None:
                raise Refusal("err.invite_seated_you")
            invite["used"], invite["user"] = True, who.user_id
            if who.user_id not in found["members"]:
                found["members"].append(who.user_id)
            return s.command(who, "join", ())

        return await self.tables.run(live, who, change)


def _private(session: TableSession) -> dict[str, Any]:
    """The privacy of a table known to be private (the stored state may have changed since the
    checks: another process's commit)."""
    found = privacy(session)
    if found is None:
        raise Refusal("err.invite_not_private")
    return found
