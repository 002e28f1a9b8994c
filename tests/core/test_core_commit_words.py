"""A step's messages are put into words while its commit runs (`deliver_meanwhile`): they are
handed out only once the commit succeeded, and a commit that fails throws them away."""

from __future__ import annotations

import bot.core.table.deliver as deliver_module
from bot.core.i18n import t
from storage import InsufficientFunds
from testkit.helpers import cmd, errors, make_core, public_text


async def test_the_messages_of_a_failed_commit_are_never_sent(store) -> None:
    core = make_core(store)
    assert not errors(await core.handle(cmd("ayse", "/poker open turkish 10")))
    commit = store.commit

    async def short(*args, **kwargs):
        raise InsufficientFunds("wallet:1", 0, 200)

    store.commit = short
    out = await core.handle(cmd("mehmet", "/poker join 200"))
    assert errors(out) == [t("en", "err.funds")]
    assert "Mehmet" not in public_text(out)  # the words made meanwhile were thrown away
    live = core.tables.in_channel("test", "c1")
    assert live.session.seats == [] and live.version == 1
    store.commit = commit
    out = await core.handle(cmd("mehmet", "/poker join 200"))
    assert not errors(out) and "Mehmet" in public_text(out) and live.version == 2


async def test_a_bug_in_the_words_still_leaves_the_step_committed(store, monkeypatch) -> None:
    core = make_core(store)
    assert not errors(await core.handle(cmd("ayse", "/poker open turkish 10")))

    def broken(*args, **kwargs):
        raise RuntimeError("a bug in the words")

    monkeypatch.setattr(deliver_module, "deliver", broken)
    out = await core.handle(cmd("mehmet", "/poker join 200"))
    assert errors(out) == [t("en", "err.internal")]
    live = core.tables.in_channel("test", "c1")
    assert [s.user_id for s in live.session.seats] == ["mehmet"] and live.version == 2
    assert [a.action["kind"] for a in await store.actions(live.id)] == ["buy_in"]
