"""Pictures of cards, poker tables and Okey racks, drawn with Pillow and returned as PNG bytes.

Build a scene (`scenes.py`) — by hand or from an engine view with the builders in `views.py` —
and render it:

    render_hand(HandScene(("Ah", "Kd")), PictureStyle(ranks="tr", lang="tr")) -> bytes
    render_poker_table(PokerTableScene(...)) -> bytes
    render_okey_rack(OkeyRackScene(...)) -> bytes
    render_okey_table(OkeyTableScene(...)) -> bytes

Public pictures are built from public views only, so they never show a hidden card.
"""

from bot.render.pictures.notation import NotationError
from bot.render.pictures.okey import RackOverflow
from bot.render.pictures.okey import render_rack as render_okey_rack
from bot.render.pictures.okey import render_table as render_okey_table
from bot.render.pictures.poker import render_hand
from bot.render.pictures.poker import render_table as render_poker_table
from bot.render.pictures.scenes import (
    HandScene,
    OkeyRackScene,
    OkeyTableScene,
    PokerSeat,
    PokerTableScene,
)
from bot.render.pictures.style import PictureStyle

__all__ = [
    "HandScene",
    "NotationError",
    "OkeyRackScene",
    "OkeyTableScene",
    "PictureStyle",
    "PokerSeat",
    "PokerTableScene",
    "RackOverflow",
    "render_hand",
    "render_okey_rack",
    "render_okey_table",
    "render_poker_table",
]
