"""Seasons (docs/seasons.md): `/season` and `/sezon`, a moderator's length, the refusals that
change nothing, and the lengths' arithmetic."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.core.checks import needs_moderator
from bot.core.errors import Refusal
from bot.core.messages import OutKind
from bot.core.seasons.length import next_end, parse_length, season_end
from testkit.helpers import START, Clock, cmd, errors, make_core

COMMUNITY = "g1"
ZONE = "Europe/Istanbul"
FEB_1_ISTANBUL = datetime(2026, 1, 31, 21, 0, tzinfo=UTC)  # 2026-02-01 00:00 at UTC+3


@pytest.mark.parametrize(
    ("word", "days"),
    [
        ("monthly", None),
        ("aylık", None),
        ("AYLIK", None),
        ("weekly", 7),
        ("haftalık", 7),
        ("14", 14),
        ("14d", 14),
        ("10g", 10),
        ("1", 1),
        ("365", 365),
    ],
)
def test_lengths_read(word: str, days: int | None) -> None:
    assert parse_length(word) == days


@pytest.mark.parametrize("word", ["0", "-3", "366", "99999999999", "banana", "1.5", "", "7w"])
def test_silly_lengths_are_refused(word: str) -> None:
    with pytest.raises(Refusal) as refused:
        parse_length(word)
    assert refused.value.key == "err.season_length"


def test_monthly_ends_at_the_next_month_in_the_bots_zone() -> None:
    assert season_end(START, None, ZONE) == FEB_1_ISTANBUL
    december = datetime(2026, 12, 15, tzinfo=UTC)
    assert season_end(december, None, ZONE) == datetime(2026, 12, 31, 21, 0, tzinfo=UTC)
    # a season that begins on the boundary lasts the whole next month
    assert season_end(FEB_1_ISTANBUL, None, ZONE) == datetime(2026, 2, 28, 21, 0, tzinfo=UTC)
    assert season_end(START, 7, ZONE) == START + timedelta(days=7)


def test_a_bot_down_for_seasons_does_not_end_empty_ones() -> None:
    later = START + timedelta(days=30)
    assert next_end(START, 7, ZONE, later) == START + timedelta(days=35)
    assert next_end(START, 7, ZONE, START) == START + timedelta(days=7)


def test_only_the_length_needs_a_moderator() -> None:
    assert needs_moderator("season", ("length", "weekly"))
    assert needs_moderator("sezon", ("uzunluk", "aylık"))
    assert not needs_moderator("season", ())
    assert not needs_moderator("season", ("3",))


def _season(user: str = "ayse", line: str = "/season", **kw) -> object:
    kw.setdefault("community", COMMUNITY)
    return cmd(user, line, **kw)


async def test_every_community_has_a_monthly_season(store) -> None:
    core = make_core(store, clock=Clock())
    out = await core.handle(_season())
    [shown] = [o for o in out if o.kind is OutKind.PUBLIC]
    assert shown.channel_id == "c1"
    assert shown.text.splitlines() == [
        "Season 1 (monthly) ends 2026-02-01 00:00 (Europe/Istanbul), in 26 d 9 h 0 min.",
        "No rated game in this season yet.",
    ]
    turkish = await core.handle(_season("mehmet", "/sezon", locale="tr"))
    assert turkish[0].text.startswith("1. sezon (aylık) 2026-02-01 00:00 (Europe/Istanbul)")


async def test_a_moderator_sets_the_length(store) -> None:
    core = make_core(store, clock=Clock())
    out = await core.handle(_season(line="/season length weekly", mod=True, channel="news"))
    assert [o.kind for o in out] == [OutKind.PUBLIC]
    assert out[0].text == (
        "Seasons here are now weekly; this season ends 2026-01-12 15:00 (Europe/Istanbul)."
    )
    season = await store.season("test", COMMUNITY)
    assert season.length_days == 7
    assert season.ends_at == START + timedelta(days=7)
    assert season.channel_id == "news"  # its end is announced where the length was set
    out = await core.handle(_season(line="/sezon uzunluk 30", mod=True, locale="tr"))
    assert "30 günlük" in out[0].text
    assert (await store.season("test", COMMUNITY)).length_days == 30


@pytest.mark.parametrize(
    ("line", "mod", "refusal"),
    [
        ("/season length weekly", False, "Only a moderator may do that."),
        ("/season length 0", True, "Give a season length: monthly, weekly or a number of days"),
        ("/season length -5", True, "Give a season length"),
        ("/season length 100000", True, "Give a season length"),
        ("/season length fortnight", True, "Give a season length"),
        ("/season length", True, "Give a season length"),
        ("/season 4", False, "There is no finished season 4 here; the current season is 1"),
        ("/season 0", False, "There is no finished season 0 here"),
        ("/season soon", False, "Use /season, /season <number>"),
        ("/season 1 2", False, "Use /season, /season <number>"),
        ("/season length 14 days", True, "Give a season length"),
    ],
)
async def test_bad_season_commands_are_refused_privately_and_change_nothing(
    store, line: str, mod: bool, refusal: str
) -> None:
    core = make_core(store, clock=Clock())
    await core.handle(_season())  # the community's season 1
    before = await store.season("test", COMMUNITY)
    out = await core.handle(_season("ali", line, mod=mod))
    assert [o.kind for o in out] == [OutKind.ERROR]
    assert out[0].user_id == "ali"
    assert errors(out)[0].startswith(refusal)
    assert await store.season("test", COMMUNITY) == before


async def test_refusals_speak_turkish(store) -> None:
    core = make_core(store, clock=Clock())
    out = await core.handle(_season("ali", "/sezon uzunluk 0", mod=True, locale="tr"))
    assert errors(out) == [
        "Bir sezon uzunluğu yaz: aylık, haftalık ya da 1 ile 365 arası gün sayısı "
        "(ör. /sezon uzunluk 14)."
    ]
    out = await core.handle(_season("ali", "/sezon uzunluk haftalık", locale="tr"))
    assert len(errors(out)) == 1
    assert await store.season("test", COMMUNITY) is None  # refused: not even a season made


async def test_outside_a_community_there_is_no_season(store) -> None:
    core = make_core(store, clock=Clock())
    out = await core.handle(cmd("ayse", "/season", community=None))
    assert errors(out) == ["Seasons belong to a server or group: use /season there."]


async def test_a_community_whose_table_plays_gets_its_season_from_the_timer(store) -> None:
    clock = Clock()
    core = make_core(store, clock=clock)
    await core.handle(cmd("ayse", "/poker open", channel="poker-room", community="g2"))
    assert await store.season("test", "g2") is None
    await core.tick(clock.advance(5))
    season = await store.season("test", "g2")
    assert season.number == 1
    assert season.channel_id == "poker-room"
    assert season.ends_at == FEB_1_ISTANBUL


async def test_asking_for_a_season_where_none_began_makes_none(store) -> None:
    core = make_core(store, clock=Clock())
    out = await core.handle(_season("ali", "/season 2"))
    assert errors(out) == [
        "There is no finished season 2 here; the current season is 1 (/season shows it)."
    ]
    assert await store.season("test", COMMUNITY) is None
