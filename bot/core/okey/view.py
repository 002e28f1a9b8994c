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
from bot.core.okey.tile_messages import rack_order
from bot.core.table.deliver import move_lines
from bot.core.table.last import last_view, packed
from games.okey import arrange

if TYPE_CHECKING:
    from bot.core.okey.session import OkeySession


def okey_view(session: OkeySession, user_id: str | None, locale: str | None = None) -> TableView:
    """The table as the user `user_id` (None or a user who is not seated: a spectator) sees it,
    its moves and the previous round's lines in `locale` (None: the table's language)."""
    game = session.round
    me, index, public, own, actor = viewer_parts(session, game, user_id)
    seats = tuple(tile_seat(session, i, public, actor) for i in range(len(session.seats)))
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
    return tile_table_view(session, public, seats, me, mine, actions, actor, locale=locale)


def viewer_parts(
    session: Any, game: Any, user_id: str | None
) -> tuple[int | None, int | None, dict[str, Any] | None, dict[str, Any] | None, int | None]:
    """What a tile game's view starts from (classic and 101 Okey): the viewer's seat index (None:
    a spectator), their engine seat, the round's public view, their own seat's view (None unless
    they play in the round) and the seat to act."""
    me = next((i for i, s in enumerate(session.seats) if s.user_id == user_id), None)
    public = game.view(None) if game is not None else None
    index = None if me is None else session.engine_seat(session.seats[me].player_id)
    own = game.view(index) if game is not None and index is not None else None
    return me, index, public, own, session.actor()


def tile_table_view(
    session: Any,
    public: dict[str, Any] | None,
    seats: tuple[SeatView, ...],
    me: int | None,
    mine: tuple[str, ...],
    actions: tuple[ActionView, ...],
    actor: int | None,
    locale: str | None = None,
    **extra: Any,
) -> TableView:
    """The `TableView` of a tile game (classic and 101 Okey) from its parts, its moves and the
    previous round's lines in `locale` (None: the table's language); `extra` holds the game's
    own fields (101: `melds`, `threshold`)."""
    return TableView(
        table_id=str(session.table_id),
        game=session.game,
        group=session.group,
        locale=session.locale,
        phase=session.phase,
        hand_id=session.hand_id() if public is not None else None,
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
        moves=tuple(move_lines(session, locale)),
        nonce=session.nonce,
        rack=laid_out(mine, None) if mine else (),
        last=last_view(session, locale),
        max_seats=session.max_seats,
        round_no=len(session.match.history) + 1 if public and session.match else None,
        rounds=_rounds(session),
        **extra,
    )


def _rounds(session: Any) -> int | None:
    """The match's length in rounds (the game's own option, `Opening.rounds_option`)."""
    rounds = session.options.get(session.opening.rounds_option)
    return rounds if isinstance(rounds, int) and rounds > 0 else None


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
    layout = arrange(list(mine), indicator, mode)
    return laid_out(mine, packed([*layout.melds, layout.loose]))


def tile_seat(
    session: Any, i: int, public: dict[str, Any] | None, actor: int | None, **extra: Any
) -> SeatView:
    """Seat `i` of a tile game (classic and 101 Okey) as everyone sees it: in a match, its
    total; in a round, its rack's size and its discard pile; `extra` holds the game's own
    fields (101: `opened`, `opening`, `penalty`)."""
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
        kept=seat.kept,
        leaving=seat.leaving,
        in_play=k is not None,
        acting=i == actor,
        dealer=dealer,
        points=points,
        down=down,
        discards=discards,
        **extra,
    )
