"""warm_up fills the face caches so later pictures draw no face anew."""

from bot.render.pictures import PictureStyle
from bot.render.pictures.cards import _face
from bot.render.pictures.tiles import _face as _tile_face
from bot.render.pictures.warm import warm_up
from tests.render.golden_scenes import GOLDEN


def test_after_warm_up_pictures_hit_the_caches() -> None:
    style = PictureStyle(four_colour=True, lang="tr")  # the style of the acik_showdown scene
    warm_up((style,))
    cards, tiles = _face.cache_info().misses, _tile_face.cache_info().misses
    GOLDEN["acik_showdown"]()
    GOLDEN["okey_rack"]()
    GOLDEN["okey_table"]()
    assert _face.cache_info().misses == cards
    assert _tile_face.cache_info().misses == tiles
