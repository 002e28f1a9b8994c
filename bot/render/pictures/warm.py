"""Pre-drawing of the cached faces and backgrounds, so the first picture a player sees is as fast
as the rest (call once at start-up, e.g. in a thread: it takes a few hundred milliseconds)."""

from __future__ import annotations

from collections.abc import Iterable

from bot.render.pictures.cards import card_back, card_image
from bot.render.pictures.notation import RANKS, SUITS, TILE_COLOURS
from bot.render.pictures.okey import OKEY_BADGE_WIDTH, RACK_TILE_WIDTH, TABLE_TILE_WIDTH, draw_rack
from bot.render.pictures.okey import draw_table as draw_okey_table
from bot.render.pictures.poker import HAND_CARD_WIDTH, SEAT_CARD_WIDTH
from bot.render.pictures.poker import draw_table as draw_poker_table
from bot.render.pictures.scenes import OkeyRackScene, OkeyTableScene, PokerSeat, PokerTableScene
from bot.render.pictures.style import PictureStyle
from bot.render.pictures.tiles import tile_back, tile_image


def warm_up(styles: Iterable[PictureStyle] = (PictureStyle(),)) -> None:
    """Draw every card face in each style, every tile and both table backgrounds into the caches."""
    for style in styles:
        for width in (HAND_CARD_WIDTH, SEAT_CARD_WIDTH):
            card_back(width)
            for rank in RANKS:
                for suit in SUITS:
                    card_image(rank + suit, style, width)
        draw_poker_table(PokerTableScene("turkish", (PokerSeat("-", 0),), 0), style)
        draw_okey_table(OkeyTableScene(("-", "-"), (None, None), 1), style)
        draw_rack(OkeyRackScene(melds=()), style)
    tiles = [f"{c}{n}" for c in TILE_COLOURS for n in range(1, 14)] + ["F"]
    for width in (RACK_TILE_WIDTH, TABLE_TILE_WIDTH):
        tile_back(width)
        for tile in tiles:
            tile_image(tile, width)
            tile_image(tile, width, okey=True)
    for tile in tiles[:-1]:
        tile_image(tile, OKEY_BADGE_WIDTH, okey=True)
