"""Pictures attached to the core's messages (when `CoreConfig.pictures` is on).

Sessions describe a picture as a `Sketch` (a scene and a style, cheap to build) while they hold
the table's lock; `draw_pictures` turns the sketches of one answer into PNG bytes in a worker
thread, after the lock is released, so a busy table never holds the event loop.

- Public sketches (the table, the showdown, an Okey winner's melds) are built from the engine's
  public view (`view(None)`) only, so they cannot show a hidden card.
- Private sketches (a poker hand, an Okey rack) are built from that player's own `view(seat)`
  and only ever ride on a PRIVATE item to that player; a rack follows that player's `/tiles`
  choice (a shape per colour), public pictures never do.
- A drawing error costs the picture, never the move: the text still goes out, and the WARNING
  log line names only the error type (never a card or tile).
- A table edit that a later edit of the same table in the same answer supersedes is not drawn
  (the adapters drop it), and equal sketches are drawn once.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from bot.caches import Lru
from bot.core.messages import Outgoing, OutKind
from bot.core.sketch import Sketch
from bot.logs import kv
from bot.render.pictures import (
    PictureStyle,
    render_hand,
    render_okey_rack,
    render_okey_table,
    render_poker_table,
)
from bot.render.pictures.okey101 import render_rack as render_okey101_rack
from bot.render.pictures.okey101 import render_table as render_okey101_table
from bot.render.pictures.style import TileStyle
from bot.render.pictures.views import (
    okey101_rack_scene,
    okey101_table_scene,
    okey_finish_scene,
    okey_rack_scene,
    okey_table_scene,
    poker_hand_scene,
    poker_table_scene,
)

log = logging.getLogger("bot.core.pictures")

_DRAWING = threading.Lock()  # one picture at a time: Pillow's caches are shared, cores are few


def style_for(locale: str, symbols: bool = False) -> PictureStyle:
    """The picture style for a language (the words drawn on the picture) and, for a player's
    own tiles, their `/tiles` choice (`symbols`: a shape per colour as well)."""
    return PictureStyle(lang="tr" if locale == "tr" else "en", tiles=TILES[symbols])


TILES: dict[bool, TileStyle] = {False: "colours", True: "symbols"}


def _sketch(
    draw: Callable[[Any, PictureStyle], bytes],
    build: Callable[[], Any],
    locale: str,
    symbols: bool = False,
) -> Sketch | None:
    """A sketch, or None when the scene cannot be built (logged without its content)."""
    try:
        return Sketch(draw, build(), style_for(locale, symbols))
    except Exception as exc:  # a picture is decoration: never lose a move over it
        log.warning(kv(event="picture_failed", stage="scene", error=type(exc).__name__))
        return None


def poker_table(
    public_view: Mapping[str, Any],
    names: Sequence[str],
    locale: str,
    hand_labels: Mapping[int, str] | None = None,
    winners: set[int] | None = None,
    odds: Sequence[int | None] | None = None,
) -> Sketch | None:
    """The public poker table from `view(None)`. At showdown, `hand_labels` are the shown hand
    names by engine seat and `winners` the seats that won a pot (from the `won` events, so an
    uncalled bet handed back is no win): winners are framed and their hand names become the
    caption under the pot. `odds` are Açık poker's public live odds by engine seat, as whole
    percentages (the core's cached figures, never a player's own chance)."""

    def build() -> Any:
        scene = poker_table_scene(public_view, names, hand_labels, odds=odds)
        if winners is None:
            return scene
        seats = tuple(
            dataclasses.replace(seat, winner=index in winners)
            for index, seat in enumerate(scene.seats)
        )
        won = [seat.hand_label for seat in seats if seat.winner and seat.hand_label]
        caption = " / ".join(dict.fromkeys(won)) or None
        return dataclasses.replace(scene, seats=seats, showdown_label=caption)

    return _sketch(render_poker_table, build, locale)


def poker_hand(own_view: Mapping[str, Any], locale: str) -> Sketch | None:
    """A player's cards from their own `view(seat)` (Açık: the down card framed); None when
    the view holds no card."""
    if not own_view.get("hand"):
        return None
    return _sketch(render_hand, lambda: poker_hand_scene(own_view), locale)


def okey_table(public_view: Mapping[str, Any], names: Sequence[str], locale: str) -> Sketch | None:
    """The public Okey table from the match's `view(None)`."""
    return _sketch(render_okey_table, lambda: okey_table_scene(public_view, names), locale)


