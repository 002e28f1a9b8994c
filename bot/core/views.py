"""Tables as their viewers see them (`TableView`, `bot.core.api`) and the Okey racks they keep.

`view_of` builds one viewer's view through the game's registered view builder
(`GameSpec.view`); `TableViews` answers `Core.table_view`, `table_views`, `arrange_rack` and
`sort_rack` (the live web table's reads and the rack arrangement each player keeps in the
store).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bot.caches import Lru
from bot.core.api import RematchView, TableView
from bot.core.i18n import t
from bot.core.messages import NEEDS_CARDS, TILES, Pick, Picker
from bot.core.okey.view import fits, laid_out
from bot.core.registry import game_spec
from bot.core.table.live import LiveTable
from bot.core.table.private import may_watch, privacy
from bot.core.table.service import TableService
from bot.core.table.session import from_iso
from bot.core.tournament import is_tournament_id
from bot.logs import kv
from bot.render.text import card as card_label
from storage import StorageError

if TYPE_CHECKING:
    from storage import Store

__all__ = ["TableViews", "own_picker", "view_of", "with_ratings"]

log = logging.getLogger("bot.core")


def view_of(session: Any, user_id: str | None, locale: str | None = None) -> TableView:
    """A session's view for one viewer, its words (the moves, the previous hand's lines) in
    `locale` (None: the table's language), built by its game's `GameSpec.view`; a
    tournament's table adds what it shows of its tournament (`TournamentView`), a stopped
    table its "Play again" offer (`rematch_view`); a private table's says so, and is `hidden`
    from a viewer it does not let watch (`table.private`)."""
    view = game_spec(session.game).view(session, user_id, locale)
    tournament = session.tournament_view()
    offer = rematch_view(session, user_id)
    if tournament is not None:
        view = replace(view, tournament=tournament)
    if offer is not None:
        view = replace(view, rematch=offer)
    found = privacy(session)
    if found is None:
        return view
    watchers = bool(found.get("watchers", True))
    if view.me is None and not may_watch(session, user_id, session.now):
        return TableView(
            view.table_id, view.game, view.group, view.locale, view.phase, private=True,
            watchers=watchers, hidden=True,
        )  # fmt: skip
    return replace(view, private=True, watchers=watchers)


def rematch_view(session: Any, user_id: str | None) -> RematchView | None:
    """The table's standing "Play again" offer as `user_id` sees it, or None."""
    found = session.rematch
    if found is None:
        return None
    players = [p for p in found["players"] if p["user_id"] == user_id]
    return RematchView(
        pressed=len(found["pressed"]),
        total=len(found["players"]),
        until=from_iso(found["until"]),
        mine=bool(players),
        done=bool(players) and players[0]["player_id"] in found["pressed"],
    )


def with_ratings(
    view: TableView, players: dict[int, int], badges: dict[int, tuple[int, bool]]
) -> TableView:
    """`view` with each seat's rating badge (`SeatView.rating`, `provisional`); `players` maps
    seat index to player id, `badges` player id to (shown number, provisional)."""
    seats = []
    for index, seat in enumerate(view.seats):
        badge = badges.get(players.get(index, 0))
        if badge is not None and not seat.bot:
            seat = replace(seat, rating=badge[0], provisional=badge[1])
        seats.append(seat)
    return replace(view, seats=tuple(seats))


def own_picker(view: TableView) -> Picker | None:
    """The viewer's own cards or rack in `view` as a picker's choices, each once (None: they
    hold none, or their hand is folded)."""
    codes = tuple(dict.fromkeys(view.mine))
    if not codes or (view.me is not None and view.seats[view.me].folded):
        return None
    if game_spec(view.game).tiles:
        return Picker(TILES, tuple(Pick(tile, tile) for tile in codes))
    return Picker(NEEDS_CARDS, tuple(Pick(card, card_label(card)) for card in codes))


class TableViews:
    """One viewer's or many viewers' views of an open table, and the racks players arrange."""

    def __init__(self, store: Store, tables: TableService) -> None:
        self.store = store
        self.tables = tables
        # seat badges by (game, people, hand, phase): ratings change only when a hand or match
        # settles, which moves the hand or the phase on, so a table's moves reuse one read
        self._badges: Lru[tuple[Any, ...], dict[int, tuple[int, bool]]] = Lru(4096)

    async def table_view(
        self, table_id: str, platform: str, user_id: str, locale: str | None = None
    ) -> TableView | None:
        """`Core.table_view`: the open table as `user_id` may see it, brought up to date from
        the store; None when there is no such table on `platform`."""
        if is_tournament_id(table_id):
            return None
        live = await self.tables.current(table_id)
        if live is None or live.platform != platform:
            return None
        return view_of(live.session, user_id, locale)

    async def table_views(
        self,
        table_id: str,
        platform: str,
        user_ids: Sequence[str | None],
        version: int | None = None,
        locale: str | None = None,
    ) -> dict[str | None, TableView] | None:
        """`Core.table_views`: the table as each of `user_ids` (None: a spectator) may see it,
        from one read (none when this process holds `version` or newer); an Okey player's
        rack as they arranged it. None when there is no such open table on that platform."""
        if is_tournament_id(table_id):
            return None
        live = self.tables.get(table_id)
        if version is None or live is None or live.version < version:
            live = await self.tables.current(table_id, version)
        if live is None or live.platform != platform:
            return None
        async with live.lock:  # never a step's state before its commit
            if live.closed:
                return None
            seated = {seat.user_id for seat in live.session.seats}
            views: dict[str | None, TableView] = {}
            watching: TableView | None = None  # every spectator's view is the same: built once
            for user_id in user_ids:
                if user_id in seated or not may_watch(live.session, None, live.session.now):
                    views[user_id] = view_of(live.session, user_id, locale)
                else:
                    watching = watching or view_of(live.session, None, locale)
                    views[user_id] = watching
            players = {i: seat.player_id for i, seat in enumerate(live.session.seats)}
            people = [seat.player_id for seat in live.session.seats if not seat.bot]
        shown = next(iter(views.values()), None)
        moment = None if shown is None else (shown.hand_id, shown.phase)
        badges = await self._ratings(live.game, people, moment)
        for user_id, view in views.items():
            if badges:
                views[user_id] = view = with_ratings(view, players, badges)
            if view.rack and view.me is not None and view.hand_id is not None:
                stored = await self.store.rack_layout(live.id, players[view.me], view.hand_id)
                views[user_id] = replace(view, rack=laid_out(view.mine, stored))
        return views

    async def _ratings(
        self, game: str, people: list[int], moment: tuple[str | None, str] | None
    ) -> dict[int, tuple[int, bool]]:
        """The seated people's ratings in `game` over every community: player id -> (the shown
        number, provisional). One read for all viewers, kept until the hand or the phase
        (`moment`) moves on; empty when the store cannot answer (a badge is not worth failing
        the page over; nothing is kept then)."""
        if not people:
            return {}
        key = (game, tuple(people), moment)
        if key in self._badges:
            return self._badges[key]
        try:
            found = await self.store.seat_ratings(people, game)
        except StorageError as exc:
            log.warning(kv(event="seat_ratings_failed", error=type(exc).__name__))
            return {}
        badges = {pid: (r.shown, r.provisional) for pid, r in found.items()}
        self._badges[key] = badges
        return badges

    async def arrange_rack(
        self, table_id: str, platform: str, user_id: str, slots: Sequence[str | None], locale: str
    ) -> str | None:
        """`Core.arrange_rack`: keep a player's rack arrangement for this round; the refusal's
        words, or None."""
        found = await self._own_rack(table_id, platform, user_id)
        if isinstance(found, str):
            return t(locale, found)
        live, view = found
        if not fits(view.mine, slots):
            return t(locale, "err.rack_tiles")
        await self._keep_rack(live, view, slots)
        return None

    async def sort_rack(
        self, table_id: str, platform: str, user_id: str, mode: str, locale: str
    ) -> str | None:
        """`Core.sort_rack`: arrange a player's rack by runs or pairs (the game's
        `GameSpec.sort_rack`, the solver of `/okey arrange`) and keep it; the refusal's words,
        or None."""
        found = await self._own_rack(table_id, platform, user_id)
        if isinstance(found, str):
            return t(locale, found)
        live, view = found
        sort = game_spec(view.game).sort_rack
        if mode not in ("runs", "pairs") or view.indicator is None or view.okey is None:
            return t(locale, "err.arrange_usage")
        assert sort is not None  # `_own_rack` found a rack
        await self._keep_rack(live, view, sort(view, mode))
        return None

    async def _own_rack(
        self, table_id: str, platform: str, user_id: str
    ) -> tuple[LiveTable, TableView] | str:
        """The open table with a rack and the user's view of it, or the refusal's key."""
        if is_tournament_id(table_id):
            return "err.no_such_table"
        live = await self.tables.current(table_id)
        if live is None or live.platform != platform:
            return "err.no_such_table"
        if game_spec(live.game).sort_rack is None:
            return "err.rack_not_okey"
        view = view_of(live.session, user_id)
        if view.me is None:
            return "err.not_seated"
        if not view.mine or view.hand_id is None:
            return "err.no_round"
        return live, view

    async def _keep_rack(
        self, live: LiveTable, view: TableView, slots: Sequence[str | None]
    ) -> None:
        assert view.me is not None and view.hand_id is not None
        player = live.session.seats[view.me].player_id
        await self.store.put_rack_layout(live.id, player, view.hand_id, list(slots))
