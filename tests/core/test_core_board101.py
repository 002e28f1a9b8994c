"""The 101 Okey board through the core: `/leaderboard 101` (`/sıralama 101`, `yüzbir`) ranks by the
average score per round, lowest first, among players with at least `MIN_OKEY101_ROUNDS` rounds
in the asker's community (or everyone's with `global`); the rounds a played 101 match records
count on it."""

from __future__ import annotations

from bot.core.messages import OutKind
from storage import MIN_OKEY101_ROUNDS, GameResult, Store
from testkit.helpers import cmd, make_core
from tests.core.okey101.play import solo_match

QUIET = "lobby"  # boards are asked where no table plays (where one does they answer privately)


def board(out) -> list[str]:
    """The lines of the public board."""
    [item] = out
    assert item.kind is OutKind.PUBLIC
    return item.text.splitlines()


async def rounds(store: Store, community: str, scores: dict[str, list[int]]) -> None:
    """Store 101 round results of the named test players at a table of `community`."""
    ids = {name: (await store.player("test", name, name.capitalize())).id for name in scores}
    table = await store.create_table(
        "test", f"t-{community}", "okey101", {}, {}, community=community
    )
    version = table.version
    for n in range(max(len(s) for s in scores.values())):
        results = [
            GameResult(ids[name], "okey101", 0, detail={"kind": "round", "penalty": s[n]})
            for name, s in scores.items()
            if n < len(s)
        ]
        version = await store.commit(table.id, version, {}, results=results)


async def test_a_played_match_counts_its_rounds(memory_store: Store) -> None:
    core = make_core(memory_store, seed="board101")
    await solo_match(core)

    standings = await memory_store.okey101_board(community="g1", min_rounds=1)
    assert sorted(s.rounds for s in standings) == [1, 1, 1, 1]
    assert "Ayse" in {s.name for s in standings}
    assert [s.average for s in standings] == sorted(s.average for s in standings)
    # one round is too few for the board itself
    lines = board(await core.handle(cmd("ayse", "/leaderboard 101", channel=QUIET, community="g1")))
    assert lines == [
        "Leaderboard — 101 Okey: average score per round (lowest first):",
        "Players of this community.",
        f"Nobody has played {MIN_OKEY101_ROUNDS} rounds of 101 here yet.",
    ]


async def test_the_board_in_english_and_turkish(memory_store: Store) -> None:
    core = make_core(memory_store)
    ten = MIN_OKEY101_ROUNDS
    await rounds(
        memory_store,
        "g1",
        {
            "ayse": [-101] + [60] * (ten - 1),  # 43.9 per round
            "can": [25] * (ten + 2),  # 25.0
            "mehmet": [0] * (ten - 1),  # too few rounds
        },
    )
    await rounds(memory_store, "g2", {"zeynep": [12] * ten, "mehmet": [0]})

    lines = board(await core.handle(cmd("ayse", "/leaderboard 101", channel=QUIET, community="g1")))
    assert lines[1:] == [
        "Players of this community.",
        "1. Can — 25.0 per round (12 rounds)",
        "2. Ayse — 43.9 per round (10 rounds)",
    ]
    tr = cmd("can", "/sıralama genel yüzbir", locale="tr", channel=QUIET, community="g1")
    assert board(await core.handle(tr)) == [
        "Sıralama — 101 Okey: el başına ortalama ceza (en düşük önce):",
        "Bu platformdaki tüm oyuncular.",
        "1. Mehmet — el başına 0.0 (10 el)",
        "2. Zeynep — el başına 12.0 (10 el)",
        "3. Can — el başına 25.0 (12 el)",
        "4. Ayse — el başına 43.9 (10 el)",
    ]
    empty = cmd("can", "/sıralama 101", locale="tr", channel=QUIET, community="g9")
    assert board(await core.handle(empty))[2] == f"Burada henüz kimse {ten} el 101 oynamadı."
    # 101 rounds are not classic Okey's penalty totals
    okey = await core.handle(cmd("ayse", "/leaderboard okey", channel=QUIET, community="g1"))
    assert board(okey)[2] == "Nobody has played yet."
