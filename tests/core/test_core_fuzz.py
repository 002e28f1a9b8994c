"""Any sequence of commands and presses, however wrong, gets an answer (never an exception),
refusals change nothing, and chips stay conserved (the real Store on an in-memory database:
the ledger audit and the table's escrow balance). "Play again" presses (`again`) go to the
open table, or to the last one when it closed (its rematch offer, `left`)."""

from __future__ import annotations

import asyncio

from hypothesis import event, given, settings
from hypothesis import strategies as st

from bot.core.messages import OutKind, Press
from storage import escrow
from testkit.drive import live_session
from testkit.helpers import cmd, make_core
from testkit.stores import open_memory_store

USERS = ("ayse", "mehmet", "cem")
WORDS = (
    "poker",
    "okey",
    "table",
    "open",
    "join",
    "leave",
    "start",
    "hand",
    "rules",
    "addbot",
    "check",
    "bet",
    "call",
    "raise",
    "fold",
    "pass",
    "draw",
    "pat",
    "take",
    "stock",
    "discard",
    "finish",
    "show",
    "begin",
    "rack",
    "arrange",
    "runs",
    "pairs",
    "reset",
    "kick",
    "back",
    "acik",
    "turkish",
    "fixed",
    "3",
    "1",
    "0",
    "-5",
    "40",
    "999999999",
    "Ah",
    "10d",
    "R5",
    "K13",
    "F",
    "??",
    "katıl",
    "çek",
    "bitir",
    "lang",
    "tr",
    "verify",
    "1-1",
    "daily",
)
GROUPS = (
    "poker",
    "poker",
    "poker",
    "okey",
    "okey",
    "table",
    "balance",
    "verify",
    "lang",
    "frob",
    "again",
)
lines = st.tuples(
    st.sampled_from(GROUPS), st.lists(st.sampled_from(WORDS), min_size=0, max_size=3)
).map(lambda t: "/" + " ".join((t[0], *t[1])))
steps = st.lists(
    st.tuples(st.sampled_from(USERS), lines, st.booleans(), st.booleans()), min_size=5, max_size=60
)


PRELUDES = {
    "turkish": [
        "ayse: /poker open turkish 5",
        "ayse: /poker join",
        "mehmet: /poker join",
        "cem: /poker join",
        "ayse: /poker start",
    ],
    "acik": [
        "ayse: /poker open acik 5",
        "ayse: /poker join",
        "mehmet: /poker join",
        "ayse: /poker start",
    ],
    "okey": ["ayse: /okey start", "mehmet: /okey join", "ayse: /okey begin"],
    "left": [
        "ayse: /poker open turkish 5",
        "ayse: /poker join",
        "mehmet: /poker join",
        "cem: /poker join",
        "ayse: /poker start",
        "ayse: /poker leave",
        "mehmet: /poker leave",
        "cem: /poker leave",
    ],
    "none": [],
}


@settings(max_examples=150)
@given(st.sampled_from(sorted(PRELUDES)), steps)
def test_random_commands_never_break_the_core(prelude, script):
    asyncio.run(_play(PRELUDES[prelude], script))


async def _play(prelude: list[str], script) -> None:
    async with await open_memory_store() as store:
        await _run(store, prelude, script)


async def _run(store, prelude: list[str], script) -> None:
    core = make_core(store, seed="fuzz")
    last = None  # the newest table seen (a closed one's last message offers a rematch)
    for line in prelude:
        user, _, text = line.partition(": ")
        assert not [o for o in await core.handle(cmd(user, text)) if o.kind is OutKind.ERROR]
        session = live_session(core)
        last = last if session is None else str(session.table_id)
    for user, line, moderator, use_button in script:
        session = live_session(core)
        before = None if session is None else (await store.get_table(session.table_id)).version
        last = last if session is None else str(session.table_id)
        if use_button and last is not None:
            words = line.lstrip("/").split()
            out = await core.press(
                Press(
                    "test",
                    "c1",
                    user,
                    user,
                    last,
                    words[0],
                    "000000" if session is None else session.nonce,
                    tuple(words[1:]),
                    is_moderator=moderator,
                )
            )
        else:
            out = await core.handle(cmd(user, line, mod=moderator))
        assert out, line
        if [o.kind for o in out] == [OutKind.ERROR] and session is not None:
            assert (await store.get_table(session.table_id)).version == before, line
        session = live_session(core)
        if session is not None:
            event(f"table {session.game} {session.phase}")
            assert await store.balance(escrow(session.table_id)) == session.held()
    assert await store.audit() == []
