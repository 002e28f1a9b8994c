"""Poker pictures: a player's private hand and the public table (also used at showdown)."""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.pictures.cards import card_back, card_image, card_size
from bot.render.pictures.draw import fit_text, layered, smooth_mask, to_png
from bot.render.pictures.fonts import font
from bot.render.pictures.scenes import HandScene, PokerSeat, PokerTableScene
from bot.render.pictures.style import (
    BUTTON,
    CHIP,
    CHIP_TEXT,
    FELT,
    FELT_DARK,
    FELT_EDGE,
    HIGHLIGHT,
    HOLE_FRAME,
    ODDS,
    PANEL,
    TEXT,
    TEXT_MUTED,
    WINNER,
    PictureStyle,
)

HAND_CARD_WIDTH = 80
HAND_PAD = 16
HAND_GAP = 8
HAND_LABEL_HEIGHT = 34

TABLE_SIZE = (960, 600)
SEAT_CARD_WIDTH = 34
PANEL_SIZE = (180, 112)
PANEL_PAD = 6
FOLDED_ALPHA = 0.4
GAME_TITLES = {"turkish": "Türk pokeri", "acik": "Açık poker"}


def hand_size(scene: HandScene) -> tuple[int, int]:
    """The (width, height) of the picture `render_hand(scene)` draws."""
    card_w, card_h = card_size(HAND_CARD_WIDTH)
    n = len(scene.cards)
    width = 2 * HAND_PAD + n * card_w + (n - 1) * HAND_GAP
    height = 2 * HAND_PAD + card_h + (HAND_LABEL_HEIGHT if scene.label else 0)
    return width, height


def table_size(scene: PokerTableScene) -> tuple[int, int]:
    """The (width, height) of the picture `render_table(scene)` draws (fixed for all tables)."""
    return TABLE_SIZE


def draw_hand(scene: HandScene, style: PictureStyle) -> Image.Image:
    """A player's private cards side by side on felt, with the caption under them."""
    image = Image.new("RGB", hand_size(scene), FELT)
    card_w, card_h = card_size(HAND_CARD_WIDTH)
    draw = ImageDraw.Draw(image)
    for i, card in enumerate(scene.cards):
        face = card_image(card, style, HAND_CARD_WIDTH)
        x = HAND_PAD + i * (card_w + HAND_GAP)
        if i < scene.hole:
            draw.rounded_rectangle(
                (x - 5, HAND_PAD - 5, x + card_w + 4, HAND_PAD + card_h + 4), 11, fill=HOLE_FRAME
            )
        image.paste(face, (x, HAND_PAD), face)
    if scene.label:
        text = fit_text(scene.label, 20, image.width - 2 * HAND_PAD, bold=True)
        draw.text(
            (image.width / 2, HAND_PAD + card_h + HAND_LABEL_HEIGHT / 2 + 2),
            text,
            font=font(20, True),
            fill=TEXT,
            anchor="mm",
        )
    return image


def render_hand(scene: HandScene, style: PictureStyle | None = None) -> bytes:
    """PNG bytes of a player's private hand (send it to that player only)."""
    return to_png(draw_hand(scene, style or PictureStyle()))


@lru_cache(maxsize=4)
def _table_background(size: tuple[int, int]) -> Image.Image:
    """The felt oval on a dark background; drawn once per size and copied for each picture."""
    w, h = size
    rim = smooth_mask(
        w, h, lambda d, k: d.ellipse((70 * k, 80 * k, (w - 70) * k, (h - 80) * k), fill=255)
    )
    felt = smooth_mask(
        w, h, lambda d, k: d.ellipse((84 * k, 94 * k, (w - 84) * k, (h - 94) * k), fill=255)
    )
    return layered(size, FELT_DARK, [(FELT_EDGE, rim), (FELT, felt)])


def seat_centres(count: int, size: tuple[int, int] = TABLE_SIZE) -> list[tuple[float, float]]:
    """Centre of each seat's panel, seat 0 at the bottom and play going clockwise (to the left)."""
    w, h = size
    rx, ry = w / 2 - PANEL_SIZE[0] / 2 - 20, h / 2 - PANEL_SIZE[1] / 2 - 19
    centres = []
    for seat in range(count):
        angle = math.pi / 2 + 2 * math.pi * seat / count
        centres.append((w / 2 + rx * math.cos(angle), h / 2 + ry * math.sin(angle)))
    return centres


