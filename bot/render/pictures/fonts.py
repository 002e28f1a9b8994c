"""The fonts pictures are drawn with: DejaVu Sans, shipped in `fonts/` (see fonts/LICENSE.txt).

DejaVu covers the Turkish letters (ğüşıöçİ) and the suit symbols, so no system font is assumed.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).with_name("fonts")
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Return the shipped font at `size` pixels (cached: loading a face costs ~1 ms)."""
    return ImageFont.truetype(str(BOLD if bold else REGULAR), size)
