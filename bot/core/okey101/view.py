"""A 101 Okey table as one viewer may see it (`bot.core.api.TableView`), built from the session.

Everything public comes from the round's public view (`view(None)`: the indicator, the discard
piles, rack sizes, the stock's size, the melds on the table, who opened how, the penalties;
never a rack); the viewer's own rack and moves from their own seat's view, and only when they
play in the match. So a view never holds a tile hidden from its viewer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.core.api import ActionView, MeldView, SeatView, TableView
from bot.core.okey.tile_messages import rack_order
from bot.core.okey.view import laid_out, tile_seat, tile_table_view, viewer_parts
from bot.core.okey101 import plays
from bot.core.table.last import packed
from games.okey101 import meld_value
from games.okey101.round import TAKE
from games.okey101.solver import best_opening, pairs_of

if TYPE_CHECKING:
    from bot.core.okey101.session import Okey101Session
    from games.okey101 import Round101


def sorted_slots101(mine: Sequence[str], okey: str, mode: str) -> tuple[str | None, ...]:
    """A 101 rack (21-22 tiles, more than the classic solver takes) arranged as the 101
    solver sees it: the best opening's melds (`runs`) or the most pairs (`pairs`), each in a
    row with a gap after it, then the loose tiles."""
    melds = best_opening(mine, okey).melds if mode == "runs" else pairs_of(mine, okey)
    loose = Counter(mine) - Counter(tile for meld in melds for tile in meld)
    return laid_out(mine, packed([*melds, sorted(loose.elements(), key=rack_order)]))


def okey101_view(
    session: Okey101Session, user_id: str | None, locale: str | None = None
) -> TableView:
    """The table as the user `user_id` (None or a user who is not seated: a spectator) sees it,
    its moves and the previous round's lines in `locale` (None: the table's language)."""
    game = session.game101
    me, index, public, own, actor = viewer_parts(session, game, user_id)
    seats = tuple(_seat(session, i, public, actor) for i in range(len(session.seats)))
    actions: tuple[ActionView, ...] = ()
    if game is not None and own is not None and game.to_act() == index:
        assert index is not None
        # the previous discard is never taken alone: when it can be used, the laying kinds are
        # listed in the take phase too, made with `source="discard"` (press `x`)
        sources = ("stock",)
        actions = tuple(
            ActionView(
                kind=spec.kind,
                max_cards=spec.max_cards,
                sources=sources if spec.kind == "take" else (),
            )
            for spec in game.legal_actions(index)
        ) + _one_press(game, index)
    mine = tuple(sorted(own["hand"], key=rack_order)) if own is not None else ()
    melds: tuple[MeldView, ...] = ()
    if public is not None:
        melds = tuple(
            MeldView(
                kind=m["kind"],
                tiles=tuple(m["tiles"]),
                owner=session.find(session.staked[int(m["owner"])]),
                value=meld_value(m, public["okey"]),
            )
            for m in public["table"]
        )
    return tile_table_view(
        session,
        public,
        seats,
        me,
        mine,
        actions,
        actor,
        locale=locale,
        melds=melds,
        threshold=None if public is None else public["threshold"],
    )


# the chat's one-press moves as action kinds (the web's buttons; `bot.adapters.web.wire` maps
# them onto the same presses): take the previous discard and open with the best melds / pairs,
# take it and use it, open with the best melds / pairs, lay what the rack holds
ONE_PRESS = ("take_open_best", "take_open_pairs", "take_use", "open_best", "open_pairs", "lay_best")


def _one_press(game: Round101, index: int) -> tuple[ActionView, ...]:
    """The one-press moves engine seat `index` may make now, as the chat's turn buttons offer
    them; an opening's `min_amount` is its value (series) or its number of pairs."""
    out: list[ActionView] = []
    take = game.phase == TAKE
    if take and game.last_discard(index) is None:
        return ()
    if game.opened[index] is None:
        for kind, how in (("open_best", plays.SERIES_OPEN), ("open_pairs", plays.PAIRS_OPEN)):
            plan = plays.open_plan(game, index, how, take=take)
            if plan is not None:
                out.append(ActionView(kind=("take_" if take else "") + kind, min_amount=plan.value))
    elif take:
        if plays.use_discard(game, index) is not None:
            out.append(ActionView(kind="take_use"))
    elif len(game.racks[index]) > 1 and plays.lay_plan(game, index) is not None:
        out.append(ActionView(kind="lay_best"))
    return tuple(out)


def _seat(
    session: Okey101Session, i: int, public: dict[str, Any] | None, actor: int | None
) -> SeatView:
    """Seat `i` as everyone sees it (`tile_seat`), and in a round how it opened and its penalty
    points so far."""
    k = session.engine_seat(session.seats[i].player_id)
    opened: str | None = None
    opening: int | None = None
    penalty: int | None = None
    if public is not None and k is not None:
        opened = public["opened"][k]
        if opened == "pairs":
            opening = sum(1 for m in public["table"] if m["owner"] == k and m["kind"] == "pair")
        elif opened == "series":
            opening = public["opening_values"][k]
        penalty = public["penalties"][k]
    return tile_seat(session, i, public, actor, opened=opened, opening=opening, penalty=penalty)
