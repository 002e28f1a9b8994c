"""What the pictures show: suit inks, rank styles, okey marks, dimmed folded seats, the turn."""

from __future__ import annotations

import io

from PIL import Image

from bot.render.pictures import (
    HandScene,
    OkeyRackScene,
    PictureStyle,
    PokerSeat,
    PokerTableScene,
    render_hand,
    render_okey_rack,
    render_poker_table,
)
from bot.render.pictures.cards import card_back, card_image
from bot.render.pictures.poker import PANEL_SIZE, seat_centres
from bot.render.pictures.style import (
    CARD_BACK,
    FALSE_JOKER_INK,
    HIGHLIGHT,
    HOLE_FRAME,
    OKEY_MARK,
    SUIT_COLOURS_4,
)
from bot.render.pictures.tiles import tile_image

RED = SUIT_COLOURS_4["h"]
BLUE = SUIT_COLOURS_4["d"]
GREEN = SUIT_COLOURS_4["c"]


def count(image: Image.Image, colour: tuple[int, int, int], tolerance: int = 12) -> int:
    """How many pixels are within `tolerance` of `colour` on every channel."""
    rgb = image.convert("RGB")
    bands = [
        band.point(lambda v, c=c: 255 if abs(v - c) <= tolerance else 0)
        for band, c in zip(rgb.split(), colour, strict=True)
    ]
    mask = Image.new("L", rgb.size, 255)
    for band in bands:
        mask = Image.composite(band, Image.new("L", rgb.size, 0), mask)
    return mask.histogram()[255]


def png(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def test_suit_inks_two_and_four_colours() -> None:
    two, four = PictureStyle(), PictureStyle(four_colour=True)
    assert count(card_image("Ah", two, 80), RED) > 100
    assert count(card_image("Ad", two, 80), RED) > 100
    assert count(card_image("As", two, 80), RED) == 0
    assert count(card_image("Ad", four, 80), BLUE) > 100
    assert count(card_image("Ac", four, 80), GREEN) > 100
    assert count(card_image("Ad", four, 80), RED) == 0


def test_turkish_letters_change_the_face_cards_only() -> None:
    tr, intl = PictureStyle(ranks="tr"), PictureStyle()
    for card in ("Kh", "Qs", "Jd"):
        assert card_image(card, tr, 60).tobytes() != card_image(card, intl, 60).tobytes()
    for card in ("Ah", "Ts", "7c"):
        assert card_image(card, tr, 60).tobytes() == card_image(card, intl, 60).tobytes()


def test_card_back_is_not_a_face() -> None:
    assert count(card_back(60), CARD_BACK) > 500
    assert count(card_image("Ah", PictureStyle(), 60), CARD_BACK) == 0


def test_okey_tiles_are_starred_and_false_joker_is_green() -> None:
    assert count(tile_image("R6", 44, okey=True), OKEY_MARK) > 50
    assert count(tile_image("R6", 44), OKEY_MARK) == 0
    assert count(tile_image("F", 44), FALSE_JOKER_INK) > 100
    rack = png(render_okey_rack(OkeyRackScene(melds=(("R6", "R7", "R8"),), okey="R6")))
    plain = png(render_okey_rack(OkeyRackScene(melds=(("R6", "R7", "R8"),))))
    assert count(rack, OKEY_MARK) > count(plain, OKEY_MARK) + 100


def test_hand_shows_each_card() -> None:
    red = png(render_hand(HandScene(("Ah", "Kh")), PictureStyle()))
    black = png(render_hand(HandScene(("As", "Ks")), PictureStyle()))
    assert count(red, RED) > 300
    assert count(black, RED) == 0


def _panel(image: Image.Image, seat: int, seats: int) -> Image.Image:
    x, y = seat_centres(seats)[seat]
    w, h = PANEL_SIZE
    return image.crop((round(x - w / 2), round(y - h / 2), round(x + w / 2), round(y + h / 2)))


def test_folded_seat_is_dimmed_and_turn_is_highlighted() -> None:
    seats = (PokerSeat("a", 100, cards_up=("Ah", "Kh")), PokerSeat("b", 100, cards_up=("Ah", "Kh")))
    scene = PokerTableScene("acik", seats, 10, to_act=0)
    folded = PokerTableScene(
        "acik", (seats[0], PokerSeat("b", 100, cards_up=("Ah", "Kh"), folded=True)), 10, to_act=0
    )
    live, dim = png(render_poker_table(scene)), png(render_poker_table(folded))
    assert count(_panel(dim, 1, 2), RED) < count(_panel(live, 1, 2), RED) // 4
    assert count(_panel(live, 0, 2), HIGHLIGHT, 20) > 300
    assert count(_panel(live, 1, 2), HIGHLIGHT, 20) == 0


def test_face_down_cards_show_backs_only() -> None:
    seats = (PokerSeat("a", 100, cards_down_count=5), PokerSeat("b", 100, cards_down_count=5))
    image = png(render_poker_table(PokerTableScene("turkish", seats, 10)))
    assert count(image, CARD_BACK) > 1000
    assert count(image, RED) == 0


def test_hole_card_is_framed() -> None:
    framed = png(render_hand(HandScene(("Qs", "Ah"), hole=1)))
    plain = png(render_hand(HandScene(("Qs", "Ah"))))
    assert count(framed, HOLE_FRAME) > 300
    assert count(plain, HOLE_FRAME) == 0
    # The frame is around the first card only.
    second_card = framed.crop((framed.width // 2 + 2, 0, framed.width, framed.height))
    assert count(second_card, HOLE_FRAME) == 0
