"""An Okey table as one viewer may see it (`bot.core.api.TableView`), built from the session's state.

Everything public comes from the round's public view (`view(None)`: the indicator, the discard
piles, rack sizes, the stock's size; never a rack); the viewer's own rack and moves from their
own seat's view, and only when they play in the match. So a view never holds a tile hidden
from its viewer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.core.api import RACK_SLOTS, ActionView, SeatView, TableView
from games.okey import arrange

if TYPE_CHECKING:
    from bot.core.okey.session import OkeySession


def okey_view(session: OkeySession, user_id: str | None) -> TableView:
    """The table as the user `user_id` (None or a user who is not seated: a spectator) sees it."""
    me = next((i for i, s in enumerate(session.seats) if s.user_id == user_id), None)
    game = session.round
    public = game.view(None) if game is not None else None
    index = None if me is None else session.engine_seat(session.seats[me].player_id)
    own = game.view(index) if game is not None and index is not None else None
    actor = session.actor()
    seats = tuple(_seat(session, i, public, actor) for i in range(len(session.seats)))
    actions: tuple[ActionView, ...] = ()
    mine = tuple(sorted(own["hand"], key=rack_order)) if own is not None else ()
    if game is not None and own is not None and game.to_act() == index:
        assert index is not None
        actions = tuple(
            ActionView(
                kind=spec.kind,
                max_cards=spec.max_cards,
                sources=tuple(own["sources"]) if spec.kind == "take" else (),
            )
            for spec in game.legal_actions(index)
        )
    return TableView(
        table_id=str(session.table_id),
        game=session.game,
        group=session.group,
        locale=session.locale,
        phase=session.phase,
        hand_id=session.hand_id() if game is not None else None,
        seats=seats,
        me=me,
        mine=mine,
        actions=actions,
        acting=actor,
        deadline=session.deadline if actor is not None else None,
        stage=None if public is None else public["phase"],
        indicator=None if public is None else public["indicator"],
        okey=None if public is None else public["okey"],
        stock=None if public is None else public["stock"],
        moves=tuple(session.moves),
        nonce=session.nonce,
        rack=laid_out(mine, None) if mine else (),
    )


def laid_out(mine: Sequence[str], stored: Sequence[str | None] | None) -> tuple[str | None, ...]:
    """The rack's `RACK_SLOTS` slots: the stored arrangement where it still fits the tiles held
    (a tile no longer held leaves its slot empty), the tiles held beyond it in the first empty
    slots; without one, the tiles in `rack_order` from the first slot."""
    left = Counter(mine)
    slots: list[str | None] = [None] * RACK_SLOTS
    for i, tile in enumerate(list(stored or ())[:RACK_SLOTS]):
        if tile is not None and left[tile] > 0:
            slots[i] = tile
            left[tile] -= 1
    rest = [tile for tile in sorted(left.elements(), key=rack_order)]
    free = (i for i, tile in enumerate(slots) if tile is None)
    for tile in rest:
        slots[next(free)] = tile
    return tuple(slots)


def fits(mine: Sequence[str], slots: Sequence[str | None]) -> bool:
    """Whether an arrangement the player sends holds only tiles they hold (each at most as often
    as they hold it) in at most `RACK_SLOTS` slots."""
    if len(slots) > RACK_SLOTS:
        return False
    wanted = Counter(tile for tile in slots if tile is not None)
    held = Counter(mine)
    return all(held[tile] >= n for tile, n in wanted.items())


def sorted_slots(mine: Sequence[str], indicator: str, mode: str) -> tuple[str | None, ...]:
    """The rack arranged by the solver (`runs` or `pairs`): each meld in a row with a gap after
    it, starting a new row when the meld does not fit the first one, the loose tiles last."""
    row = RACK_SLOTS // 2
    layout = arrange(list(mine), indicator, mode)
    slots: list[str | None] = [None] * RACK_SLOTS
    at = 0
    for meld in [*layout.melds, layout.loose]:
        if not meld:
            continue
        if at < row and at + len(meld) > row:
            at = row
        for tile in meld:
            if at < RACK_SLOTS:
                slots[at] = tile
                at += 1
        at += 1
    return laid_out(mine, slots)


def rack_order(tile: str) -> tuple[int, int]:
    """Tiles by colour (red, yellow, blue, black), then number; the false okey last."""
    if tile == "F":
        return (9, 0)
    return ("RYBK".index(tile[0]), int(tile[1:]))


def _seat(
    session: OkeySession, i: int, public: dict[str, Any] | None, actor: int | None
) -> SeatView:
    """Seat `i` as everyone sees it: in a match, its penalty total; in a round, its rack's size
    and its discard pile."""
    seat = session.seats[i]
    k = session.engine_seat(seat.player_id)
    match = session.match
    points = match.totals[k] if match is not None and k is not None else None
    dealer, down, discards = False, 0, ()
    if public is not None and k is not None:
        dealer = public["starter"] == k
        down = public["rack_sizes"][k]
        discards = tuple(public["discard_piles"][k])
    return SeatView(
        name=seat.name,
        user_id=seat.user_id,
        bot=seat.bot,
        away=seat.away,
        leaving=seat.leaving,
        in_play=k is not None,
        acting=i == actor,
        dealer=dealer,
        points=points,
        down=down,
        discards=discards,
    )
