"""`/table ...`: a moderator resets a table or kicks a player; anyone asks for their own link to
the live web table (`/table web`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.core.checks import require_moderator
from bot.core.config import CoreConfig
from bot.core.errors import Refusal
from bot.core.i18n import t
from bot.core.messages import Command, Outgoing, OutKind
from bot.core.names import seat_named
from bot.core.table.deliver import deliver
from bot.core.table.live import LiveTable
from bot.core.table.service import TableService
from bot.core.table.session import Note, Who, msg

if TYPE_CHECKING:
    from storage import Store

__all__ = ["MAX_RESET_REASON", "Moderation"]

MAX_RESET_REASON = 500  # the longest reason the storage keeps with a reset


class Moderation:
    """Answers `/table reset|kick|web`."""

    def __init__(
        self,
        store: Store,
        config: CoreConfig,
        tables: TableService,
        settle: Callable[[], Awaitable[list[Outgoing]]],
    ) -> None:
        self.store = store
        self.config = config
        self.tables = tables
        self.settle = settle  # hands the tournaments whose tables closed on (`Core._settle`)

    async def command(
        self, command: Command, who: Who, sub: str | None, args: tuple[str, ...]
    ) -> list[Outgoing]:
        """Run one `/table` sub-command; a refusal when it is unknown or not allowed."""
        if sub is None:
            raise Refusal("err.table_usage")
        if sub == "web":
            return await self._web_link(command, who)
        require_moderator(command)
        live, args = await self._moderated(command, args)
        if sub == "reset":
            reason = " ".join(args) or "moderator reset"
            if len(reason) > MAX_RESET_REASON:
                raise Refusal("err.reset_reason_long", max=MAX_RESET_REASON)
            paid = await self.tables.reset(live, who, reason)
            names = {s.player_id: s.name for s in live.session.seats}
            lines = [msg("reset.done", moderator=who.name)]
            lines += [
                msg("reset.refund", name=names.get(pid, str(pid)), chips=chips)
                for pid, chips in sorted(paid.items())
                if chips
            ]
            out = deliver(live.session, live.channel_id, [Note(lines, announce=True)])
            return out + await self.settle()  # a tournament table's reset moves it on
        if not args:
            raise Refusal("err.kick_usage")

        def kick(session):  # type: ignore[no-untyped-def]
            index = seat_named(session.seats, " ".join(args))
            if index is None:
                raise Refusal("err.no_such_player", name=" ".join(args))
            step = session.kick(index)
            step.action = {"kind": "kick", "seat": index, "moderator": who.player_id}
            return step

        return await self.tables.run(live, who, kick, checked=True)

    async def _web_link(self, command: Command, who: Who) -> list[Outgoing]:
        """`/table web`: the asker's own signed link to the live web table of this channel's
        table, privately (a player sees their cards there, anyone else the public table)."""
        make = self.config.web_link
        if make is None:
            raise Refusal("err.web_off")
        live = await self.tables.find(command.platform, command.channel_id, who.player_id)
        if live is None:
            raise Refusal("err.no_table")
        url = make(command.platform, command.user_id, who.name, str(live.id), who.locale)
        body = t(who.locale, "table.web_link", table=live.id, url=url)
        return [
            Outgoing(
                OutKind.PRIVATE, body, user_id=command.user_id, table_id=str(live.id), web_url=url
            )
        ]

    async def _moderated(
        self, command: Command, args: tuple[str, ...]
    ) -> tuple[LiveTable, tuple[str, ...]]:
        """The table a moderator's `/table` command acts on, and the words left: the channel's
        own; else a table of the tournament running in this channel (in a room or shared room
        under it, where the moderator has no seat): the only one open, or the one whose number
        is the first word (`/table reset 12 reason`)."""
        live = await self.tables.find(command.platform, command.channel_id)
        if live is not None:
            return live, args
        record = await self.store.tournament_in_channel(command.platform, command.channel_id)
        if record is None:
            raise Refusal("err.no_table")
        rooms = [t.id for t in await self.store.tournament_tables(record.id) if t.status == "open"]
        word = args[0].lstrip("#") if args else ""
        if str(word) in {str(t) for t in rooms}:
            rooms, args = [int(word)], args[1:]
        if not rooms:
            raise Refusal("err.no_table")
        if len(rooms) > 1:
            raise Refusal("err.table_which", tables=", ".join(map(str, rooms)))
        found = await self.tables.fetch(str(rooms[0]))
        if found is None:
            raise Refusal("err.no_table")
        return found, args
