"""Okey pictures: a player's rack on two rows and the public table (discards, stock, indicator)."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.pictures.draw import fit_text, layered, smooth_mask, to_png
from bot.render.pictures.fonts import font
from bot.render.pictures.notation import parse_tile
from bot.render.pictures.scenes import OkeyRackScene, OkeyTableScene
from bot.render.pictures.style import (
    FELT,
    FELT_DARK,
    FELT_EDGE,
    HIGHLIGHT,
    PANEL,
    RACK,
    RACK_SHADOW,
    TEXT,
    TEXT_MUTED,
    WINNER,
    PictureStyle,
)
from bot.render.pictures.tiles import tile_back, tile_image, tile_size

RACK_TILE_WIDTH = 44
RACK_SLOTS = 14  # tile places per rack row
RACK_ROWS = 2
SLOT_GAP = 3
PAD = 14
SIDE_WIDTH = 110  # the indicator column left of the rack
ROW_LIP = 12  # the wooden lip under each row of tiles

TABLE_SIZE = (760, 560)
TABLE_TILE_WIDTH = 40
OKEY_BADGE_WIDTH = 28  # the small okey tile in the table's centre
SEAT_PANEL = (190, 66)


class RackOverflow(ValueError):
    """The tiles and their group gaps do not fit on the two rows of a rack."""


def layout_rack(scene: OkeyRackScene) -> list[list[str | None]]:
    """Place the tiles on RACK_ROWS rows of RACK_SLOTS slots (None = empty slot).

    Melds go left to right in order with one empty slot between groups; a meld that does not fit
    in the rest of a row starts the next row (and is split only if longer than a whole row). The
    loose tiles follow the last meld after one empty slot, wrapping as needed.
    """
    rows: list[list[str | None]] = [[]]

    def room() -> int:
        return RACK_SLOTS - len(rows[-1])

    def new_row() -> None:
        if len(rows) == RACK_ROWS:
            raise RackOverflow(
                f"{len(scene.tiles)} tiles in {len(scene.melds)} groups do not fit on a rack of "
                f"{RACK_ROWS} rows of {RACK_SLOTS}"
            )
        rows.append([])

    groups = [list(m) for m in scene.melds] + ([list(scene.loose)] if scene.loose else [])
    loose_index = len(scene.melds)
    for index, group in enumerate(groups):
        gap = 1 if rows[-1] else 0
        splittable = index == loose_index or len(group) > RACK_SLOTS
        if not splittable and len(group) + gap > room():
            new_row()
            gap = 0
        if gap and room() > 0:
            rows[-1].append(None)
        for tile in group:
            if room() == 0:
                new_row()
            rows[-1].append(tile)
    while len(rows) < RACK_ROWS:
        rows.append([])
    for row in rows:
        row.extend([None] * (RACK_SLOTS - len(row)))
    return rows


def rack_size(scene: OkeyRackScene | None = None) -> tuple[int, int]:
    """The (width, height) of the picture `render_rack` draws (the same for every rack)."""
    tile_w, tile_h = tile_size(RACK_TILE_WIDTH)
    rack_w = RACK_SLOTS * (tile_w + SLOT_GAP) + SLOT_GAP + 2 * 8
    width = PAD + SIDE_WIDTH + PAD + rack_w + PAD
    height = PAD + RACK_ROWS * (tile_h + ROW_LIP + 8) + 8 + PAD
    return width, height


def _is_okey(tile: str, okey: str | None) -> bool:
    return okey is not None and parse_tile(tile) == parse_tile(okey)


def _side_column(
    image: Image.Image, draw: ImageDraw.ImageDraw, scene: OkeyRackScene, style: PictureStyle
) -> None:
    x = PAD + SIDE_WIDTH / 2
    y = PAD + 4
    tile_w, tile_h = tile_size(RACK_TILE_WIDTH)
    if scene.indicator is not None:
        draw.text(
            (x, y), style.word("indicator"), font=font(14, True), fill=TEXT_MUTED, anchor="ma"
        )
        face = tile_image(scene.indicator, RACK_TILE_WIDTH, symbols=style.symbols)
        image.paste(face, (round(x - tile_w / 2), y + 20), face)
        y += 20 + tile_h + 10
    if scene.okey is not None:
        draw.text((x, y), style.word("okey"), font=font(14, True), fill=TEXT_MUTED, anchor="ma")
        face = tile_image(scene.okey, RACK_TILE_WIDTH, okey=True, symbols=style.symbols)
        image.paste(face, (round(x - tile_w / 2), y + 20), face)


@lru_cache(maxsize=2)
def _rack_background(size: tuple[int, int]) -> Image.Image:
    w, h = size
    tile_h = tile_size(RACK_TILE_WIDTH)[1]
    left = PAD + SIDE_WIDTH + PAD
    row_h = tile_h + ROW_LIP + 8

    def rack(draw: ImageDraw.ImageDraw, k: int) -> None:
        draw.rounded_rectangle((left * k, PAD * k, (w - PAD) * k, (h - PAD) * k), 12 * k, fill=255)

    def lips(draw: ImageDraw.ImageDraw, k: int) -> None:
        for row in range(RACK_ROWS):
            top = PAD + 8 + row * row_h
            box = (
                (left + 4) * k,
                (top + tile_h - 4) * k,
                (w - PAD - 4) * k,
                (top + tile_h + ROW_LIP) * k,
            )
            draw.rounded_rectangle(box, 5 * k, fill=255)

    return layered(
        size, FELT, [(RACK_SHADOW, smooth_mask(w, h, rack)), (RACK, smooth_mask(w, h, lips))]
    )


def draw_rack(scene: OkeyRackScene, style: PictureStyle) -> Image.Image:
    """A player's rack: the indicator and okey on the left, two rows of tiles grouped by meld."""
    rows = layout_rack(scene)
    size = rack_size(scene)
    image = _rack_background(size).copy()
    draw = ImageDraw.Draw(image)
    _side_column(image, draw, scene, style)
    tile_w, tile_h = tile_size(RACK_TILE_WIDTH)
    left = PAD + SIDE_WIDTH + PAD + 8 + SLOT_GAP
    row_h = tile_h + ROW_LIP + 8
    for r, row in enumerate(rows):
        for s, tile in enumerate(row):
            if tile is None:
                continue
            face = tile_image(
                tile, RACK_TILE_WIDTH, okey=_is_okey(tile, scene.okey), symbols=style.symbols
            )
            image.paste(face, (left + s * (tile_w + SLOT_GAP), PAD + 8 + r * row_h), face)
    return image


