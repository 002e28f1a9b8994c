"""`/history` and `/stats`: whole games are played by random players through commands, then the
statistics the core wrote with each hand (and the store adds up) are compared with a direct
recount of the table's action log, and the answers with the stored results."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.core.messages import OutKind
from games.poker import turkish
from storage import Store
from storage.history import POKER_STREETS
from testkit.drive import live_session
from testkit.helpers import cmd, errors, make_core, private_to
from testkit.hidden import random_move

USERS = ("ayse", "bora", "cem")
POKER_MOVES = ("open", "pass", "check", "bet", "call", "raise", "fold", "draw")


async def play_poker(core, variant: str, hands: int, seed: int) -> list[tuple[str, str, int]]:
    """Play up to `hands` whole hands of `variant` on a fresh table by random moves; returns
    each move as (user, kind, street or betting round), as seen when it was made."""
    rng = random.Random(seed)
    assert not errors(await core.handle(cmd("ayse", f"/poker open {variant}")))
    for user in USERS:
        assert not errors(await core.handle(cmd(user, "/poker join 400")))
    assert not errors(await core.handle(cmd("ayse", "/poker start")))
    moves = []
    while True:
        session = live_session(core)
        if session is None or not session.running() or session.hand_no > hands:
            return moves
        view = session.engine.view(None)
        if variant == "turkish":
            street = 1 if session.engine.phase == turkish.BET1 else 2
        else:
            street = view["street"]
        user, text = random_move(session, rng)
        kind = text.split()[1]
        moves.append((user, "draw" if kind == "pat" else kind, street))
        out = await core.handle(cmd(user, text))
        assert not errors(out), (text, errors(out))


async def poker_log(store: Store, table_id: int) -> list[tuple[int, dict]]:
    """The table's poker moves in the action log: (player id, action)."""
    return [
        (a.player_id, a.action)
        for a in await store.actions(table_id)
        if a.action.get("kind") in POKER_MOVES
    ]


@pytest.mark.parametrize("variant", ["turkish", "acik"])
async def test_poker_stats_equal_a_recount_of_the_action_log(store: Store, variant: str) -> None:
    core = make_core(store, seed=f"stats-{variant}")
    moves = await play_poker(core, variant, hands=25, seed=5)
    table_id = live_session(core).table_id
    ids = {u: (await store.find_players("test", u))[0].id for u in USERS}
    log = await poker_log(store, table_id)
    # the driver's moves are the logged moves, one for one (so its streets describe them)
    assert [(ids[u], k) for u, k, _ in moves] == [(p, a["kind"]) for p, a in log]
    session = live_session(core)
    finished = session.hand_no - session.running()
    assert finished >= 5
    for user, pid in ids.items():
        stats = await store.player_stats(pid, variant)
        mine = [a for p, a in log if p == pid]
        kinds = Counter(a["kind"] for a in mine)
        folds = Counter(s for u, k, s in moves if u == user and k == "fold")
        assert stats.folded == dict(folds), user
        assert sum(stats.folded.values()) == kinds["fold"]
        if variant == "turkish":
            assert stats.opened == kinds["open"]
            assert stats.passed == kinds["pass"]
            assert stats.went_to_draw == kinds["draw"]
            assert stats.cards_drawn == sum(
                len(a.get("cards", ())) for a in mine if a["kind"] == "draw"
            )
        else:
            assert set(stats.folded) <= set(POKER_STREETS)
        results = [e for e in await store.history(pid, [variant], 1000)]
        assert stats.hands == len(results) <= finished
        assert stats.net == sum(e.chips_delta for e in results)
        assert stats.won == sum(e.detail["won"] for e in results)
        assert stats.showdowns_won <= min(stats.showdowns, stats.won)
        assert stats.biggest_pot == max(e.detail["pot_won"] for e in results)
        for e in results:  # a pot won was won in a hand of that size
            assert e.detail["pot_won"] <= e.detail["pot"]