def _seat_panel(seat: PokerSeat, style: PictureStyle, to_act: bool) -> Image.Image:
    pw, ph = PANEL_SIZE
    panel = Image.new("RGBA", PANEL_SIZE, (0, 0, 0, 0))
    draw = ImageDraw.Draw(panel)
    frame = WINNER if seat.winner else HIGHLIGHT if to_act else TEXT_MUTED
    draw.rounded_rectangle(
        (0, 0, pw - 1, ph - 1),
        10,
        fill=(*PANEL, 235),
        outline=frame,
        width=3 if (to_act or seat.winner) else 1,
    )
    name_room: float = pw - 2 * PANEL_PAD - 4
    if seat.odds is not None:
        name_room -= _odds_label(draw, seat.odds, pw - PANEL_PAD) + 4
    name = fit_text(seat.name, 15, name_room, bold=True)
    draw.text((PANEL_PAD + 2, PANEL_PAD), name, font=font(15, True), fill=TEXT, anchor="la")

    card_w, card_h = card_size(SEAT_CARD_WIDTH)
    # Down cards first: Açık poker's hole card is the first card dealt.
    faces = [card_back(SEAT_CARD_WIDTH)] * seat.cards_down_count
    faces += [card_image(c, style, SEAT_CARD_WIDTH) for c in seat.cards_up]
    if faces:
        room = pw - 2 * PANEL_PAD - card_w
        step = min(card_w + 3, room // max(1, len(faces) - 1)) if len(faces) > 1 else 0
        x0 = (pw - (card_w + step * (len(faces) - 1))) // 2
        for i, face in enumerate(faces):
            panel.alpha_composite(face, (x0 + i * step, 27))

    y = 27 + card_h + 4
    draw.text(
        (PANEL_PAD + 2, y),
        f"{seat.stack:,}".replace(",", " "),
        font=font(14),
        fill=TEXT,
        anchor="la",
    )
    tag, colour = None, TEXT_MUTED
    if seat.hand_label:
        tag, colour = seat.hand_label, WINNER if seat.winner else TEXT
    elif seat.folded:
        tag = style.word("folded")
    elif seat.all_in:
        tag, colour = style.word("all_in"), HIGHLIGHT
    if tag:
        tag = fit_text(tag, 13, pw // 2 + 10, bold=True)
        draw.text((pw - PANEL_PAD - 2, y + 1), tag, font=font(13, True), fill=colour, anchor="ra")
    if seat.folded:
        alpha = panel.getchannel("A").point(lambda v: int(v * FOLDED_ALPHA))
        panel.putalpha(alpha)
    return panel


def _odds_label(draw: ImageDraw.ImageDraw, percent: int, right: float) -> float:
    """A small pill with the seat's live chance ("32%") in the panel's top right corner, ending
    at `right`; a dead hand's 0% is muted. Returns the pill's width."""
    text = f"{percent}%"
    face = font(13, True)
    width = face.getlength(text) + 10
    top = PANEL_PAD - 1
    fill, ink = (ODDS, CHIP_TEXT) if percent else (PANEL, TEXT_MUTED)
    draw.rounded_rectangle(
        (right - width, top, right, top + 18), 9, fill=fill, outline=ink if not percent else None
    )
    draw.text((right - width / 2, top + 9), text, font=face, fill=ink, anchor="mm")
    return width


def _chip(draw: ImageDraw.ImageDraw, centre: tuple[float, float], amount: int) -> None:
    x, y = centre
    text = f"{amount:,}".replace(",", " ")
    face = font(13, True)
    half = max(14, face.getlength(text) / 2 + 8)
    draw.rounded_rectangle((x - half, y - 11, x + half, y + 11), 11, fill=CHIP, outline=CHIP_TEXT)
    draw.text((x, y), text, font=face, fill=CHIP_TEXT, anchor="mm")


def draw_table(scene: PokerTableScene, style: PictureStyle) -> Image.Image:
    """The public table: every seat around a felt oval, stakes, pot, turn and dealer button."""
    size = table_size(scene)
    image = _table_background(size).copy()
    draw = ImageDraw.Draw(image)
    cx, cy = size[0] / 2, size[1] / 2
    centres = seat_centres(len(scene.seats), size)
    pw, ph = PANEL_SIZE

    draw.text(
        (cx, cy - 62), GAME_TITLES[scene.game], font=font(18, True), fill=TEXT_MUTED, anchor="mm"
    )
    pot = f"{style.word('pot')}: {scene.pot:,}".replace(",", " ")
    draw.text((cx, cy - 32), pot, font=font(24, True), fill=TEXT, anchor="mm")
    if scene.showdown_label:
        label = fit_text(scene.showdown_label, 22, 420, bold=True)
        draw.text((cx, cy + 62), label, font=font(22, True), fill=HIGHLIGHT, anchor="mm")

    for index, (seat, (sx, sy)) in enumerate(zip(scene.seats, centres, strict=True)):
        toward = (cx - sx, cy - sy)
        if seat.stake:
            _chip(draw, (sx + toward[0] * 0.42, sy + toward[1] * 0.42), seat.stake)
        if scene.dealer == index:
            bx, by = (
                sx + toward[0] * 0.30 + (pw / 2 - 8) * (1 if toward[0] >= 0 else -1),
                sy + toward[1] * 0.30,
            )
            draw.ellipse(
                (bx - 12, by - 12, bx + 12, by + 12), fill=BUTTON, outline=CHIP_TEXT, width=2
            )
            draw.text((bx, by), "D", font=font(14, True), fill=CHIP_TEXT, anchor="mm")
        panel = _seat_panel(seat, style, scene.to_act == index)
        image.paste(panel, (round(sx - pw / 2), round(sy - ph / 2)), panel)
    return image


def render_table(scene: PokerTableScene, style: PictureStyle | None = None) -> bytes:
    """PNG bytes of the public poker table (built from the public view only)."""
    return to_png(draw_table(scene, style or PictureStyle()))
