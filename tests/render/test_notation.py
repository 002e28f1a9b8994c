"""Card and tile notation as the pictures read it."""

import pytest

from bot.render.pictures.notation import (
    Card,
    NotationError,
    Tile,
    parse_card,
    parse_tile,
    tile_name,
)


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("Ah", Card("A", "h")),
        ("Td", Card("T", "d")),
        ("10c", Card("T", "c")),
        ("7s", Card("7", "s")),
    ],
)
def test_parse_card(text: str, card: Card) -> None:
    assert parse_card(text) == card


@pytest.mark.parametrize("text", ["", "A", "Ax", "1h", "11h", "Zh", "AhK", "0s"])
def test_bad_card_names_are_refused_with_the_name(text: str) -> None:
    with pytest.raises(NotationError, match="not a card"):
        parse_card(text)


@pytest.mark.parametrize(
    ("text", "tile"),
    [("R5", Tile("R", 5)), ("K13", Tile("K", 13)), ("b1", Tile("B", 1)), ("F", Tile(None, None))],
)
def test_parse_tile(text: str, tile: Tile) -> None:
    assert parse_tile(text) == tile
    assert tile_name(parse_tile(text)) == text.upper()


@pytest.mark.parametrize("text", ["", "R", "R0", "R14", "G5", "R05", "5R", "FF"])
def test_bad_tile_names_are_refused(text: str) -> None:
    with pytest.raises(NotationError, match="not a tile"):
        parse_tile(text)


def test_false_joker_is_flagged() -> None:
    assert parse_tile("F").false_joker
    assert not parse_tile("Y7").false_joker
