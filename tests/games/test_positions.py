"""`games.positions`: the committed order is the one the engines deal from, each seat owns the
positions it was dealt, and only what the table saw is public."""

from __future__ import annotations

import pytest

from games.base import Action
from games.commitment import Commitment
from games.history import Played, Setup, Step, deal
from games.positions import committed_order, deal_root, disclose

SEED = bytes(range(32))


def dealt(setup: Setup) -> tuple[Played, object]:
    engine, events = deal(setup, SEED)
    return Played(setup, (Step(None, None, tuple(events)),), engine), engine


def poker(game: str, players: int) -> Setup:
    ids = tuple(str(i) for i in range(players))
    return Setup(game, ids, ids, stacks=(500,) * players, dealer=1, options={"ante": 10})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_okey_racks_and_indicator(players):
    ids = tuple(str(i) for i in range(players))
    played, engine = dealt(Setup("okey", ids, ids))
    found = disclose(played, SEED)
    assert found.order == committed_order(played.setup, SEED)
    for seat in range(players):
        assert sorted(found.order[p] for p in found.own(seat)) == sorted(engine.racks[seat])
    assert [found.order[p] for p in found.public] == [engine.indicator]
    assert deal_root("okey", None, SEED) == Commitment(found.order, SEED).root


@pytest.mark.parametrize("players", [2, 3, 5])
def test_turkish_hands_are_owned_and_nothing_is_public(players):
    played, engine = dealt(poker("turkish", players))
    found = disclose(played, SEED)
    for seat in range(players):
        assert sorted(found.order[p] for p in found.own(seat)) == sorted(
            str(c) for c in engine.hands[seat]
        )
    assert not found.public
    assert deal_root("turkish", engine, SEED) == Commitment(found.order, SEED).root


def test_acik_down_cards_stay_private_and_up_cards_are_public():
    played, engine = dealt(poker("acik", 3))
    found = disclose(played, SEED)
    for seat in range(3):
        own = {found.order[p] for p in found.own(seat)}
        assert own == {str(engine.down[seat]), str(engine.up[seat][0])}
        assert {found.order[p] for p in found.public} >= {str(engine.up[seat][0])}
    assert not {str(d) for d in engine.down} & {found.order[p] for p in found.public}


def test_a_folded_acik_down_card_stays_out_of_public():
    played, engine = dealt(poker("acik", 2))
    steps = list(played.steps)
    bettor = engine.to_act()
    spec = next(s for s in engine.legal_actions(bettor) if s.kind == "bet")
    bet = Action("bet", amount=spec.min_amount)
    steps.append(Step(bettor, bet, tuple(engine.apply(bettor, bet))))
    seat = engine.to_act()
    steps.append(Step(seat, Action("fold"), tuple(engine.apply(seat, Action("fold")))))
    found = disclose(Played(played.setup, tuple(steps), engine), SEED)
    assert engine.finished
    public = {found.order[p] for p in found.public}
    assert str(engine.down[seat]) not in public and str(engine.down[1 - seat]) not in public
