"""101 tables survive a restart mid-round (the snapshot reloads and play goes on exactly as
without the restart), and random matches with computer players keep the books: every chip moved
through the ledger, the escrow empty at the end, nothing created or lost."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.messages import OutKind
from games.okey101 import ai
from storage import escrow, wallet
from testkit.helpers import cmd, errors, make_core, public_text
from testkit.hidden import okey101_line
from testkit.restarts import resumes_exactly
from testkit.stores import open_memory_store
from tests.core.okey101.rig import live


def easy_move(session, rng) -> tuple[str, str]:
    """The stand-in computer's move for the seat to act, typed."""
    game = session.game101
    index = game.to_act()
    return session.seat_of(index).user_id, okey101_line(ai.choose_action(game, index, "easy", rng))


# 2 players, 3 rounds, seeds "restart101", moves Random(5): round 1 ends on move 68, round 2 on
# move 127 and the match on move 181, the last one
MATCH_MOVES = 182
ROUND_ONE_ENDS = 68


async def test_restart_mid_match_resumes_exactly(tmp_path):
    prelude = ["ayse: /okey start 101 3 30", "mehmet: /okey join", "ayse: /okey begin"]
    # mid round 1; once round 1 ended and round 2 is dealt; before the match's last move
    restarts = (23, ROUND_ONE_ENDS + 1, MATCH_MOVES - 1)
    play = await resumes_exactly(
        tmp_path, "restart101", prelude, MATCH_MOVES, easy_move, restarts, move_seed=5
    )
    assert not [
        text for answers in play.trace for kind, _, text in answers if kind is OutKind.ERROR
    ]
    rounds = [len(play.states[step]["match"]["history"]) for step in restarts]
    assert rounds == [0, 1, 2]
    dealt = play.states[ROUND_ONE_ENDS + 1]["views"]["ayse"]
    assert dealt.phase == "playing" and len(dealt.mine) in (21, 22)
    assert "The match is over" in "\n".join(text for _, _, text in play.trace[-1])
    end = play.states[None]
    assert end["match"] is None
    escrow = [row["balance"] for row in end["books"]["wallets"] if row["table_id"] is not None]
    assert escrow == [0]
    paid = [row for row in end["books"]["ledger"] if row["reason"] == "okey101 payout"]
    assert paid and len(end["books"]["game_results"]) == 3 * 2 + 2  # a row per round, one per match


@settings(max_examples=4, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    bots=st.integers(1, 3),
    stake=st.integers(1, 50),
    payout=st.sampled_from(["penalty", "winner"]),
    partners=st.booleans(),
)
async def test_random_matches_keep_the_books(seed, bots, stake, payout, partners):
    partners = partners and bots == 3  # partners need four players
    store = await open_memory_store()
    try:
        core = make_core(store, seed=f"books{seed}")
        words = f"payout={payout} partners={'on' if partners else 'off'}"
        out = await core.handle(cmd("ayse", f"/okey start 101 1 {stake} {words}"))
        assert not errors(out), errors(out)
        for _ in range(bots):
            await core.handle(cmd("ayse", "/okey addbot easy"))
        seated = live(core).session.seats
        ids = [s.player_id for s in seated]
        before = 0
        for s in seated:
            before += await store.balance(wallet(s.player_id))
        out = await core.handle(cmd("ayse", "/okey begin"))
        assert not errors(out), errors(out)
        table = live(core).id
        rng = random.Random(seed)
        steps = 0
        while live(core).session.running() and steps < 500:
            session = live(core).session
            game = session.game101
            assert await store.balance(escrow(table)) == session.held()
            index = game.to_act()
            action = ai.choose_action(game, index, "easy", rng)
            out = await core.handle(cmd("ayse", okey101_line(action)))
            assert not errors(out), errors(out)
            steps += 1
        assert not live(core).session.running()
        assert await store.balance(escrow(table)) == 0
        after = 0
        for pid in ids:
            after += await store.balance(wallet(pid))
        assert after == before
        assert await store.audit() == []
    finally:
        await store.close()


async def test_partners_share_the_side_total_and_the_payout(memory_store):
    core = make_core(memory_store, seed="partners101")
    await core.handle(cmd("ayse", "/okey start 101 1 10 eşli=açık"))
    for _ in range(3):
        await core.handle(cmd("ayse", "/okey addbot easy"))
    seats = live(core).session.seats
    before = [await memory_store.balance(wallet(s.player_id)) for s in seats]
    out = await core.handle(cmd("ayse", "/okey begin"))
    assert not errors(out), errors(out)
    rng = random.Random(3)
    while live(core).session.running():
        session = live(core).session
        game = session.game101
        action = ai.choose_action(game, game.to_act(), "easy", rng)
        out = await core.handle(cmd("ayse", okey101_line(action)))
        assert not errors(out), errors(out)
    after = [await memory_store.balance(wallet(s.player_id)) for s in seats]
    gains = [a - b for a, b in zip(after, before, strict=True)]
    assert sum(gains) == 0
    # partners sit opposite (seats 1+3, 2+4): each side's players end level or one chip apart
    assert abs(gains[0] - gains[2]) <= 1 and abs(gains[1] - gains[3]) <= 1
    assert "The match is over. Winner: " in public_text(out)
