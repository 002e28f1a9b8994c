"""A 101 round played out through the core, then replayed and exported (`games.history`), and
its sealed proofs; the export checks against the seed once it may be shown."""

from __future__ import annotations

import random

from bot.core.players.replay import load_hand
from games import history
from games.commitment import check_document
from testkit.helpers import cmd, errors, make_core
from testkit.sealing import close_and_reveal
from tests.core.okey101.play import play_out
from tests.core.okey101.rig import live


async def test_replay_and_export_of_a_played_round(store):
    core = make_core(store, seed="replay101")
    await core.handle(cmd("ayse", "/okey start 101 1 10"))
    await core.handle(cmd("mehmet", "/okey join"))
    await core.handle(cmd("mehmet", "/okey begin"))
    table = live(core).id
    assert await play_out(core, random.Random(1)) > 0
    out = await core.handle(cmd("ayse", f"/replay {table}-1"))
    assert not errors(out), errors(out)
    assert "Round 1-1" in out[0].text or "1-1" in out[0].text
    out = await core.handle(cmd("ayse", f"/export {table}-1"))
    assert not errors(out), errors(out)
    assert out[0].attachment is not None
    sealed = history.read(out[0].attachment[1].decode())
    assert sealed.seed is None and sealed.setup.game == "okey101"
    # its proofs: the tiles shown (the indicator, the discards, every tile laid on the table) and
    # Ayse's own, each verifying against the root posted at the deal
    proof = sealed.header["proof"]
    root = live(core).session.hands[f"{table}-1"]["root"]
    openings = check_document(proof, root)
    assert len(openings) == len(set(proof["shown"]) | set(proof["own"]))
    played = await load_hand(core.store, f"{table}-1", table)
    final = played.played.engine.view(None)
    laid = sum(len(m["tiles"]) for m in final["table"])
    discards = sum(len(p) for p in final["discard_piles"])
    assert len(proof["shown"]) >= laid + discards + 1  # and the indicator
    out = await core.handle(cmd("ayse", f"/verify {table}-1"))
    assert not errors(out), errors(out)
    # once the table has closed and the delay passed, the export holds the seed and checks
    await close_and_reveal(core, table)
    out = await core.handle(cmd("mehmet", f"/export {table}-1"))
    shown = history.read(out[0].attachment[1].decode())
    found = history.check(shown)
    assert found.ok, found.problems
    assert found.played is not None and found.played.engine.finished