def render_rack(scene: OkeyRackScene, style: PictureStyle | None = None) -> bytes:
    """PNG bytes of a player's rack (send it to that player only)."""
    return to_png(draw_rack(scene, style or PictureStyle()))


def table_size(scene: OkeyTableScene | None = None) -> tuple[int, int]:
    """The (width, height) of the picture `render_table` draws (fixed for all tables)."""
    return TABLE_SIZE


def seat_places(count: int) -> list[tuple[float, float]]:
    """Centre of each seat's panel: seat 0 at the bottom, play going counter-clockwise (to the
    right), as Okey is played; two players sit face to face."""
    w, h = TABLE_SIZE
    bottom, right, top, left = (
        (w / 2, h - SEAT_PANEL[1] / 2 - 10),
        (w - SEAT_PANEL[0] / 2 - 10, h / 2),
        (w / 2, SEAT_PANEL[1] / 2 + 10),
        (SEAT_PANEL[0] / 2 + 10, h / 2),
    )
    return {2: [bottom, top], 3: [bottom, right, top], 4: [bottom, right, top, left]}[count]


@lru_cache(maxsize=2)
def _table_background(size: tuple[int, int]) -> Image.Image:
    w, h = size
    rim = smooth_mask(
        w,
        h,
        lambda d, k: d.rounded_rectangle(
            (90 * k, 70 * k, (w - 90) * k, (h - 70) * k), 24 * k, fill=255
        ),
    )
    felt = smooth_mask(
        w,
        h,
        lambda d, k: d.rounded_rectangle(
            (102 * k, 82 * k, (w - 102) * k, (h - 82) * k), 18 * k, fill=255
        ),
    )
    return layered(size, FELT_DARK, [(FELT_EDGE, rim), (FELT, felt)])


