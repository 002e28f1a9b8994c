"""101 Okey on the console: typed lines open a 101 table, seat a computer player and play the
first turn by a numbered button and by typed commands, with refusals that say why."""

from __future__ import annotations

import io

from bot.adapters.console import run_console
from testkit.helpers import make_core
from testkit.stores import open_memory_store


async def test_a_101_table_plays_on_the_console():
    store = await open_memory_store()
    out = io.StringIO()
    try:
        core = make_core(store, seed="console101")
        lines = [
            "ayse: /okey start 101 1 10 open=121",
            "ayse: /okey addbot easy",
            "ayse: /okey begin",
        ]
        console = await run_console(core, lines, out)
        session = core.tables.in_channel("console", "table").session
        game = session.game101
        assert game is not None
        assert game.to_act() == 0
        if game.phase == "take":  # the computer started: Ayse draws by the table's button
            number = [b.action for b in console.public_choices].index("ts") + 1
            await console.feed(core, f"ayse: {number}")
        await console.feed(core, "ayse: /okey lay")  # 121 to open: most racks cannot
        tile = sorted(session.game101.racks[0])[0] if session.game101 else "R1"
        await console.feed(core, "ayse: /okey işle R1 99")
        await console.feed(core, f"ayse: /okey discard {tile} confirm")
    finally:
        await store.close()
    text = out.getvalue()
    assert "[#table] 101 Okey · table 1 · stake 10 · 1 round(s) · open at 121" in text
    assert "[DM ayse] Round 1-1 · Your rack (" in text
    assert "[! ayse]" in text  # the opening below 121, or adding before opening: refused
    assert f"ayse discards {tile}." in text
