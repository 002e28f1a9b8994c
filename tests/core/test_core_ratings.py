"""Skill ratings through the core (docs/ratings.md): a poker hand between four people rates
them in the community and globally, a table of one person and computer players rates nobody,
an Okey match rates once at its end with its places, `/rating` and `/leaderboard rating` in
English and Turkish, and bad input is refused privately with nothing changed."""

from __future__ import annotations

import random

import sqlalchemy as sa

from bot.core.messages import OutKind
from storage import Store
from storage.models import ALL_COMMUNITIES, game_results, players, rating_opponents, ratings
from testkit.drive import ai_move, live_session
from testkit.helpers import cmd, errors, make_core
from tests.core.okey101.play import play_out, solo_match

PEOPLE = ("ayse", "mehmet", "cem", "deniz")
QUIET = "lobby"  # boards are asked where no table plays


async def rows(store: Store) -> dict[tuple[str, str, str], int]:
    """(player name, game, community) -> rated games."""
    stmt = sa.select(players.c.name, ratings.c.game, ratings.c.community, ratings.c.games).join(
        players, players.c.id == ratings.c.player_id
    )
    async with store.engine.connect() as conn:
        return {(n, g, c): k for n, g, c, k in await conn.execute(stmt)}


async def play_poker_hands(core, hands: int, community: str = "g1") -> None:
    """Four people at a Türk pokeri table play `hands` hands (the computer's moves, typed)."""

    def say(user: str, line: str):
        return core.handle(cmd(user, line, community=community))

    assert not errors(await say("ayse", "/poker open turkish 5"))
    for user in PEOPLE:
        assert not errors(await say(user, "/poker join 200"))
    assert not errors(await say("ayse", "/poker start"))
    hand_ids: set[str] = set()
    while len(hand_ids) < hands:
        session = live_session(core)
        assert session is not None and session.running()
        user, line = ai_move(session)
        assert not errors(await say(user, line))
        async with core.store.engine.connect() as conn:
            hand_ids = set(await conn.scalars(sa.select(game_results.c.hand_id).distinct()))


async def test_a_hand_between_four_people_rates_them_here_and_everywhere(
    memory_store: Store,
) -> None:
    core = make_core(memory_store, seed="rated")
    await play_poker_hands(core, 1)
    found = await rows(memory_store)
    names = {p.capitalize() for p in PEOPLE}
    assert set(found) == {(n, "turkish", k) for n in names for k in ("g1", ALL_COMMUNITIES)}
    assert set(found.values()) == {1}


async def test_a_table_of_one_person_and_computers_rates_nobody(memory_store: Store) -> None:
    core = make_core(memory_store, seed="board101")
    await solo_match(core)
    assert await rows(memory_store) == {}
    async with memory_store.engine.connect() as conn:
        assert await conn.scalar(sa.select(sa.func.count()).select_from(rating_opponents)) == 0


async def test_rating_and_the_rating_board_in_english_and_turkish(memory_store: Store) -> None:
    core = make_core(memory_store, seed="rated")
    await play_poker_hands(core, 2)
    [answer] = await core.handle(cmd("ayse", "/rating", channel=QUIET, community="g1"))
    assert answer.kind is OutKind.PRIVATE
    lines = answer.text.splitlines()
    assert lines[0] == "Skill ratings of Ayse (this community · everywhere):"
    assert len(lines) == 2 and lines[1].startswith("Türk pokeri: ")
    assert "games, provisional)" in lines[1]
    [answer] = await core.handle(
        cmd("cem", "/puan ayse türk", channel=QUIET, community="g1", locale="tr")
    )
    assert answer.kind is OutKind.PRIVATE
    assert (
        answer.text.splitlines()[0] == "Ayse adlı oyuncunun beceri puanları (bu topluluk · genel):"
    )
    assert "oyun, geçici)" in answer.text
    [board] = await core.handle(
        cmd("cem", "/leaderboard rating turkish", channel=QUIET, community="g1")
    )
    assert board.kind is OutKind.PUBLIC
    lines = board.text.splitlines()
    assert lines[:3] == [
        "Leaderboard — skill rating (conservative: μ − 3σ):",
        "Players of this community.",
        "Türk pokeri:",
    ]
    assert [line.split(". ", 1)[0] for line in lines[3:]] == ["1", "2", "3", "4"]
    ranked = await memory_store.rating_board("turkish", "g1")
    assert [line.split(" — ")[0].split(". ")[1] for line in lines[3:]] == [r.name for r in ranked]
    [board] = await core.handle(
        cmd("cem", "/sıralama puan genel", channel=QUIET, community="g1", locale="tr")
    )
    lines = board.text.splitlines()
    assert lines[0] == "Sıralama — beceri puanı (temkinli: μ − 3σ):"
    assert "Türk pokeri:" in lines and "101 Okey:" in lines  # every game, the first three each


