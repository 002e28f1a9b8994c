"""`/tiles symbols|colours` (`/taşlar simge|renk`): a player's own tile pictures (the private
rack) carry a shape per colour once they ask for it; public pictures and other players' racks
stay in colours; the choice is kept with the player; anything else is refused privately and
changes nothing."""

from __future__ import annotations

import pytest

import bot.core.app as app
import bot.core.table.pictures as core_pictures
from bot.core.i18n import t
from bot.core.messages import Outgoing, OutKind
from bot.render.pictures import OkeyRackScene
from bot.render.pictures.okey101 import Okey101RackScene
from testkit.helpers import cmd, errors, make_core, private_to


class StyleSpy:
    """Records each sketch the core hands to `draw_pictures`: (item, scene, style)."""

    def __init__(self) -> None:
        self.seen: list[tuple[Outgoing, object, object]] = []

    async def __call__(self, items: list[Outgoing]) -> list[Outgoing]:
        self.seen += [(i, i.sketch.scene, i.sketch.style) for i in items if i.sketch is not None]
        return await core_pictures.draw_pictures(items)

    def racks(self, user: str) -> list[str]:
        """The tile styles of the rack pictures sent to `user`, oldest first."""
        return [
            style.tiles  # type: ignore[attr-defined]
            for item, scene, style in self.seen
            if item.kind is OutKind.PRIVATE
            and item.user_id == user
            and isinstance(scene, OkeyRackScene | Okey101RackScene)
        ]

    def public(self) -> set[str]:
        """The tile styles of every picture not sent privately."""
        return {
            style.tiles  # type: ignore[attr-defined]
            for item, _, style in self.seen
            if item.kind is not OutKind.PRIVATE
        }


@pytest.fixture
def spy(monkeypatch) -> StyleSpy:
    watch = StyleSpy()
    monkeypatch.setattr(app, "draw_pictures", watch)
    return watch


async def test_the_choice_is_kept_and_bad_words_change_nothing(memory_store):
    core = make_core(memory_store, seed="tiles")
    out = await core.handle(cmd("ayse", "/tiles symbols"))
    assert private_to(out, "ayse") == [t("en", "tiles.symbols")]
    assert all(o.kind is OutKind.PRIVATE for o in out)
    assert (await memory_store.find_player("test", "ayse")).tile_symbols is True
    assert await core.tile_symbols_of("test", "ayse") is True
    assert await core.tile_symbols_of("test", "nobody") is False
    for line in ("/tiles purple", "/tiles", "/taşlar simge renk", "/tiles ●"):
        for locale in ("en", "tr"):
            out = await core.handle(cmd("ayse", line, locale=locale))
            assert errors(out) == [t(locale, "err.tiles_usage")]  # in their language
            assert (await memory_store.find_player("test", "ayse")).tile_symbols is True
    turkish = await core.handle(cmd("mehmet", "/taşlar simge", locale="tr"))
    assert private_to(turkish, "mehmet") == [t("tr", "tiles.symbols")]
    refused = await core.handle(cmd("mehmet", "/taşlar mor", locale="tr"))
    assert errors(refused) == [t("tr", "err.tiles_usage")]
    back = await core.handle(cmd("mehmet", "/TAŞLAR Renk", locale="tr"))
    assert private_to(back, "mehmet") == [t("tr", "tiles.colours")]
    assert (await memory_store.find_player("test", "mehmet")).tile_symbols is False
    assert await core.tile_symbols_of("test", "mehmet") is False


async def test_only_the_chooser_s_own_rack_follows_the_choice(spy, memory_store):
    core = make_core(memory_store, seed="tiles-okey", pictures=True)
    await core.handle(cmd("ayse", "/tiles symbols"))
    await core.handle(cmd("ayse", "/okey start"))
    await core.handle(cmd("mehmet", "/okey join"))
    await core.handle(cmd("ayse", "/okey begin"))
    assert spy.racks("ayse") and set(spy.racks("ayse")) == {"symbols"}
    assert spy.racks("mehmet") and set(spy.racks("mehmet")) == {"colours"}
    assert spy.public() == {"colours"}  # the table picture everyone sees is unchanged
    # a change shows on the next rack asked for
    await core.handle(cmd("mehmet", "/tiles symbols"))
    await core.handle(cmd("mehmet", "/okey rack"))
    assert spy.racks("mehmet")[-1] == "symbols"
    await core.handle(cmd("ayse", "/tiles colours"))
    await core.handle(cmd("ayse", "/okey arrange pairs"))
    assert spy.racks("ayse")[-1] == "colours"
    assert spy.public() == {"colours"}


async def test_a_101_rack_follows_the_choice(spy, memory_store):
    core = make_core(memory_store, seed="tiles-101", pictures=True)
    await core.handle(cmd("cem", "/taşlar simge", locale="tr"))
    await core.handle(cmd("cem", "/okey start 101"))
    await core.handle(cmd("deniz", "/okey join"))
    await core.handle(cmd("cem", "/okey addbot"))
    await core.handle(cmd("cem", "/okey addbot"))
    out = await core.handle(cmd("cem", "/okey begin"))
    assert not errors(out)
    await core.handle(cmd("cem", "/okey rack"))
    assert spy.racks("cem") and set(spy.racks("cem")) == {"symbols"}
    await core.handle(cmd("deniz", "/okey rack"))
    assert spy.racks("deniz") and set(spy.racks("deniz")) == {"colours"}
    assert spy.public() == {"colours"}
