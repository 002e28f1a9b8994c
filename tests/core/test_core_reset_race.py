"""A moderator's reset pays out the committed state: another process may have committed a hand
after this process last read the table, and its memory copy is then stale."""

from __future__ import annotations

from bot.core.config import STARTING_GRANT
from storage import Store, escrow, wallet
from testkit.drive import ai_move, live_session
from testkit.helpers import Clock, cmd, make_core, public_text


async def test_reset_from_a_stale_process_pays_the_committed_chips(tmp_path, monkeypatch):
    url = f"sqlite+aiosqlite:///{tmp_path}/bot.db"
    store_a, store_b = await Store.open(url), await Store.open(url)
    try:
        clock = Clock()
        a = make_core(store_a, seed="race", clock=clock)
        b = make_core(store_b, seed="race", clock=clock)
        await a.handle(cmd("ayse", "/poker open turkish 10"))
        await a.handle(cmd("ayse", "/poker join 300"))
        await a.handle(cmd("mehmet", "/poker join 200"))
        await a.handle(cmd("ayse", "/poker start"))
        table = live_session(a).table_id
        assert await b.tables.fetch(str(table)) is not None  # process B reads the table
        stale = b.tables.tables[table].session.refunds()
        committed: dict[int, int] = {}
        real_reset = store_b.reset_table

        async def racing_reset(*args, **kwargs):  # type: ignore[no-untyped-def]
            # Process A finishes a hand after B checked the version, before B's reset runs.
            session = live_session(a)
            hand = session.hand_no
            while session.hand_no == hand and session.actor() is not None:
                user, line = ai_move(session)
                await a.handle(cmd(user, line))
                session = live_session(a)
            committed.update(session.refunds())
            return await real_reset(*args, **kwargs)

        monkeypatch.setattr(store_b, "reset_table", racing_reset)
        out = await b.handle(cmd("mod", "/table reset", mod=True))
        assert "reset by Mod" in public_text(out)
        assert committed != stale  # the race did move chips
        assert await store_a.balance(escrow(table)) == 0
        for user, buy_in in (("ayse", 300), ("mehmet", 200)):
            player = await store_a.player("test", user, user.capitalize())
            got = await store_a.balance(wallet(player.id))
            assert got == STARTING_GRANT - buy_in + committed.get(player.id, 0)
        assert await store_a.audit() == []
    finally:
        await store_a.close()
        await store_b.close()
