"""Scenes refuse bad input with a message that names the problem."""

import pytest

from bot.render.pictures import (
    HandScene,
    NotationError,
    OkeyRackScene,
    OkeyTableScene,
    PictureStyle,
    PokerSeat,
    PokerTableScene,
)


def test_hand_needs_cards_and_valid_names() -> None:
    with pytest.raises(ValueError, match="1-10 cards"):
        HandScene(())
    with pytest.raises(NotationError, match="'Xx'"):
        HandScene(("Ah", "Xx"))
    with pytest.raises(ValueError, match="hole"):
        HandScene(("Ah",), hole=2)


def test_poker_seat_checks_amounts_and_cards() -> None:
    with pytest.raises(ValueError, match="stack and stake"):
        PokerSeat("ayse", -1)
    with pytest.raises(NotationError):
        PokerSeat("ayse", 10, cards_up=("Q",))


def test_poker_table_checks_seats() -> None:
    seats = (PokerSeat("a", 10), PokerSeat("b", 10))
    with pytest.raises(ValueError, match="to_act"):
        PokerTableScene("turkish", seats, 0, to_act=2)
    with pytest.raises(ValueError, match="dealer"):
        PokerTableScene("acik", seats, 0, dealer=-1)
    with pytest.raises(ValueError, match="game"):
        PokerTableScene("holdem", seats, 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="1-10 seats"):
        PokerTableScene("acik", seats * 6, 0)


def test_okey_scenes_check_lengths_and_tiles() -> None:
    with pytest.raises(ValueError, match="discard_tops"):
        OkeyTableScene(("a", "b"), ("R1",), 10)
    with pytest.raises(ValueError, match="penalties"):
        OkeyTableScene(("a", "b"), (None, None), 10, penalties=(1,))
    with pytest.raises(ValueError, match="2-4 seats"):
        OkeyTableScene(("a",), (None,), 10)
    with pytest.raises(NotationError):
        OkeyRackScene(melds=(("R1", "R2", "R99"),))
    with pytest.raises(ValueError, match="at least one tile"):
        OkeyRackScene(melds=((),))


def test_style_options_are_checked() -> None:
    with pytest.raises(ValueError, match="ranks"):
        PictureStyle(ranks="de")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="lang"):
        PictureStyle(lang="fr")  # type: ignore[arg-type]


def test_turkish_rank_letters() -> None:
    tr, intl = PictureStyle(ranks="tr"), PictureStyle()
    assert [tr.rank_letter(r) for r in "AKQJT9"] == ["A", "P", "K", "V", "10", "9"]
    assert [intl.rank_letter(r) for r in "AKQJT9"] == ["A", "K", "Q", "J", "10", "9"]