async def test_bad_rating_input_is_refused_privately_and_changes_nothing(
    memory_store: Store,
) -> None:
    core = make_core(memory_store, seed="rated")
    await play_poker_hands(core, 1)
    before = await rows(memory_store)
    cases = {
        ("en", "/rating nobody"): "No player or game called nobody.",
        ("en", "/rating ayse chess"): "No player or game called ayse chess.",
        ("tr", "/puan kimse"): "kimse adında bir oyuncu ya da oyun yok.",
        ("en", "/leaderboard rating chess"): "Usage: /leaderboard rating",
        ("tr", "/sıralama puan satranç"): "Kullanım: /sıralama puan",
    }
    for (locale, line), expected in cases.items():
        out = await core.handle(cmd("cem", line, channel=QUIET, community="g1", locale=locale))
        assert [o.kind for o in out] == [OutKind.ERROR], line
        assert expected in out[0].text, line
    assert await rows(memory_store) == before


async def test_the_live_tables_seats_carry_their_rating_badges(memory_store: Store) -> None:
    core = make_core(memory_store, seed="rated")
    await play_poker_hands(core, 1)
    assert not errors(await core.handle(cmd("ayse", "/poker addbot", community="g1")))
    live_table = core.tables.in_channel("test", "c1")
    assert live_table is not None
    views = await core.table_views(str(live_table.id), "test", ["ayse", None])
    assert views is not None
    global_ratings = await memory_store.seat_ratings(
        [seat.player_id for seat in live_table.session.seats], "turkish"
    )
    by_name = {r.name: r for r in global_ratings.values()}
    for view in views.values():
        for seat in view.seats:
            if seat.bot:
                assert seat.rating is None and not seat.provisional
            else:
                assert (seat.rating, seat.provisional) == (
                    by_name[seat.name].shown,
                    True,
                )
    assert sum(1 for seat in views[None].seats if seat.rating is not None) == len(PEOPLE)


async def test_a_101_match_of_partners_rates_each_side_as_a_team_once_at_its_end(
    memory_store: Store,
) -> None:
    core = make_core(memory_store, seed="partners")
    opened = await core.handle(cmd("ayse", "/okey start 101 1 10 partners=on", community="g1"))
    assert not errors(opened)
    for user in PEOPLE[1:]:
        assert not errors(await core.handle(cmd(user, "/okey join", community="g1")))
    assert not errors(await core.handle(cmd("ayse", "/okey begin", community="g1")))
    await play_out(core, random.Random(5))
    stmt = (
        sa.select(players.c.user_id, ratings.c.community, ratings.c.mu, ratings.c.games)
        .join(players, players.c.id == ratings.c.player_id)
        .where(ratings.c.game == "okey101")
    )
    async with memory_store.engine.connect() as conn:
        found = {(u, c): (mu, n) for u, c, mu, n in await conn.execute(stmt)}
        details = await conn.execute(
            sa.select(game_results.c.player_id, game_results.c.detail).where(
                game_results.c.detail["kind"].as_string() == "match"
            )
        )
        sides = {pid: detail["side"] for pid, detail in details}
    assert set(found) == {(u, k) for u in PEOPLE for k in ("g1", ALL_COMMUNITIES)}
    assert {n for _, n in found.values()} == {1}  # the match, not its round
    assert sorted(sides.values()) == [0, 0, 1, 1]
    # partners sit opposite (seats 0+2 in the order they sat down, 1+3) and move together
    assert found[("ayse", "g1")][0] == found[("cem", "g1")][0]
    assert found[("mehmet", "g1")][0] == found[("deniz", "g1")][0]
    assert found[("ayse", "g1")][0] != found[("mehmet", "g1")][0]
