"""Card notation, parsing errors and the Card value's identity, order and immutability."""

import copy
import pickle

import pytest

from games.poker import Card, parse_cards
from games.poker.cards import FULL_DECK, cards_text, make_deck


def test_parse_notation_and_ten() -> None:
    card = Card.parse("10h")
    assert card is Card.parse("Th") is Card(10, "h")
    assert str(card) == "Th"
    assert (card.rank, card.suit) == (10, "h")
    assert str(Card.parse("Ah")) == "Ah"
    assert Card.parse("a♥") is Card(14, "h")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("Xh", "unknown rank 'X'"),
        ("Ax", "unknown suit 'x'"),
        ("1h", "unknown rank '1'"),
        ("h", "h"),
    ],
)
def test_parse_errors_name_the_card(text: str, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        Card.parse(text)


def test_parse_cards_text_and_sequences() -> None:
    assert cards_text(parse_cards("Ah, Kh 10h")) == "Ah Kh Th"
    assert parse_cards(["Ah", Card(13, "s")]) == [Card(14, "h"), Card(13, "s")]
    with pytest.raises(ValueError, match="duplicate card Ah"):
        parse_cards("Ah Kd Ah")
    with pytest.raises(ValueError, match="unknown rank"):
        parse_cards("Ah Zd")


def test_card_is_immutable_interned_and_ordered() -> None:
    card = Card(14, "h")
    with pytest.raises(AttributeError):
        card.rank = 2  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(card)) is card
    assert copy.deepcopy(card) is card
    assert len(set(FULL_DECK)) == 52
    assert Card(2, "c") < Card(2, "h") < Card(3, "c") < Card(14, "h")
    assert sorted(FULL_DECK) == list(FULL_DECK)
    with pytest.raises(ValueError, match="no such card"):
        Card(15, "h")


def test_make_deck_sizes() -> None:
    assert len(make_deck(2)) == 52
    assert len(make_deck(7)) == 32
    assert min(c.rank for c in make_deck(9)) == 9


def test_card_formats_as_notation() -> None:
    card = Card.parse("Td")
    assert f"{card}" == "Td"
    assert f"{card:>3}" == " Td"
    assert repr(card) == "Card('Td')"
    assert card != "Td"
