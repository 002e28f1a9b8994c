"""Private tables on the console: the opener invites by name, gets the `/table join <token>`
line privately, and the invitee sits with it; someone else is refused."""

from __future__ import annotations

import io
import re

from bot.adapters.console import run_console
from storage import Store
from testkit.helpers import make_core


async def test_invite_by_name_and_join_with_the_printed_command(store: Store) -> None:
    core = make_core(store, seed="console-private")
    out = io.StringIO()
    lines = ["ayse: /okey start private", "mehmet: /okey join", "ayse: /table invite zeyn"]
    await run_console(core, lines, out, locale="en")
    text = out.getvalue()
    assert "This table is private: only the opener and those they invite may sit." in text
    found = re.search(r"\[DM ayse\] They sit with: /table join ([A-Za-z0-9_-]{40})", text)
    assert found is not None
    token = found.group(1)
    assert all(token not in line for line in text.splitlines() if line.startswith("[#"))
    await run_console(core, [f"zeyn: /table join {token}"], out, locale="en", start=False)
    live = core.tables.in_channel("console", "table")
    assert live is not None and [s.user_id for s in live.session.seats] == ["ayse", "zeyn"]