async def test_okey_stats_equal_a_recount(store: Store) -> None:
    core = make_core(store, seed="stats-okey")
    rng = random.Random(2)
    assert not errors(await core.handle(cmd("ayse", "/okey start 3")))
    for user in USERS[1:]:
        assert not errors(await core.handle(cmd(user, "/okey join")))
    okey_discards: Counter[str] = Counter()
    for _ in range(2):
        assert not errors(await core.handle(cmd("ayse", "/okey begin")))
        while (session := live_session(core)).running():
            user, text = random_move(session, rng)
            if text.startswith("/okey finish") and text.split()[-1] == session.match.round.okey:
                okey_discards[user] += 1
            assert not errors(await core.handle(cmd(user, text))), text
    table_id = live_session(core).table_id
    log = await store.actions(table_id)
    penalties = await _penalty_totals(store)
    for user in USERS:
        pid = (await store.find_players("test", user))[0].id
        kinds = Counter(a.action["kind"] for a in log if a.player_id == pid)
        stats = await store.player_stats(pid, "okey")
        assert stats.matches == 2
        assert stats.rounds == stats.hands == 6
        assert stats.rounds_won == kinds["finish"]
        assert stats.indicators == kinds["show_indicator"]
        assert stats.okey_discards == okey_discards[user]
        assert stats.penalty == penalties[pid]  # the rounds add up to the matches' totals
        rows = await store.history(pid, ["okey"], 100)
        assert stats.net == sum(e.chips_delta for e in rows)


async def _penalty_totals(store: Store) -> dict[int, int]:
    import sqlalchemy as sa

    from storage.models import okey_penalties

    async with store.engine.connect() as conn:
        rows = await conn.execute(
            sa.select(okey_penalties.c.player_id, sa.func.sum(okey_penalties.c.points)).group_by(
                okey_penalties.c.player_id
            )
        )
        return {pid: int(total) for pid, total in rows}


async def test_history_lists_the_last_ten_privately(store: Store) -> None:
    core = make_core(store, seed="history")
    await play_poker(core, "turkish", hands=12, seed=9)
    pid = (await store.find_players("test", "bora"))[0].id
    newest = await store.history(pid, None, 10)
    out = await core.handle(cmd("bora", "/history", channel="elsewhere"))
    assert [o.kind for o in out] == [OutKind.PRIVATE]
    lines = private_to(out, "bora")[0].splitlines()
    assert lines[0] == "Bora, your last hands:"
    assert [line.split(" · ")[0] for line in lines[1:]] == [e.hand_id for e in newest]
    first = newest[0]
    sign = "+" if first.chips_delta > 0 else ""
    assert lines[1].endswith(f"Türk pokeri · {sign}{first.chips_delta} chips")
    # a game word narrows it; Turkish words work too; nobody else's hands appear
    assert private_to(await core.handle(cmd("bora", "/geçmiş okey")), "bora")[0].endswith(
        "You have not finished a hand or round yet."
    )
    out = await core.handle(cmd("bora", "/history chess", locale="tr"))
    assert [o.kind for o in out] == [OutKind.ERROR]
    assert "Kullanım: /history" in out[0].text


async def test_stats_of_another_player_and_refusals(store: Store) -> None:
    core = make_core(store, seed="stats-text", pictures=True)
    await play_poker(core, "turkish", hands=6, seed=4)
    pid = (await store.find_players("test", "cem"))[0].id
    stats = await store.player_stats(pid, "turkish")
    out = await core.handle(cmd("ayse", "/stats @Cem turkish"))
    assert [o.kind for o in out] == [OutKind.PRIVATE] and out[0].user_id == "ayse"
    body = out[0].text.splitlines()
    assert body[0] == "Statistics of Cem:"
    pct = round(100 * stats.won / stats.hands)
    assert body[1] == f"Türk pokeri: {stats.hands} hands, won {stats.won} ({pct}%)"
    assert out[0].picture is not None and out[0].picture.startswith(b"\x89PNG")
    # Turkish words, all games: only the games played are listed
    out = await core.handle(cmd("cem", "/istatistik", locale="tr"))
    text = private_to(out, "cem")[0]
    assert "Türk pokeri:" in text and "Okey:" not in text and "Açık poker:" not in text
    for line in ("/stats nobody", "/stats ayse chess"):
        out = await core.handle(cmd("ayse", line))
        assert [o.kind for o in out] == [OutKind.ERROR]
        assert "No player called" in out[0].text
