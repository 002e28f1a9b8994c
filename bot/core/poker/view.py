"""A poker table as one viewer may see it (`bot.core.api.TableView`), built from the session's state.

Everything public comes from the engine's public view (`view(None)`, which never holds a hidden
card); the viewer's own cards and moves from their own seat's view, and only when they are
dealt into the running hand. So a view never holds a card hidden from its viewer.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bot.core.api import ActionView, SeatView, TableView
from bot.core.table.deliver import move_lines
from bot.core.table.last import last_view

if TYPE_CHECKING:
    from bot.core.poker.session import PokerSession


def poker_view(session: PokerSession, user_id: str | None, locale: str | None = None) -> TableView:
    """The table as the user `user_id` (None or a user who is not seated: a spectator) sees it,
    its moves and the previous hand's lines in `locale` (None: the table's language)."""
    me = next((i for i, s in enumerate(session.seats) if s.user_id == user_id), None)
    running = session.running()
    public = session.engine.view(None) if running else None
    own: dict[str, Any] | None = None
    if public is not None and me is not None:
        index = session.engine_seat(session.seats[me].player_id)
        own = None if index is None else session.engine.view(index)
    actor = session.actor()
    seats = tuple(_seat(session, i, public, actor) for i in range(len(session.seats)))
    actions: tuple[ActionView, ...] = ()
    if own is not None and public is not None and public["to_act"] == own["seat"]:
        actions = tuple(_action(spec) for spec in own["legal"])
    return TableView(
        table_id=str(session.table_id),
        game=session.game,
        group=session.group,
        locale=session.locale,
        phase=session.phase,
        hand_id=session.hand_id() if running else None,
        seats=seats,
        me=me,
        mine=tuple(own["hand"]) if own is not None else (),
        actions=actions,
        acting=actor,
        deadline=session.deadline if actor is not None else None,
        stage=None if public is None else str(public.get("phase", public.get("street"))),
        pot=0 if public is None else public["pot"],
        pots=() if public is None else tuple(p["amount"] for p in public["pots"]),
        carried=session.carried,
        moves=tuple(move_lines(session, locale)),
        nonce=session.nonce,
        odds=_odds(session, public),
        last=last_view(session, locale),
        max_seats=session.max_seats,
    )


def _odds(session: PokerSession, public: dict[str, Any] | None) -> tuple[int | None, ...]:
    """Açık poker's live odds per seat, from the public cards only (`public_odds`: what the
    table message shows); empty when the table shows none."""
    odds = session.public_odds(public)
    if odds is None:
        return ()
    out: list[int | None] = []
    for seat in session.seats:
        k = session.in_hand.index(seat.player_id) if seat.player_id in session.in_hand else None
        out.append(None if k is None else odds.percent(k))
    return tuple(out)


def _seat(
    session: PokerSession, i: int, public: dict[str, Any] | None, actor: int | None
) -> SeatView:
    """Seat `i` as everyone sees it."""
    seat = session.seats[i]
    base = SeatView(
        name=seat.name,
        user_id=seat.user_id,
        bot=seat.bot,
        away=seat.away,
        kept=seat.kept,
        leaving=seat.leaving,
        acting=i == actor,
        dealer=public is None and session.button == i,
        chips=session.chips.get(str(seat.player_id), 0),
    )
    if public is None or seat.player_id not in session.in_hand:
        return base
    k = session.in_hand.index(seat.player_id)
    if "up" in public:  # Açık poker: one down card each, the up cards face up
        up = tuple(public["up"][k])
        down = 1
        drew = None
    else:  # Türk pokeri: every card down until a showdown shows them
        up = tuple(public["shown"].get(str(k), ()))
        down = 0 if up else public["cards"][k]
        drew = public["drew"][k]
    return replace(
        base,
        in_play=True,
        dealer=k == public["dealer"],
        folded=public["folded"][k],
        all_in=public["all_in"][k],
        chips=public["stacks"][k],
        stake=public["stakes"][k],
        up=up,
        down=down,
        drew=drew,
    )


def _action(spec: dict[str, Any]) -> ActionView:
    """A legal move of the engine's seat view as an `ActionView`."""
    return ActionView(
        kind=spec["kind"],
        min_amount=spec.get("min_amount"),
        max_amount=spec.get("max_amount"),
        max_cards=spec.get("max_cards"),
    )