def draw_table(scene: OkeyTableScene, style: PictureStyle) -> Image.Image:
    """The public Okey table: seats with penalties and tile counts, each seat's top discard, the
    stock with its count and the indicator in the middle."""
    size = table_size(scene)
    image = _table_background(size).copy()
    draw = ImageDraw.Draw(image)
    w, h = size
    cx, cy = w / 2, h / 2
    tile_w, tile_h = tile_size(TABLE_TILE_WIDTH)

    # The stock: a few stacked backs and the count; the indicator face up beside it.
    back = tile_back(TABLE_TILE_WIDTH)
    stack_x, stack_y = round(cx - tile_w - 24), round(cy - tile_h / 2 - 10)
    for i in range(min(3, scene.stock_count)):
        image.paste(back, (stack_x - 3 * i, stack_y - 3 * i), back)
    draw.text(
        (stack_x + tile_w / 2, stack_y + tile_h + 8),
        f"{style.word('stock')}: {scene.stock_count}",
        font=font(14, True),
        fill=TEXT,
        anchor="ma",
    )
    if scene.indicator is not None:
        face = tile_image(scene.indicator, TABLE_TILE_WIDTH, symbols=style.symbols)
        ix = round(cx + 24)
        image.paste(face, (ix, stack_y), face)
        draw.text(
            (ix + tile_w / 2, stack_y + tile_h + 8),
            style.word("indicator"),
            font=font(14, True),
            fill=TEXT,
            anchor="ma",
        )
    if scene.okey is not None:
        draw.text(
            (cx, stack_y - 24),
            f"{style.word('okey')}: ",
            font=font(14, True),
            fill=TEXT_MUTED,
            anchor="rm",
        )
        face = tile_image(scene.okey, OKEY_BADGE_WIDTH, okey=True, symbols=style.symbols)
        image.paste(face, (round(cx), stack_y - 24 - face.height // 2), face)

    pw, ph = SEAT_PANEL
    for seat, (sx, sy) in enumerate(seat_places(len(scene.names))):
        frame = (
            WINNER if scene.winner == seat else HIGHLIGHT if scene.to_act == seat else TEXT_MUTED
        )
        thick = 3 if frame is not TEXT_MUTED else 1
        draw.rounded_rectangle(
            (sx - pw / 2, sy - ph / 2, sx + pw / 2, sy + ph / 2),
            10,
            fill=PANEL,
            outline=frame,
            width=thick,
        )
        name = fit_text(scene.names[seat], 15, pw - 16, bold=True)
        draw.text(
            (sx - pw / 2 + 8, sy - ph / 2 + 8), name, font=font(15, True), fill=TEXT, anchor="la"
        )
        facts = []
        if scene.penalties is not None:
            facts.append(f"{style.word(scene.score_word)}: {scene.penalties[seat]}")
        if scene.hand_counts is not None:
            facts.append(f"{scene.hand_counts[seat]} {style.word('tiles')}")
        if facts:
            draw.text(
                (sx - pw / 2 + 8, sy + ph / 2 - 10),
                " · ".join(facts),
                font=font(13),
                fill=TEXT_MUTED,
                anchor="ld",
            )
        top = scene.discard_tops[seat]
        # A seat's discard pile lies toward the table centre, on the seat's right-hand side.
        dx, dy = _discard_offset(sx, sy, cx, cy)
        if top is not None:
            face = tile_image(
                top, TABLE_TILE_WIDTH, okey=_is_okey(top, scene.okey), symbols=style.symbols
            )
            image.paste(face, (round(dx - tile_w / 2), round(dy - tile_h / 2)), face)
        else:
            draw.rounded_rectangle(
                (dx - tile_w / 2, dy - tile_h / 2, dx + tile_w / 2, dy + tile_h / 2),
                5,
                outline=TEXT_MUTED,
                width=1,
            )
    return image


def _discard_offset(sx: float, sy: float, cx: float, cy: float) -> tuple[float, float]:
    """Where a seat's discard pile is drawn: between the seat and the centre, to its right."""
    vx, vy = cx - sx, cy - sy
    # Facing the centre, the right-hand side is the direction vector rotated by -90° on screen.
    length = max(1.0, (vx * vx + vy * vy) ** 0.5)
    rx, ry = -vy / length, vx / length
    return sx + vx * 0.42 + rx * 150, sy + vy * 0.42 + ry * 150


def render_table(scene: OkeyTableScene, style: PictureStyle | None = None) -> bytes:
    """PNG bytes of the public Okey table (built from the public view only)."""
    return to_png(draw_table(scene, style or PictureStyle()))
