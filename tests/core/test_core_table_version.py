"""The table message carries the committed table version it shows (`Outgoing.version`), which
the chat adapters store with the message they post so that processes agree on the newest one."""

from __future__ import annotations

from bot.core.messages import Outgoing, OutKind
from storage import Store
from testkit.helpers import cmd, errors, make_core


def table_items(out: list[Outgoing]) -> list[Outgoing]:
    return [o for o in out if o.kind is OutKind.EDIT_TABLE]


async def test_each_table_message_shows_the_version_just_committed(memory_store: Store) -> None:
    core = make_core(memory_store)
    [opened] = table_items(await core.handle(cmd("ayse", "/poker open turkish 10")))
    assert opened.version == 1
    table_id = int(opened.table_id or 0)
    seen = []
    for user in ("ayse", "mehmet"):
        out = await core.handle(cmd(user, "/poker join 200"))
        assert not errors(out)
        [item] = table_items(out)
        seen.append(item.version)
        assert item.version == (await memory_store.get_table(table_id)).version
    assert seen[0] is not None and seen[1] is not None and seen[1] > seen[0] > 1
    # showing the table again changes nothing: the same version, posted anew
    [again] = table_items(await core.handle(cmd("mehmet", "/poker table")))
    assert again.fresh and again.version == seen[1]
    # a restarted process resumes it at the stored version
    [resumed] = table_items(await make_core(memory_store).start())
    assert resumed.fresh and resumed.version == seen[1]


async def test_computer_moves_in_one_answer_end_at_the_newest_version(
    memory_store: Store,
) -> None:
    core = make_core(memory_store)
    await core.handle(cmd("ayse", "/poker open turkish 10"))
    await core.handle(cmd("ayse", "/poker join 200"))
    out = await core.handle(cmd("ayse", "/poker addbot"))
    assert not errors(out)
    versions = [o.version for o in table_items(out)]
    assert versions and all(v is not None for v in versions)
    assert versions == sorted(versions)  # type: ignore[type-var]
    assert versions[-1] == (await memory_store.get_table(1)).version


async def test_an_undo_forgets_every_uncommitted_change_even_inside_the_options(
    memory_store: Store,
) -> None:
    """The stored snapshot never shares objects with the live session, so throwing a change
    away (a refused or failed commit) also throws away what it did to nested state."""
    core = make_core(memory_store)
    await core.handle(cmd("ayse", "/poker open acik 10"))
    await core.handle(cmd("ayse", "/poker join 100"))
    await core.handle(cmd("mehmet", "/poker join 100"))
    await core.handle(cmd("ayse", "/poker start"))
    live = next(iter(core.tables.tables.values()))
    ante, hands = live.session.options["ante"], dict(live.session.hands)
    live.session.options["ante"] = 999  # changes a step made and never committed
    live.session.hands["x-1"] = {"forged": True}
    core.tables._restore(live)
    assert live.session.options["ante"] == ante and live.session.hands == hands
    live.session.options["ante"] = 999  # the restored session does not share it either
    core.tables._restore(live)
    assert live.session.options["ante"] == ante
