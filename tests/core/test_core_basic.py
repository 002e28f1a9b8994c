"""The core's account commands on the real SQLite store: help, language, balance, daily, boards,
verify errors, unknown commands; every refusal is an error to the sender that changes nothing."""

from __future__ import annotations

import pytest

from bot.core.config import DAILY_GRANT, STARTING_GRANT
from bot.core.messages import OutKind
from storage import wallet
from testkit.helpers import Clock, cmd, errors, make_core


async def test_help_in_both_languages(store):
    core = make_core(store)
    en = await core.handle(cmd("ayse", "/help"))
    tr = await core.handle(cmd("mehmet", "/yardım", locale="tr-TR"))
    assert en[0].kind is OutKind.PUBLIC and "/poker open" in en[0].text
    assert "Komutlar" in tr[0].text and "/okey başlat" in tr[0].text


async def test_starting_grant_once_and_balance(store):
    core = make_core(store)
    out = await core.handle(cmd("ayse", "/balance"))
    assert out[0].kind is OutKind.PRIVATE and out[0].user_id == "ayse"
    assert str(STARTING_GRANT) in out[0].text
    again = make_core(store)  # a restarted core must not grant twice
    await again.handle(cmd("ayse", "/bakiye"))
    player = await store.player("test", "ayse", "Ayse")
    assert await store.balance(wallet(player.id)) == STARTING_GRANT


async def test_daily_once_per_day_with_clock(store):
    clock = Clock()
    core = make_core(store, clock=clock)
    first = await core.handle(cmd("ayse", "/daily"))
    assert first[0].kind is OutKind.PRIVATE
    assert str(STARTING_GRANT + DAILY_GRANT) in first[0].text
    second = await core.handle(cmd("ayse", "/günlük"))
    assert errors(second) and "already" in second[0].text
    clock.advance(24 * 3600)
    third = await core.handle(cmd("ayse", "/daily"))
    assert str(STARTING_GRANT + 2 * DAILY_GRANT) in third[0].text


async def test_lang_overrides_platform_locale(store):
    core = make_core(store)
    out = await core.handle(cmd("ayse", "/lang tr"))
    assert "Türkçe" in out[0].text
    out = await core.handle(cmd("ayse", "/balance", locale="en-US"))
    assert "fişin var" in out[0].text
    bad = await core.handle(cmd("ayse", "/dil de"))
    assert bad[0].kind is OutKind.ERROR and "/dil" in bad[0].text
    out = await core.handle(cmd("ayse", "/dil en"))
    out = await core.handle(cmd("ayse", "/balance", locale="tr"))
    assert "you have" in out[0].text


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("/frobnicate", "Unknown command"),
        ("/poker", "Usage: /poker"),
        ("/poker dance", "Usage: /poker"),
        ("/okey", "Usage: /okey"),
        ("/verify", "Usage: /verify"),
        ("/verify 99-1", "no hand 99-1"),
        ("/leaderboard gold", "Usage: /leaderboard"),
        ("/table", "Usage: /table"),
        ("/table reset", "moderator"),
        ("/poker join", "no open table"),
        ("/poker leave", "no open table"),
        ("/okey take stock", "no open table"),
        ("/lang", "Usage: /lang"),
    ],
)
async def test_refusals_are_private_errors(store, line, expected):
    core = make_core(store)
    await core.handle(cmd("ayse", "/balance"))
    out = await core.handle(cmd("ayse", line))
    assert [o.kind for o in out] == [OutKind.ERROR]
    assert out[0].user_id == "ayse"
    assert expected in out[0].text
    assert await store.load_open_tables() == []
    player = await store.player("test", "ayse", "Ayse")
    assert await store.balance(wallet(player.id)) == STARTING_GRANT


async def test_leaderboard_lists_wallets(store):
    core = make_core(store)
    await core.handle(cmd("ayse", "/balance"))
    await core.handle(cmd("mehmet", "/daily"))
    out = await core.handle(cmd("ayse", "/leaderboard"))
    assert out[0].kind is OutKind.PUBLIC
    lines = out[0].text.splitlines()
    assert lines[1] == "No community here: all players on this platform."
    assert lines[2].startswith("1. Mehmet") and lines[3].startswith("2. Ayse")