def okey_rack(
    own_view: Mapping[str, Any], locale: str, mode: str = "runs", symbols: bool = False
) -> Sketch | None:
    """A player's rack from their own `view(seat)`, grouped by `arrange` in `mode`; `symbols`:
    the player's `/tiles symbols` choice (a shape per colour)."""
    return _sketch(render_okey_rack, lambda: okey_rack_scene(own_view, mode), locale, symbols)


def okey101_table(
    public_view: Mapping[str, Any], names: Sequence[str], locale: str
) -> Sketch | None:
    """The public 101 table from the match's (or round's) `view(None)`: the classic table and
    the melds lying on it, with who opened how."""
    return _sketch(render_okey101_table, lambda: okey101_table_scene(public_view, names), locale)


def okey101_rack(
    own_view: Mapping[str, Any], marked: Iterable[str], locale: str, symbols: bool = False
) -> Sketch | None:
    """A 101 player's rack from their own `view(seat)`, the tiles that can be laid marked;
    `symbols`: the player's `/tiles symbols` choice (a shape per colour)."""
    chosen = tuple(sorted(marked))

    def scene() -> Any:
        return okey101_rack_scene(own_view, chosen)

    return _sketch(render_okey101_rack, scene, locale, symbols)


def _warm() -> None:
    from bot.render.pictures.warm import warm_up

    with _DRAWING:
        warm_up((style_for("tr"), style_for("en")))


async def warm_up_pictures() -> None:
    """Draw the card faces, tiles and backgrounds into the caches in a worker thread (~1 s of
    CPU), so the first picture players see is as fast as the rest; a failure is only logged."""
    try:
        await asyncio.to_thread(_warm)
    except Exception as exc:
        log.warning(kv(event="picture_warm_up_failed", error=type(exc).__name__))


def okey_finish(public_view: Mapping[str, Any], locale: str) -> Sketch | None:
    """The winner's laid-down melds and finishing discard from the finished round's public
    view (everyone sees them once the round is won); None when nobody finished."""
    sketch = _sketch(render_okey_rack, lambda: okey_finish_scene(public_view), locale)
    return None if sketch is None or sketch.scene is None else sketch


# what was drawn, by content (the sketch: renderer, scene and style): a /stats chart, a replay's
# strip and its parts, a table picture shown again are not drawn twice; at most 256 pictures
# and 32 MB, the least recently used going first
DRAWN: Lru[Sketch, bytes] = Lru(256, weight=len, max_weight=32 * 1024 * 1024)


def png(sketch: Sketch) -> bytes:
    """The PNG of `sketch`, drawn once while it stays in `DRAWN` (call it off the event loop)."""
    return DRAWN.get_or_make(sketch, lambda: sketch.draw(sketch.scene, sketch.style))


def _draw_all(sketches: list[Sketch]) -> dict[Sketch, bytes]:
    """PNG bytes of each sketch that draws (runs in a worker thread)."""
    out: dict[Sketch, bytes] = {}
    with _DRAWING:
        for sketch in sketches:
            try:
                out[sketch] = png(sketch)
            except Exception as exc:
                log.warning(kv(event="picture_failed", stage="draw", error=type(exc).__name__))
    return out


def _superseded(items: Sequence[Outgoing]) -> set[int]:
    """Indexes of table edits that a later edit of the same table replaces."""
    last: dict[str, int] = {}
    for index, item in enumerate(items):
        if item.kind is OutKind.EDIT_TABLE and item.table_id is not None:
            last[item.table_id] = index
    return {
        index
        for index, item in enumerate(items)
        if item.kind is OutKind.EDIT_TABLE
        and item.table_id is not None
        and last[item.table_id] != index
    }


async def draw_pictures(items: list[Outgoing]) -> list[Outgoing]:
    """The items with each sketch drawn into `picture` (in a worker thread) and every sketch
    cleared; superseded table edits go without a picture."""
    if not any(item.sketch is not None for item in items):
        return items
    skip = _superseded(items)
    wanted = list(
        dict.fromkeys(
            item.sketch
            for index, item in enumerate(items)
            if item.sketch is not None and index not in skip
        )
    )
    drawn = await asyncio.to_thread(_draw_all, wanted) if wanted else {}
    return [
        item
        if item.sketch is None
        else dataclasses.replace(item, picture=drawn.get(item.sketch), sketch=None)
        for item in items
    ]
