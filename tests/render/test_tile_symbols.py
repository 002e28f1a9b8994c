"""Tiles readable without colour (`PictureStyle(tiles="symbols")`): each colour carries its own
shape under the number, on racks and tables alike; the default pictures keep the dot."""

from __future__ import annotations

import io
from itertools import combinations

import pytest
from PIL import Image

from bot.render.pictures import OkeyRackScene, OkeyTableScene, PictureStyle, render_okey_rack
from bot.render.pictures.okey import render_table as render_okey_table
from bot.render.pictures.okey101 import Okey101RackScene
from bot.render.pictures.okey101 import render_rack as render_okey101_rack
from bot.render.pictures.style import TILE_COLOURS, TILE_SHAPES
from bot.render.pictures.tiles import tile_image

WIDTH = 120  # large enough that a shape is many pixels
SYMBOLS = PictureStyle(tiles="symbols")


def mark_mask(tile: str, symbols: bool) -> set[tuple[int, int]]:
    """The pixels of the mark under the number (the dot, or the shape) that carry the ink."""
    face = tile_image(tile, WIDTH, symbols=symbols).convert("RGB")
    ink = TILE_COLOURS[tile[0]]
    w, h = face.size
    out = set()
    for y in range(round(h * 0.62), round(h * 0.92)):
        for x in range(w):
            pixel = face.getpixel((x, y))
            assert isinstance(pixel, tuple)
            if all(abs(p - c) <= 40 for p, c in zip(pixel, ink, strict=True)):
                out.add((x, y))
    return out


def outline(mask: set[tuple[int, int]]) -> tuple[float, float]:
    """(share of its bounding box the mark fills, ink in its top half / ink in its bottom half)."""
    xs = [x for x, _ in mask]
    ys = [y for _, y in mask]
    box = (max(xs) - min(xs) + 1) * (max(ys) - min(ys) + 1)
    middle = (max(ys) + min(ys)) / 2
    top = sum(1 for _, y in mask if y < middle)
    bottom = sum(1 for _, y in mask if y > middle)
    return len(mask) / box, top / bottom


def apart(a: tuple[float, float], b: tuple[float, float]) -> float:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def png_image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def differing(a: Image.Image, b: Image.Image) -> int:
    assert a.size == b.size
    return sum(1 for p, q in zip(a.getdata(), b.getdata(), strict=True) if p != q)


def test_style_refuses_an_unknown_tile_style() -> None:
    with pytest.raises(ValueError, match="tiles must be"):
        PictureStyle(tiles="shapes")  # type: ignore[arg-type]
    assert PictureStyle().tiles == "colours" and not PictureStyle().symbols
    assert SYMBOLS.symbols


def test_every_colour_has_its_own_shape() -> None:
    assert sorted(TILE_SHAPES) == sorted(TILE_COLOURS)
    assert len(set(TILE_SHAPES.values())) == len(TILE_COLOURS)
    masks = {c: mark_mask(f"{c}7", symbols=True) for c in TILE_COLOURS}
    dots = {c: mark_mask(f"{c}7", symbols=False) for c in TILE_COLOURS}
    for colour in TILE_COLOURS:
        # the shape is a larger mark than the plain dot, in the colour's own ink
        assert len(masks[colour]) > 1.5 * len(dots[colour]) > 0
    # the dots all look alike; the shapes do not: how much of its box a mark fills (circle
    # ~0.79, triangle and diamond ~0.5, square 1) and how its ink splits between its top and
    # bottom halves (a triangle is heavier at the bottom) tell every pair apart
    shapes = {c: outline(m) for c, m in masks.items()}
    plain = {c: outline(m) for c, m in dots.items()}
    for a, b in combinations(TILE_COLOURS, 2):
        assert apart(shapes[a], shapes[b]) > 0.15, (a, b, shapes[a], shapes[b])
        assert apart(plain[a], plain[b]) < 0.1, (a, b)


def test_the_false_joker_and_backs_are_unchanged() -> None:
    plain = tile_image("F", WIDTH).convert("RGB")
    marked = tile_image("F", WIDTH, symbols=True).convert("RGB")
    assert differing(plain, marked) == 0


def test_rack_pictures_follow_the_style() -> None:
    scene = OkeyRackScene(melds=(("R1", "Y1", "B1", "K1"),), loose=("R9",), indicator="B4")
    plain = png_image(render_okey_rack(scene))
    marked = png_image(render_okey_rack(scene, SYMBOLS))
    assert differing(plain, marked) > 200
    again = png_image(render_okey_rack(scene, PictureStyle(tiles="colours")))
    assert differing(plain, again) == 0

    tiles = ("R3", "Y3", "B3", "K3", "F")
    scene101 = Okey101RackScene(tiles=tiles, marked=(True,) * 5, indicator="K2", okey="K3")
    plain101 = png_image(render_okey101_rack(scene101))
    marked101 = png_image(render_okey101_rack(scene101, SYMBOLS))
    assert differing(plain101, marked101) > 200


def test_table_pictures_follow_the_style() -> None:
    scene = OkeyTableScene(("A", "B"), ("R5", "Y6"), 40, indicator="B2", okey="B3")
    plain = png_image(render_okey_table(scene))
    marked = png_image(render_okey_table(scene, SYMBOLS))
    assert differing(plain, marked) > 100
