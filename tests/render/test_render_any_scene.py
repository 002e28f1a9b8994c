"""Every valid scene renders to a PNG of the documented size and under 200 KB, and the pixels
follow the scene: equal scenes draw equal pictures, a different card or tile changes the pixels
where it is drawn, and the public table never depends on a hidden card."""

from __future__ import annotations

import dataclasses
import io

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from bot.render.pictures import (
    HandScene,
    OkeyRackScene,
    OkeyTableScene,
    PictureStyle,
    PokerTableScene,
    okey,
    poker,
    render_hand,
    render_okey_rack,
    render_okey_table,
    render_poker_table,
)
from bot.render.pictures.poker import HAND_CARD_WIDTH, HAND_GAP, HAND_PAD
from bot.render.pictures.views import okey_table_scene, poker_table_scene
from games.okey import new as new_okey_round
from games.poker import acik, turkish
from tests.render.strategies import (
    CARDS,
    TILES,
    hands,
    okey_racks,
    okey_tables,
    poker_tables,
)

MAX_PNG_BYTES = 200_000
styles = [PictureStyle(), PictureStyle(ranks="tr", four_colour=True, lang="tr")]


def decoded(png: bytes) -> Image.Image:
    """Decode PNG bytes, checking they are a PNG and small enough for chat."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(png) < MAX_PNG_BYTES
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


@settings(max_examples=60, deadline=None)
@given(hands())
def test_any_hand_renders(scene: HandScene) -> None:
    for style in styles:
        assert decoded(render_hand(scene, style)).size == poker.hand_size(scene)


@settings(max_examples=30, deadline=None)
@given(poker_tables())
def test_any_poker_table_renders(scene: PokerTableScene) -> None:
    assert decoded(
        render_poker_table(scene, styles[len(scene.seats) % 2])
    ).size == poker.table_size(scene)


@settings(max_examples=60, deadline=None)
@given(okey_racks())
def test_any_rack_renders(scene: OkeyRackScene) -> None:
    assert decoded(render_okey_rack(scene)).size == okey.rack_size(scene)


@settings(max_examples=30, deadline=None)
@given(okey_tables())
def test_any_okey_table_renders(scene: OkeyTableScene) -> None:
    assert decoded(render_okey_table(scene, styles[1])).size == okey.table_size(scene)


def test_hand_size_grows_with_cards_and_caption() -> None:
    two, five = HandScene(("Ah", "Kd")), HandScene(("Ah", "Kd", "Qc", "Js", "Th"))
    assert poker.hand_size(five)[0] > poker.hand_size(two)[0]
    assert (
        poker.hand_size(HandScene(("Ah",), label="x"))[1] > poker.hand_size(HandScene(("Ah",)))[1]
    )


def pixels(png: bytes) -> Image.Image:
    return decoded(png).convert("RGB")


def changed_box(a: bytes, b: bytes) -> tuple[int, int, int, int] | None:
    """The box where two same-size pictures differ, or None when they are pixel-equal."""
    first, second = pixels(a), pixels(b)
    assert first.size == second.size
    return ImageChops.difference(first, second).getbbox()


@settings(max_examples=40, deadline=None)
@given(hands(), st.sampled_from(styles))
def test_equal_hands_draw_equal_pixels(scene: HandScene, style: PictureStyle) -> None:
    again = HandScene(tuple(scene.cards), scene.label, scene.hole)
    assert changed_box(render_hand(scene, style), render_hand(again, style)) is None


@settings(max_examples=60, deadline=None)
@given(hands(), st.data())
def test_a_different_card_changes_the_pixels_of_that_card_only(scene: HandScene, data) -> None:
    index = data.draw(st.integers(0, len(scene.cards) - 1))
    other = data.draw(st.sampled_from(CARDS))
    assume(other != scene.cards[index])
    cards = list(scene.cards)
    cards[index] = other
    changed = dataclasses.replace(scene, cards=tuple(cards))
    style = data.draw(st.sampled_from(styles))
    box = changed_box(render_hand(scene, style), render_hand(changed, style))
    assert box is not None, (scene.cards[index], other)
    step = HAND_CARD_WIDTH + HAND_GAP
    left = HAND_PAD + index * step
    assert left - 5 <= box[0] and box[2] <= left + HAND_CARD_WIDTH + 5


@settings(max_examples=40, deadline=None)
@given(okey_racks(), st.data())
def test_a_different_rack_tile_changes_the_pixels(scene: OkeyRackScene, data) -> None:
    assume(scene.loose)
    index = data.draw(st.integers(0, len(scene.loose) - 1))
    other = data.draw(st.sampled_from(TILES))
    assume(other != scene.loose[index])
    loose = list(scene.loose)
    loose[index] = other
    changed = dataclasses.replace(scene, loose=tuple(loose))
    assert changed_box(render_okey_rack(scene), render_okey_rack(changed)) is not None
    assert changed_box(render_okey_rack(scene), render_okey_rack(scene)) is None


@settings(max_examples=25, deadline=None)
@given(poker_tables(), st.data())
def test_a_different_face_up_card_changes_the_table(scene: PokerTableScene, data) -> None:
    with_cards = [i for i, seat in enumerate(scene.seats) if seat.cards_up]
    assume(with_cards)
    seat_no = data.draw(st.sampled_from(with_cards))
    seat = scene.seats[seat_no]
    index = data.draw(st.integers(0, len(seat.cards_up) - 1))
    other = data.draw(st.sampled_from(CARDS))
    assume(other != seat.cards_up[index])
    up = list(seat.cards_up)
    up[index] = other
    seats = list(scene.seats)
    seats[seat_no] = dataclasses.replace(seat, cards_up=tuple(up))
    changed = dataclasses.replace(scene, seats=tuple(seats))
    style = styles[0]
    assert changed_box(render_poker_table(scene, style), render_poker_table(changed, style))


def swap_hidden_poker(data: dict, shift: int) -> dict:
    """The same public state with the hidden cards moved between seats: the down cards (Açık) or
    the whole hands (Türk pokeri, before any showdown)."""
    data = dict(data)
    keys = ("down",) if data["game"] == "acik" else ("hands", "openers")
    for key in keys:
        values = list(data[key])
        data[key] = values[shift:] + values[:shift]
    return data


@settings(max_examples=20, deadline=None)
@given(
    st.sampled_from(["turkish", "acik"]),
    st.binary(min_size=32, max_size=32),
    st.integers(2, 5),
    st.integers(1, 4),
)
def test_the_public_poker_table_never_draws_a_hidden_card(game, seed, players, shift) -> None:
    module = turkish if game == "turkish" else acik
    hand = module.new([f"p{i}" for i in range(players)], [100] * players, seed=seed, dealer=0)
    other = type(hand).from_dict(swap_hidden_poker(hand.to_dict(), shift % players or 1))
    names = [f"Oyuncu {i}" for i in range(players)]
    assert other.to_dict() != hand.to_dict()
    for style in styles:
        first = render_poker_table(poker_table_scene(hand.view(None), names), style)
        second = render_poker_table(poker_table_scene(other.view(None), names), style)
        assert changed_box(first, second) is None


@settings(max_examples=20, deadline=None)
@given(st.integers(2, 4), st.binary(min_size=32, max_size=32), st.integers(0, 13))
def test_the_public_okey_table_never_draws_a_hidden_tile(players, seed, index) -> None:
    game = new_okey_round([f"p{i}" for i in range(players)], seed, None)
    data = game.to_dict()
    first, second = data["racks"][0], data["racks"][1]
    # swap one tile of the first rack for a different tile of the second: the racks change, what
    # the table shows does not
    i = index % len(first)
    j = next(k for k, tile in enumerate(second) if tile != first[i])
    first[i], second[j] = second[j], first[i]
    other = type(game).from_dict(data)
    assert other.to_dict() != game.to_dict()
    names = ["Ayşe", "Mehmet", "Gülşen", "İsmail"][:players]
    picture = render_okey_table(okey_table_scene(game.view(None), names), styles[1])
    again = render_okey_table(okey_table_scene(other.view(None), names), styles[1])
    assert changed_box(picture, again) is None
