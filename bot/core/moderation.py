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
            return await self._web_link(command, who, args)
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

    async def _web_link(self, command: Command, who: Who, args: tuple[str, ...]) -> list[Outgoing]:
        """`/table web [table]`: the asker's own signed link to the live web table of this
        channel's table, privately (a player sees their cards there, anyone else the public
        table); in a channel whose tournament plays in rooms, one of its tables (`_watched`)."""
        make = self.config.web_link
        if make is None:
            raise Refusal("err.web_off")
        live = await self.tables.find(command.platform, command.channel_id, who.player_id)
        if live is None:
            live = await self._watched(command, who, args)
        url = make(command.platform, command.user_id, who.name, str(live.id), who.locale)
        body = t(who.locale, "table.web_link", table=live.id, url=url)
        return [
            Outgoing(
                OutKind.PRIVATE, body, user_id=command.user_id, table_id=str(live.id), web_url=url
            )
        ]

    async def _watched(self, command: Command, who: Who, args: tuple[str, ...]) -> LiveTable:
        """The table of the tournament running in this channel that `/table web` opens: the
        one whose number is the first word, else the one the asker plays at, else the only
        one open; refused when there is none or the asker must name one."""
        rooms = await self._open_rooms(command)
        word = args[0].lstrip("#") if args else ""
        if word:
            rooms = [r for r in rooms if str(r) == word]
            if not rooms:
                raise Refusal("err.no_such_table")
        else:
            tables = [(r, self.tables.get(str(r))) for r in rooms]
            mine = [
                r for r, live in tables if live and live.session.find(who.player_id) is not None
            ]
            rooms = mine or rooms
        if not rooms:
            raise Refusal("err.no_table")
        if len(rooms) > 1:
            raise Refusal("err.web_which", tables=", ".join(map(str, rooms)))
        found = await self.tables.fetch(str(rooms[0]))
        if found is None or found.platform != command.platform:
            raise Refusal("err.no_table")
        return found

    async def _open_rooms(self, command: Command) -> list[int]:
        """The open tables of the tournament running in this channel (refused: none runs)."""
        record = await self.store.tournament_in_channel(command.platform, command.channel_id)
        if record is None:
            raise Refusal("err.no_table")
        return [t.id for t in await self.store.tournament_tables(record.id) if t.status == "open"]

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
        rooms = await self._open_rooms(command)
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
