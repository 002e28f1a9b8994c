"""Fixed scenes compared with their golden images, within a tolerance that absorbs
anti-aliasing changes between Pillow/FreeType versions but not a changed picture.

Two measures: the mean absolute difference over the whole picture (catches global changes:
colours, layout) and the worst mean difference in any 32x32 block (catches a local change, such
as a card's suit colour or a moved panel, that the whole-picture mean dilutes). Which cards a
picture holds is checked on the scenes, not by pixels.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from tests.render.golden_scenes import GOLDEN

GOLDEN_DIR = Path(__file__).with_name("golden")
MEAN_TOLERANCE = 1.0  # per channel, 0-255 scale
BLOCK = 32
BLOCK_TOLERANCE = 12.0  # a 2x resample round trip measures ~6, a card changing suit colour ~20


def differences(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """(mean absolute difference, worst BLOCK x BLOCK block mean) of two same-sized images."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).convert("L")
    mean = ImageStat.Stat(diff).mean[0]
    w, h = diff.size
    worst = max(
        ImageStat.Stat(diff.crop((x, y, min(w, x + BLOCK), min(h, y + BLOCK)))).mean[0]
        for y in range(0, h, BLOCK)
        for x in range(0, w, BLOCK)
    )
    return mean, worst


def load(name: str) -> Image.Image:
    path = GOLDEN_DIR / f"{name}.png"
    assert path.exists(), f"missing {path}: run python -m tests.render.make_golden and review it"
    return Image.open(path)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_picture_matches_golden(name: str) -> None:
    expected = load(name)
    actual = Image.open(io.BytesIO(GOLDEN[name]()))
    assert actual.size == expected.size
    mean, worst = differences(actual, expected)
    assert mean <= MEAN_TOLERANCE
    assert worst <= BLOCK_TOLERANCE


def test_tolerance_absorbs_resampling_noise() -> None:
    expected = load("acik_showdown").convert("RGB")
    noisy = expected.resize((expected.width * 2, expected.height * 2)).resize(
        expected.size, Image.Resampling.LANCZOS
    )
    mean, worst = differences(noisy, expected)
    assert mean <= MEAN_TOLERANCE
    assert worst <= BLOCK_TOLERANCE


def test_tolerance_catches_a_changed_picture() -> None:
    expected = load("okey_rack")
    other = Image.open(io.BytesIO(GOLDEN["okey_table"]())).resize(expected.size)
    assert differences(other, expected)[0] > MEAN_TOLERANCE
    # A 20x20 patch of another ink (about one card's suit symbol) somewhere on a full table.
    shifted = load("acik_showdown").convert("RGB")
    shifted.paste((20, 80, 200), (400, 520, 420, 540))
    assert differences(shifted, load("acik_showdown"))[1] > BLOCK_TOLERANCE
