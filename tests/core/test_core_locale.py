"""`Core.locale_of`: the read-only look-up of a player's `/lang` choice that adapters use for
their own texts, and the poker leaving line naming the seat as every other table line does."""

from __future__ import annotations

from dataclasses import replace

import sqlalchemy as sa

from bot.core.app import Core
from storage.models import metadata
from testkit.helpers import cmd, make_core, public_text


async def dump(store) -> dict[str, list[tuple]]:
    """Every row of every table, to show that a look-up wrote nothing."""
    async with store.engine.connect() as conn:
        return {
            name: sorted(map(tuple, (await conn.execute(sa.select(table))).all()), key=repr)
            for name, table in metadata.tables.items()
        }


async def test_an_unknown_user_has_no_choice_and_is_not_created(memory_store):
    core = make_core(memory_store)
    before = await dump(memory_store)
    assert await core.locale_of("test", "nobody") is None
    assert await dump(memory_store) == before


async def test_a_player_without_a_choice_has_none(memory_store):
    core = make_core(memory_store)
    await core.handle(cmd("ayse", "/balance", locale="tr"))
    before = await dump(memory_store)
    # The platform language the command came with is not a choice.
    assert await core.locale_of("test", "ayse") is None
    assert await dump(memory_store) == before


async def test_lang_is_seen_at_once_and_after_a_restart(memory_store):
    core = make_core(memory_store)
    assert await core.locale_of("test", "ayse") is None  # cached as no choice ...
    await core.handle(cmd("ayse", "/lang en", locale="tr"))
    assert await core.locale_of("test", "ayse") == "en"  # ... and /lang replaces it
    await core.handle(cmd("ayse", "/lang tr", locale="en"))
    assert await core.locale_of("test", "ayse") == "tr"
    before = await dump(memory_store)
    fresh = make_core(memory_store)  # a restarted bot reads the choice from the store
    assert await fresh.locale_of("test", "ayse") == "tr"
    assert await dump(memory_store) == before


async def test_the_choice_belongs_to_one_platform_account(memory_store):
    core = make_core(memory_store)
    await core.handle(cmd("ayse", "/lang en", locale="tr"))
    assert await core.locale_of("other", "ayse") is None
    assert await core.locale_of("test", "mehmet") is None


async def test_before_any_command_nobody_has_a_choice(store):
    assert await Core(store).locale_of("test", "ayse") is None


async def test_an_unavailable_store_is_no_choice(memory_store, caplog):
    core = make_core(memory_store)
    await core.handle(cmd("ayse", "/lang en"))
    fresh = make_core(memory_store)
    await memory_store.close()  # the in-memory database is gone: every read fails
    assert await fresh.locale_of("test", "ayse") is None
    assert "locale_lookup_failed" in caplog.text


async def test_leaving_mid_hand_names_the_seat(memory_store):
    core = make_core(memory_store)
    await core.handle(cmd("ayse", "/poker open turkish 10"))
    await core.handle(cmd("ayse", "/poker join 200"))
    await core.handle(cmd("mehmet", "/poker join 200"))
    await core.handle(cmd("ayse", "/poker start"))
    renamed = replace(cmd("ayse", "/poker leave"), user_name="Ayşe Yılmaz")
    out = await core.handle(renamed)
    assert "Ayse will leave when this hand ends." in public_text(out)
    assert "Yılmaz" not in public_text(out)
