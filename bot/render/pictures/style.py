"""Colours, rank letters and the few words pictures carry, in Turkish and English.

Every picture is opaque (a felt-green table) and every card or tile face is light with a dark
border, so pictures read the same on light and dark chat themes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

RGB = tuple[int, int, int]

FELT: RGB = (21, 96, 62)
FELT_DARK: RGB = (14, 70, 45)
FELT_EDGE: RGB = (92, 58, 30)
TEXT: RGB = (245, 245, 240)
TEXT_MUTED: RGB = (190, 210, 195)
PANEL: RGB = (16, 40, 30)
HIGHLIGHT: RGB = (255, 205, 60)
WINNER: RGB = (120, 230, 120)
HOLE_FRAME: RGB = (90, 160, 255)  # around the cards only their owner sees
ODDS: RGB = (150, 200, 235)  # a live player's chance of winning (Açık poker's live odds)
CARD_FACE: RGB = (255, 255, 255)
CARD_BORDER: RGB = (60, 60, 60)
# Backs are blue with a round mark, so a face-down card is never mistaken for a red diamond.
CARD_BACK: RGB = (35, 60, 140)
CARD_BACK_PATTERN: RGB = (110, 140, 215)
CHIP: RGB = (230, 200, 80)
CHIP_TEXT: RGB = (40, 30, 10)
BUTTON: RGB = (250, 250, 250)
RACK: RGB = (122, 78, 40)
RACK_SHADOW: RGB = (84, 52, 24)
TILE_FACE: RGB = (250, 243, 222)
TILE_BORDER: RGB = (120, 105, 80)
TILE_BACK: RGB = (225, 215, 185)
OKEY_MARK: RGB = (214, 150, 0)
FALSE_JOKER_INK: RGB = (20, 120, 60)

# Two-colour deck: red hearts and diamonds, black spades and clubs. The four-colour deck of online
# poker rooms: hearts red, diamonds blue, clubs green, spades black.
SUIT_COLOURS: dict[str, RGB] = {
    "h": (200, 20, 30),
    "d": (200, 20, 30),
    "s": (20, 20, 20),
    "c": (20, 20, 20),
}
SUIT_COLOURS_4: dict[str, RGB] = {
    "h": (200, 20, 30),
    "d": (20, 80, 200),
    "s": (20, 20, 20),
    "c": (20, 130, 50),
}
SUIT_SYMBOLS = {"h": "♥", "s": "♠", "d": "♦", "c": "♣"}

# Okey tile inks: red, yellow (an orange that stays readable on cream), blue, black.
TILE_COLOURS: dict[str, RGB] = {
    "R": (205, 30, 35),
    "Y": (225, 140, 0),
    "B": (25, 85, 200),
    "K": (25, 25, 25),
}

# Tiles readable without colour (`tiles="symbols"`): each colour marked with its own shape as well,
# the same shapes on the web page (● ▲ ■ ◆).
TILE_SHAPES: dict[str, str] = {"R": "circle", "Y": "triangle", "B": "square", "K": "diamond"}
TILE_SYMBOLS: dict[str, str] = {"R": "●", "Y": "▲", "B": "■", "K": "◆"}

# Rank letters. Turkish names: As (ace), Papaz (king), Kız (queen), Vale (jack); ten is "10".
RANK_LETTERS: dict[str, dict[str, str]] = {
    "intl": {"A": "A", "K": "K", "Q": "Q", "J": "J", "T": "10"},
    "tr": {"A": "A", "K": "P", "Q": "K", "J": "V", "T": "10"},
}

Lang = Literal["tr", "en"]
RankStyle = Literal["intl", "tr"]
TileStyle = Literal["colours", "symbols"]
TILE_STYLES: tuple[TileStyle, ...] = ("colours", "symbols")

WORDS: dict[str, dict[str, str]] = {
    "pot": {"tr": "Pot", "en": "Pot"},
    "folded": {"tr": "Çekildi", "en": "Folded"},
    "all_in": {"tr": "All-in", "en": "All-in"},
    "stock": {"tr": "Deste", "en": "Stock"},
    "indicator": {"tr": "Gösterge", "en": "Indicator"},
    "okey": {"tr": "Okey", "en": "Okey"},
    "penalty": {"tr": "Ceza", "en": "Penalty"},
    "points": {"tr": "Puan", "en": "Points"},
    "tiles": {"tr": "taş", "en": "tiles"},
}


@dataclass(frozen=True)
class PictureStyle:
    """How pictures look: rank letters (`intl` A K Q J or `tr` A P K V), the four-colour deck,
    the language of the few words drawn (`tr` or `en`) and the tiles (`colours`, or `symbols`:
    each tile colour marked with its own shape as well, for players who cannot tell the colours
    apart)."""

    ranks: RankStyle = "intl"
    four_colour: bool = False
    lang: Lang = "en"
    tiles: TileStyle = "colours"

    def __post_init__(self) -> None:
        if self.ranks not in RANK_LETTERS:
            raise ValueError(f"ranks must be 'intl' or 'tr', got {self.ranks!r}")
        if self.lang not in ("tr", "en"):
            raise ValueError(f"lang must be 'tr' or 'en', got {self.lang!r}")
        if self.tiles not in TILE_STYLES:
            raise ValueError(f"tiles must be 'colours' or 'symbols', got {self.tiles!r}")

    @property
    def symbols(self) -> bool:
        """Whether tiles carry their colour's shape (`tiles="symbols"`)."""
        return self.tiles == "symbols"

    def word(self, key: str) -> str:
        """The word `key` in this style's language."""
        return WORDS[key][self.lang]

    def rank_letter(self, rank: str) -> str:
        """The letter(s) printed for a rank in notation (`T` -> `10`, `K` -> `K` or `P`)."""
        return RANK_LETTERS[self.ranks].get(rank, rank)

    def suit_colour(self, suit: str) -> RGB:
        """The ink of a suit."""
        return (SUIT_COLOURS_4 if self.four_colour else SUIT_COLOURS)[suit]
