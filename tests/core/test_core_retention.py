"""Retention through the core: the timer prunes closed tables older than `retention_days` (once
an hour); `/replay` and `/export` of a pruned hand say its moves are no longer kept (TR/EN),
while `/history`, `/stats` and `/verify` answer as before."""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa

from bot.core.messages import OutKind
from bot.core.table.retention import Retention
from storage.models import tables
from testkit.helpers import cmd
from testkit.replaying import play
from testkit.sealing import close_and_reveal


async def test_a_pruned_hand_answers_clearly_and_history_stays():
    played = await play("turkish", 2, 5, hands=2)
    try:
        core, store = played.core, played.store
        hand_id = played.finished[0]
        table_id = int(hand_id.split("-")[0])
        await close_and_reveal(core, table_id)
        user = played.users[0]
        before = {
            line: (await core.handle(cmd(user, line)))[0].text
            for line in ("/history", "/stats", f"/verify {hand_id}")
        }
        now = core.clock.now  # type: ignore[attr-defined]
        async with store.engine.begin() as conn:  # the table closed 400 days ago
            await conn.execute(sa.update(tables).values(updated_at=now - timedelta(days=400)))
        retention = Retention(store, 365)
        assert await retention.run(now) == 1
        assert await retention.run(now + timedelta(minutes=30)) == 0  # once an hour
        assert await store.pruned_at(table_id) is not None
        for word in ("replay", "export"):
            for locale, words in (("en", "no longer kept"), ("tr", "artık saklanmıyor")):
                out = await core.handle(cmd(user, f"/{word} {hand_id}", locale=locale))
                assert [o.kind for o in out] == [OutKind.ERROR] and words in out[0].text
        after = {line: (await core.handle(cmd(user, line)))[0].text for line in before}
        assert after["/history"] == before["/history"]
        assert after["/stats"] == before["/stats"]
        record = await store.seed(hand_id)
        assert record is not None and record.seed_hex in after[f"/verify {hand_id}"]
    finally:
        await played.store.close()


async def test_the_core_timer_prunes_when_retention_is_set():
    from testkit.helpers import make_core

    played = await play("turkish", 2, 6, hands=1)
    try:
        table_id = int(played.finished[0].split("-")[0])
        await close_and_reveal(played.core, table_id)
        now = played.core.clock.now  # type: ignore[attr-defined]
        async with played.store.engine.begin() as conn:
            await conn.execute(sa.update(tables).values(updated_at=now - timedelta(days=10)))
        keeping = make_core(played.store, clock=played.core.clock)  # retention off: 0 days
        await keeping.tick(now)
        assert await played.store.pruned_at(table_id) is None
        pruning = make_core(played.store, clock=played.core.clock, retention_days=7)
        await pruning.tick(now)
        assert await played.store.pruned_at(table_id) is not None
    finally:
        await played.store.close()
