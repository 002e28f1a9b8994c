"""Fixed scenes compared with their golden images by mean pixel difference, within a tolerance
that absorbs anti-aliasing changes between Pillow/FreeType versions but not a changed picture."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from tests.bot.render.golden_scenes import GOLDEN

GOLDEN_DIR = Path(__file__).with_name("golden")
TOLERANCE = 2.0  # mean absolute difference per channel, on a 0-255 scale


def mean_difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference of two same-sized RGB images, averaged over channels."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    return sum(ImageStat.Stat(diff).mean) / 3


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_picture_matches_golden(name: str) -> None:
    path = GOLDEN_DIR / f"{name}.png"
    assert path.exists(), (
        f"missing {path}: run python -m tests.bot.render.make_golden and review it"
    )
    expected = Image.open(path)
    actual = Image.open(io.BytesIO(GOLDEN[name]()))
    assert actual.size == expected.size
    assert mean_difference(actual, expected) <= TOLERANCE


def test_tolerance_catches_a_changed_picture() -> None:
    expected = Image.open(GOLDEN_DIR / "okey_rack.png")
    actual = Image.open(io.BytesIO(GOLDEN["okey_table"]())).resize(expected.size)
    assert mean_difference(actual, expected) > TOLERANCE
