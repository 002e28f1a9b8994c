"""A "Play again" press (`Rematch`), the part that reads the store: the players' balances, and a
closed table's offer, which a new table in the same channel takes up (`Rematches`).

The offer itself and what a press changes are `bot.core.table.rematch` (pure). A table that is
still open (an Okey match ended) takes the press as one step of its own. A table that closed
(everyone left) keeps its offer in its last snapshot: the first press opens a new table in the
same channel with the same game, house rules and stake (the community's open-table limit holds,
`TableService.open`), and presses on the old message go on to that table while it waits.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from bot.core.api import RematchView
from bot.core.config import CoreConfig
from bot.core.errors import Refusal
from bot.core.messages import Outgoing
from bot.core.moves import Move, Rematch
from bot.core.registry import game_spec
from bot.core.table import rematch
from bot.core.table.live import LiveTable, table_number
from bot.core.table.service import TableService
from bot.core.table.session import TableSession, Who, from_iso, json_copy
from storage import NotFound, TableRecord, wallet

if TYPE_CHECKING:
    from storage import Store

__all__ = ["Rematches", "is_rematch"]


def is_rematch(move_of: Callable[[], Move]) -> bool:
    """Whether a press is "Play again" (a forged or unknown button is not)."""
    try:
        return isinstance(move_of(), Rematch)
    except Refusal:
        return False


class Rematches:
    """Takes "Play again" presses for the core (`Core.act`)."""

    def __init__(
        self,
        store: Store,
        config: CoreConfig,
        tables: TableService,
        clock: Callable[[], datetime],
    ) -> None:
        self.store = store
        self.config = config
        self.tables = tables
        self.clock = clock

    async def press(
        self, table_id: str, live: LiveTable | None, platform: str, who: Who
    ) -> list[Outgoing]:
        """`who` pressed "Play again" on the message of `table_id` (`live`: that table when it
        is open)."""
        if live is not None:
            if live.platform != platform:
                raise Refusal("err.no_such_table")
            return await self._press(live, who)
        return await self._closed(table_id, platform, who)

    async def _press(self, live: LiveTable, who: Who) -> list[Outgoing]:
        """One press on an open table's offer, with the balances of those it may charge."""
        offer = live.session.rematch
        asked = [] if offer is None else [*rematch.waiting_on(offer), who.player_id]
        cost = live.session.rematch_cost()
        short: set[int] = set()
        for pid in dict.fromkeys(asked):  # a balance read each: at most a table's seats
            if await self._short(pid, cost):
                short.add(pid)
        moderator = who.is_moderator
        frozen = frozenset(short)
        return await self.tables.run(live, who, lambda s: rematch.press(s, who, frozen, moderator))

    async def _closed(self, table_id: str, platform: str, who: Who) -> list[Outgoing]:
        """A press on a closed table's last message: its offer, taken up by a new table."""
        number = table_number(table_id)
        if number is None:
            raise Refusal("err.no_such_table")
        try:
            record = await self.store.get_table(number)
        except NotFound:
            raise Refusal("err.no_such_table") from None
        if record.platform != platform or record.status == "open":
            raise Refusal("err.no_such_table")
        offer = record.snapshot.get("rematch")
        if offer is None:
            raise Refusal("err.rematch_over")
        players = {p["player_id"] for p in offer["players"]}
        if who.player_id not in players and not who.is_moderator:
            raise Refusal("err.rematch_not_player")
        until = from_iso(offer["until"])
        if until is None or self.clock() >= until:
            raise Refusal("err.rematch_expired")
        out: list[Outgoing] = []
        live = await self.tables.find(record.platform, record.channel_id)
        if live is None:
            session = self._session(record, offer)
            cost = session.rematch_cost()
            if who.player_id in players and await self._short(who.player_id, cost):
                raise Refusal("err.rematch_funds", chips=cost)  # before any table opens
            out = await self._open(record, session)
            live = await self.tables.find(record.platform, record.channel_id)
        if live is None or (live.session.rematch or {}).get("from") != number:
            raise Refusal("err.rematch_over")  # started, or the channel plays another table
        return out + await self._press(live, who)

    async def closed_offers(
        self, table_id: str, platform: str, user_ids: list[str | None]
    ) -> dict[str, RematchView]:
        """A closed table's standing offer as each of `user_ids` who is one of its players
        sees it (counted on the new table once a press opened it); the others (spectators,
        other people) get none, nor does anyone once it expired, started or was overtaken."""
        found = await self._closed_record(table_id, platform)
        offer = None if found is None else found[0].snapshot.get("rematch")
        until = None if offer is None else from_iso(offer["until"])
        if found is None or offer is None or until is None or self.clock() >= until:
            return {}
        record, live = found
        if live is not None:  # a press opened the new table: its offer counts, if still on
            offer = live.session.rematch
            if offer is None or offer.get("from") != record.id:
                return {}
        pressed = set(offer["pressed"])
        wanted = set(user_ids)
        return {
            p["user_id"]: RematchView(
                len(offer["pressed"]), len(offer["players"]), until, True, p["player_id"] in pressed
            )
            for p in offer["players"]
            if p["user_id"] in wanted
        }

    async def successor(self, table_id: str, platform: str, user_id: str) -> str | None:
        """The open table in the channel of `table_id` where `user_id` sits now (the one a
        "Play again" press seated them at; an open table where they sit is its own), or None."""
        record = await self._record(table_id, platform)
        if record is None:
            return None
        live = await self.tables.find(record.platform, record.channel_id)
        if live is None or live.closed:
            return None
        seated = any(s.user_id == user_id and not s.bot for s in live.session.seats)
        return str(live.id) if seated else None

    async def _closed_record(
        self, table_id: str, platform: str
    ) -> tuple[TableRecord, LiveTable | None] | None:
        """A closed table of `platform` and the open table of its channel now, or None."""
        record = await self._record(table_id, platform)
        if record is None or record.status == "open":
            return None
        return record, await self.tables.find(record.platform, record.channel_id)

    async def _record(self, table_id: str, platform: str) -> TableRecord | None:
        """The stored table `table_id` of `platform`, or None (no such table, or another
        platform's)."""
        number = table_number(table_id)
        if number is None:
            return None
        try:
            record = await self.store.get_table(number)
        except NotFound:
            return None
        return record if record.platform == platform else None

    async def _short(self, player_id: int, cost: int) -> bool:
        """Whether the player's wallet cannot pay `cost` now."""
        return bool(cost) and await self.store.balance(wallet(player_id)) < cost

    def _session(self, record: TableRecord, offer: dict[str, Any]) -> TableSession:
        """The new table of a closed one's offer: the same game, house rules and stake, its
        offer waiting for every player's press."""
        spec = game_spec(record.game)
        locale = record.snapshot.get("locale") or self.config.default_locale
        session = spec.create(locale, (), self.config, self.clock())
        session.options = json_copy(record.snapshot["options"])
        session.rematch = {**json_copy(offer), "pressed": [], "from": record.id}
        return session

    async def _open(self, record: TableRecord, session: TableSession) -> list[Outgoing]:
        """Open `session` in the closed table's channel (its community's limit holds)."""
        try:
            return await self.tables.open(
                record.platform, record.channel_id, None, session, None, record.community
            )
        except Refusal as exc:
            if exc.key != "err.table_exists":  # e.g. the community's open-table limit
                raise
            return []  # another press opened it first
