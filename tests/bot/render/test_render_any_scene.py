"""Every valid scene renders to a PNG of the documented size and under 200 KB."""

from __future__ import annotations

import io

from hypothesis import given, settings
from PIL import Image

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
from tests.bot.render.strategies import hands, okey_racks, okey_tables, poker_tables

MAX_PNG_BYTES = 200_000
styles = [PictureStyle(), PictureStyle(ranks="tr", four_colour=True, lang="tr")]


def decoded(png: bytes) -> Image.Image:
    """Decode PNG bytes, checking they are a PNG and small enough for chat."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(png) < MAX_PNG_BYTES
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


@settings(max_examples=30)
@given(hands())
def test_any_hand_renders(scene: HandScene) -> None:
    for style in styles:
        assert decoded(render_hand(scene, style)).size == poker.hand_size(scene)


@settings(max_examples=20)
@given(poker_tables())
def test_any_poker_table_renders(scene: PokerTableScene) -> None:
    assert decoded(
        render_poker_table(scene, styles[len(scene.seats) % 2])
    ).size == poker.table_size(scene)


@settings(max_examples=30)
@given(okey_racks())
def test_any_rack_renders(scene: OkeyRackScene) -> None:
    assert decoded(render_okey_rack(scene)).size == okey.rack_size(scene)


@settings(max_examples=20)
@given(okey_tables())
def test_any_okey_table_renders(scene: OkeyTableScene) -> None:
    assert decoded(render_okey_table(scene, styles[1])).size == okey.table_size(scene)


def test_hand_size_grows_with_cards_and_caption() -> None:
    two, five = HandScene(("Ah", "Kd")), HandScene(("Ah", "Kd", "Qc", "Js", "Th"))
    assert poker.hand_size(five)[0] > poker.hand_size(two)[0]
    assert (
        poker.hand_size(HandScene(("Ah",), label="x"))[1] > poker.hand_size(HandScene(("Ah",)))[1]
    )
