"""101 Okey pictures: a player's rack (21-22 tiles) with the tiles that can be laid marked, and the
public table (the classic Okey table picture) with the melds lying on the table under it, each
with its owner and how they opened.

Scenes are built from views by `bot.render.pictures.views` (`okey101_rack_scene` from a seat's
own view, `okey101_table_scene` from the public view only).
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render.pictures.draw import to_png
from bot.render.pictures.fonts import font
from bot.render.pictures.notation import parse_tile
from bot.render.pictures.okey import draw_table as draw_classic_table
from bot.render.pictures.scenes import OkeyTableScene, _check_tiles
from bot.render.pictures.style import FELT, FELT_DARK, HIGHLIGHT, TEXT, TEXT_MUTED, PictureStyle
from bot.render.pictures.tiles import tile_image, tile_size

RACK_TILE = 44
RACK_ROW = 12  # tiles per rack row
MELD_TILE = 30
PAD = 14
GAP = 3
LABEL_W = 150  # the owner column left of each meld
MELD_COLUMNS = 2
WORDS = {
    "marked": {"tr": "Açılabilir / işlenebilir", "en": "Can be laid or added"},
    "no_melds": {"tr": "Masada per yok", "en": "No melds on the table yet"},
}


@dataclass(frozen=True)
class Okey101RackScene:
    """One player's rack in order; `marked[i]` says whether `tiles[i]` can be laid (in the best
    opening, or added to a meld on the table); `okey` the wild tile (marked with a star)."""

    tiles: tuple[str, ...]
    marked: tuple[bool, ...]
    indicator: str | None = None
    okey: str | None = None

    def __post_init__(self) -> None:
        _check_tiles(self.tiles)
        if len(self.marked) != len(self.tiles):
            raise ValueError("one mark per tile")


@dataclass(frozen=True)
class MeldRow:
    """A meld lying on the table: its number, its owner's label (name and opening) and tiles."""

    number: int
    owner: str
    tiles: tuple[str, ...]


@dataclass(frozen=True)
class Okey101TableScene:
    """The public 101 table: the classic table scene, then the melds on the table."""

    table: OkeyTableScene
    melds: tuple[MeldRow, ...]

    def __post_init__(self) -> None:
        for meld in self.melds:
            _check_tiles(meld.tiles)


def _is_okey(tile: str, okey: str | None) -> bool:
    return okey is not None and parse_tile(tile) == parse_tile(okey)


def draw_rack(scene: Okey101RackScene, style: PictureStyle) -> Image.Image:
    """The rack on rows of `RACK_ROW` tiles, a bar under each tile that can be laid."""
    tile_w, tile_h = tile_size(RACK_TILE)
    rows = max(1, -(-len(scene.tiles) // RACK_ROW))
    width = PAD * 2 + RACK_ROW * (tile_w + GAP)
    height = PAD * 2 + rows * (tile_h + 14) + 22
    image = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(image)
    for k, tile in enumerate(scene.tiles):
        x = PAD + (k % RACK_ROW) * (tile_w + GAP)
        y = PAD + (k // RACK_ROW) * (tile_h + 14)
        face = tile_image(tile, RACK_TILE, okey=_is_okey(tile, scene.okey), symbols=style.symbols)
        image.paste(face, (x, y), face)
        if scene.marked[k]:
            draw.rectangle((x + 2, y + tile_h + 3, x + tile_w - 2, y + tile_h + 8), fill=HIGHLIGHT)
    draw.rectangle((PAD, height - PAD - 10, PAD + 24, height - PAD - 5), fill=HIGHLIGHT)
    draw.text(
        (PAD + 32, height - PAD - 14),
        WORDS["marked"][style.lang],
        font=font(13, False),
        fill=TEXT_MUTED,
    )
    return image


def render_rack(scene: Okey101RackScene, style: PictureStyle | None = None) -> bytes:
    """PNG bytes of a 101 rack (send it to that player only)."""
    return to_png(draw_rack(scene, style or PictureStyle()))


def _melds_panel(scene: Okey101TableScene, width: int, style: PictureStyle) -> Image.Image:
    tile_w, tile_h = tile_size(MELD_TILE)
    row_h = tile_h + 8
    per_column = max(1, -(-len(scene.melds) // MELD_COLUMNS))
    height = PAD * 2 + max(1, per_column) * row_h
    panel = Image.new("RGB", (width, height), FELT_DARK)
    draw = ImageDraw.Draw(panel)
    if not scene.melds:
        draw.text((PAD, PAD), WORDS["no_melds"][style.lang], font=font(15, True), fill=TEXT_MUTED)
        return panel
    column_w = (width - PAD) // MELD_COLUMNS
    okey = scene.table.okey
    for k, meld in enumerate(scene.melds):
        col, row = divmod(k, per_column)
        x = PAD + col * column_w
        y = PAD + row * row_h
        label = f"{meld.number}) {meld.owner}"
        draw.text((x, y + tile_h / 2), label[:22], font=font(13, True), fill=TEXT, anchor="lm")
        tx = x + LABEL_W
        room = max(1, (column_w - LABEL_W - PAD) // (tile_w + 1))
        for tile in meld.tiles[:room]:
            face = tile_image(tile, MELD_TILE, okey=_is_okey(tile, okey), symbols=style.symbols)
            panel.paste(face, (tx, y), face)
            tx += tile_w + 1
    return panel


def draw_table(scene: Okey101TableScene, style: PictureStyle) -> Image.Image:
    """The classic table picture with the melds panel under it."""
    top = draw_classic_table(scene.table, style)
    panel = _melds_panel(scene, top.width, style)
    image = Image.new("RGB", (top.width, top.height + panel.height), FELT_DARK)
    image.paste(top, (0, 0))
    image.paste(panel, (0, top.height))
    return image


def render_table(scene: Okey101TableScene, style: PictureStyle | None = None) -> bytes:
    """PNG bytes of the public 101 table."""
    return to_png(draw_table(scene, style or PictureStyle()))
