"""The fixed plays behind the golden table messages (`golden/table_texts.json`, compared by
test_table_text_golden.py, written by make_table_texts.py): a Turkish and an English table of
every game played on by the computer's moves, and every text its table message had."""

from __future__ import annotations

import random
from typing import Any

from bot.core.messages import OutKind
from testkit.helpers import cmd, make_core
from testkit.hidden import okey_prelude, poker_prelude, random_move, table_session
from testkit.stores import open_memory_store

PLAYERS = ("ayse", "mehmet", "cem")
# name -> (the opener's language, the commands that open the table and deal, moves played)
SCENES: dict[str, tuple[str, list[str], int]] = {
    "turkish_tr": ("tr", poker_prelude(PLAYERS, "turkish"), 40),
    "acik_tr": ("tr", poker_prelude(PLAYERS, "acik"), 40),
    "acik_en": ("en", poker_prelude(PLAYERS, "acik"), 40),
    "okey_tr": ("tr", okey_prelude(PLAYERS, "1 10"), 60),
    "okey101_tr": ("tr", okey_prelude(PLAYERS, "101 1 10"), 60),
    "okey101_en": ("en", okey_prelude(PLAYERS, "101 1 10"), 60),
}


def _acting(session: Any) -> bool:
    """Whether a seat is to act at the table (the play goes on)."""
    return session is not None and session.phase == "playing" and session.actor() is not None


async def table_texts(name: str) -> list[str]:
    """Every table message text of the scene `name`, in order."""
    locale, prelude, moves = SCENES[name]
    store = await open_memory_store()
    try:
        core = make_core(store, seed=name)
        texts: list[str] = []
        for line in prelude:
            user, _, text = line.partition(": ")
            out = await core.handle(cmd(user, text, locale=locale))
            texts += [o.text for o in out if o.kind is OutKind.EDIT_TABLE]
        rng = random.Random(name)
        for _ in range(moves):
            session = table_session(core)
            if not _acting(session):
                break
            user, text = random_move(session, rng)
            out = await core.handle(cmd(user, text, locale=locale))
            texts += [o.text for o in out if o.kind is OutKind.EDIT_TABLE]
        return texts
    finally:
        await store.close()
