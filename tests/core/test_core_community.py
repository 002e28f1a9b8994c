"""Communities through the core: a table records the community of the command that opened it,
its hands' results count there, and `/leaderboard` shows the asker's community by default,
everyone with `global`, and wins as a direct recount of the stored results says."""

from __future__ import annotations

import random
from collections import Counter

import pytest
import sqlalchemy as sa

from bot.core.messages import OutKind
from storage import Store
from storage.models import game_results, players
from testkit.drive import live_session, random_move
from testkit.helpers import cmd, errors, make_core

GROUPS = {"g1": ("c1", ("ayse", "mehmet")), "g2": ("c2", ("zeynep", "can", "ali"))}
QUIET = "lobby"  # boards are asked where no table plays (where one does they answer privately)


async def play(core, community: str, hands: int) -> None:
    """Open a Türk pokeri table in the community's channel and play `hands` hands (random
    legal moves; fewer when the players run out of chips first)."""
    channel, users = GROUPS[community]
    rng = random.Random(community)

    def say(user: str, line: str):
        return core.handle(cmd(user, line, channel=channel, community=community))

    await say(users[0], "/poker open turkish 10")
    for user in users:
        assert not errors(await say(user, "/poker join 200"))
    await say(users[0], "/poker start")
    for _ in range(600):
        session = live_session(core, channel)
        if session.hand_no > hands or session.actor() is None:
            break
        user, line = random_move(session, rng)
        assert not errors(await say(user, line))


async def stored(store: Store) -> list[tuple[str, int, str | None]]:
    """(name, chips won or lost, community) of every stored result."""
    query = sa.select(players.c.name, game_results.c.chips_delta, game_results.c.community).join(
        players, players.c.id == game_results.c.player_id
    )
    async with store.engine.connect() as conn:
        return [tuple(row) for row in await conn.execute(query)]


def board(out) -> tuple[list[str], list[tuple[str, int]]]:
    """The public board's two heading lines and its (name, value) rows."""
    [item] = out
    assert item.kind is OutKind.PUBLIC
    lines = item.text.splitlines()
    rows = []
    for line in lines[2:]:
        name, value = line.split(". ", 1)[1].rsplit(" — ", 1)
        rows.append((name, int(value)))
    return lines[:2], rows


async def test_results_and_boards_per_community(store: Store) -> None:
    core = make_core(store, seed="community")
    await play(core, "g1", 3)
    await play(core, "g2", 3)
    results = await stored(store)
    members = {c: {u.capitalize() for u in users} for c, (_, users) in GROUPS.items()}
    assert {(name, community) for name, _, community in results} == {
        (name, c) for c, names in members.items() for name in names
    }
    for table, community in ((1, "g1"), (2, "g2")):
        assert (await store.get_table(table)).community == community

    head, rows = board(
        await core.handle(cmd("ayse", "/leaderboard", channel=QUIET, community="g1"))
    )
    assert head == ["Leaderboard — chips:", "Players of this community."]
    assert {name for name, _ in rows} == members["g1"]
    head, rows = board(
        await core.handle(cmd("ayse", "/leaderboard global", channel=QUIET, community="g1"))
    )
    assert head[1] == "All players on this platform."
    assert {name for name, _ in rows} == members["g1"] | members["g2"]

    for community in ("g1", "g2"):
        wins = Counter(n for n, delta, c in results if c == community and delta > 0)
        expected = sorted(wins.items(), key=lambda nv: -nv[1])
        _, rows = board(
            await core.handle(cmd("can", "/leaderboard wins", channel=QUIET, community=community))
        )
        assert sorted(rows, key=lambda nv: -nv[1]) == expected and rows == sorted(
            rows, key=lambda nv: -nv[1]
        )
        assert Counter(dict(rows)) == wins

    everyone = Counter(n for n, delta, _ in results if delta > 0)
    tr = cmd("ali", "/sıralama genel galibiyet", locale="tr", channel=QUIET, community="g2")
    head, rows = board(await core.handle(tr))
    assert head == [
        "Sıralama — galibiyet (kazanılan el ve maçlar):",
        "Bu platformdaki tüm oyuncular.",
    ]
    assert Counter(dict(rows)) == everyone


async def test_outside_a_community_the_board_is_everyones(store: Store) -> None:
    core = make_core(store, seed="community")
    await play(core, "g1", 1)
    head, rows = board(await core.handle(cmd("zeynep", "/leaderboard", channel="dm")))
    assert head[1] == "No community here: all players on this platform."
    assert {"Ayse", "Mehmet", "Zeynep"} <= {name for name, _ in rows}
    # a community where nobody played yet has an empty board
    out = await core.handle(cmd("zeynep", "/leaderboard okey", community="g9"))
    assert out[0].text.splitlines()[1:] == ["Players of this community.", "Nobody has played yet."]


@pytest.mark.parametrize(
    "line", ["/leaderboard gold", "/leaderboard wins okey", "/leaderboard global genel"]
)
async def test_bad_board_words_are_refused(store: Store, line: str) -> None:
    core = make_core(store)
    out = await core.handle(cmd("ayse", line, community="g1"))
    assert errors(out) == ["Usage: /leaderboard [chips|okey|101|wins] [global]"]
    tr = await core.handle(cmd("ayse", line, locale="tr", community="g1"))
    assert errors(tr) == ["Kullanım: /sıralama [fiş|okey|101|galibiyet] [genel]"]
