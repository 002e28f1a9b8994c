"""The console's moderator reaches a tournament's tables, which play in shared rooms under the
console channel where the moderator has no seat (`/table reset`, issue 25), and the console
core takes the settings' time limits (TURN_SECONDS, IDLE_CLOSE_*)."""

from __future__ import annotations

import io

from bot.__main__ import console_config
from bot.adapters.console import CHANNEL, run_console
from bot.settings import load_settings
from storage import Store
from testkit.helpers import make_core


async def console_tournament(core, out: io.StringIO, players: int) -> None:
    lines = [
        "org: /tournament okey 10 1",
        *(f"p{i}: /tournament join" for i in range(players)),
        "mod: /tournament start",
    ]
    await run_console(core, lines, out, locale="en", moderators=("mod",))


async def test_table_reset_reaches_the_tournament_table_under_the_channel(store: Store) -> None:
    core = make_core(store, seed="console-reset")
    out = io.StringIO()
    await console_tournament(core, out, 3)
    [table] = [t for t in core.tables.tables.values() if t.channel_id.startswith(CHANNEL + "#")]
    assert table.session.running()
    console = await run_console(
        core, ["mod: /table reset stuck"], out, locale="en", moderators=("mod",), start=False
    )
    assert console is not None
    text = out.getvalue()
    assert "[#table#1.1] The table was reset by mod" in text
    assert (await store.get_table(table.id)).status == "closed"
    assert await store.audit() == []


async def test_several_tournament_tables_are_named_by_number(store: Store) -> None:
    core = make_core(store, seed="console-reset-two")
    out = io.StringIO()
    await console_tournament(core, out, 5)  # two tables
    rooms = sorted(t.id for t in core.tables.tables.values() if "#" in t.channel_id)
    assert len(rooms) == 2
    await run_console(
        core, ["mod: /table reset"], out, locale="en", moderators=("mod",), start=False
    )
    assert "Several tournament tables play under this channel" in out.getvalue()
    assert [(await store.get_table(t)).status for t in rooms] == ["open", "open"]
    await run_console(
        core,
        [f"mod: /table reset {rooms[1]} stuck"],
        out,
        locale="en",
        moderators=("mod",),
        start=False,
    )
    assert (await store.get_table(rooms[1])).status == "closed"
    assert (await store.get_table(rooms[0])).status == "open"
    actions = await store.actions(rooms[1])
    assert actions[-1].action["reason"] == "stuck"  # the number is not part of the reason


def test_the_console_takes_the_settings_time_limits() -> None:
    settings = load_settings(turn_seconds=7, idle_close_seconds=30, idle_close_hands=5)
    config = console_config(settings, pictures=False)
    assert (config.turn_seconds, config.idle_close_seconds, config.idle_close_hands) == (7, 30, 5)
