"""A 101 Okey table as one viewer may see it (`bot.core.api.TableView`), built from the session.

Everything public comes from the round's public view (`view(None)`: the indicator, the discard
piles, rack sizes, the stock's size, the melds on the table, who opened how, the penalties;
never a rack); the viewer's own rack and moves from their own seat's view, and only when they
play in the match. So a view never holds a tile hidden from its viewer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.core.api import ActionView, MeldView, SeatView, TableView
from bot.core.okey.view import rack_order
from bot.core.table.last import last_view
from games.okey101 import meld_value

if TYPE_CHECKING:
    from bot.core.okey101.session import Okey101Session


def okey101_view(session: Okey101Session, user_id: str | None) -> TableView:
    """The table as the user `user_id` (None or a user who is not seated: a spectator) sees it."""
    me = next((i for i, s in enumerate(session.seats) if s.user_id == user_id), None)
    game = session.game101
    public = game.view(None) if game is not None else None
    index = None if me is None else session.engine_seat(session.seats[me].player_id)
    own = game.view(index) if game is not None and index is not None else None
    actor = session.actor()
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
        )
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
    return TableView(
        table_id=str(session.table_id),
        game=session.game,
        group=session.group,
        locale=session.locale,
        phase=session.phase,
        hand_id=session.hand_id() if game is not None else None,
        seats=seats,
        me=me,
        mine=tuple(sorted(own["hand"], key=rack_order)) if own is not None else (),
        actions=actions,
        acting=actor,
        deadline=session.deadline if actor is not None else None,
        stage=None if public is None else public["phase"],
        indicator=None if public is None else public["indicator"],
        okey=None if public is None else public["okey"],
        stock=None if public is None else public["stock"],
        moves=tuple(session.moves),
        melds=melds,
        threshold=None if public is None else public["threshold"],
        last=last_view(session),
    )


def _seat(
    session: Okey101Session, i: int, public: dict[str, Any] | None, actor: int | None
) -> SeatView:
    """Seat `i` as everyone sees it: in a match, its total; in a round, its rack's size, its
    discard pile, how it opened and its penalty points so far."""
    seat = session.seats[i]
    k = session.engine_seat(seat.player_id)
    match = session.match
    points = match.totals[k] if match is not None and k is not None else None
    dealer, down, discards = False, 0, ()
    opened: str | None = None
    opening: int | None = None
    penalty: int | None = None
    if public is not None and k is not None:
        dealer = public["starter"] == k
        down = public["rack_sizes"][k]
        discards = tuple(public["discard_piles"][k])
        opened = public["opened"][k]
        if opened == "pairs":
            opening = sum(1 for m in public["table"] if m["owner"] == k and m["kind"] == "pair")
        elif opened == "series":
            opening = public["opening_values"][k]
        penalty = public["penalties"][k]
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
        opened=opened,
        opening=opening,
        penalty=penalty,
    )
