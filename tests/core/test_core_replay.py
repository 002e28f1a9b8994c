"""`/replay` and `/export`: over many randomly played hands and every asker (each player and a
spectator), a replay or an export never shows a card or tile the asker was not entitled to see
(held by another player and never shown to the channel); the export read back by
`games.history` re-runs to the game as played (the same moves, the stored results, the seed
`/verify` shows); refusals change nothing."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.messages import OutKind
from bot.core.players.replay import export_text, key_moments, load_hand, moves_after
from bot.render import text as show
from games import history
from storage.models import game_results
from storage.records import ActionRecord
from testkit.drive import leaked
from testkit.helpers import START, cmd, errors
from testkit.replaying import SPECTATOR, Played, play
from testkit.sealing import close_and_reveal

GAMES = ("turkish", "acik", "okey")


def entitled_hidden(played: Played, hand_id: str, asker: str) -> set[str]:
    """Cards or tiles other players held in the hand that the asker never held and the channel
    never saw, in notation and as chat shows them (`Ah`, `A♥`)."""
    held = played.held[hand_id]
    others = set().union(*(cards for user, cards in held.items() if user != asker))
    public = "\n".join(played.public.get(hand_id, []))
    out: set[str] = set()
    for card in others - held.get(asker, set()):
        forms = {card, show.card(card)}
        if not leaked(public, forms):
            out |= forms
    return out


async def answer(played: Played, user: str, line: str):
    out = await played.core.handle(cmd(user, line))
    assert not errors(out), (line, errors(out))
    assert len(out) == 1 and out[0].kind is OutKind.PRIVATE and out[0].user_id == user
    return out[0]


async def check_hand(played: Played, hand_id: str) -> None:
    for asker in (*played.users, SPECTATOR):
        hidden = entitled_hidden(played, hand_id, asker)
        replay = await answer(played, asker, f"/replay {hand_id}")
        assert not leaked(replay.text, hidden), (asker, replay.text)
        export = await answer(played, asker, f"/export {hand_id}")
        assert export.attachment is not None
        name, content = export.attachment
        assert name == f"hand-{hand_id}.jsonl"
        assert not leaked(without_start_draw(content.decode()), hidden), asker


def without_start_draw(content: str) -> str:
    """The export without the Okey starter draw: tiles drawn from a separate shuffle to choose
    who starts (`draw_for_start`), public by the rules, whose names only repeat rack tiles'."""
    rows = [json.loads(line) for line in content.splitlines()]
    for row in rows:
        if row.get("kind") == "round_started":
            row["data"].pop("start_draw", None)
    return "\n".join(json.dumps(row) for row in rows)


@pytest.mark.parametrize("game", GAMES)
def test_replays_never_show_a_hidden_card(game):
    @settings(max_examples=6, suppress_health_check=[HealthCheck.too_slow], deadline=None)
    @given(players=st.integers(2, 4), seed=st.integers(0, 10**6))
    def run(players, seed):
        async def go():
            played = await play(game, players, seed, hands=3)
            try:
                assert played.finished
                for hand_id in played.finished:
                    await check_hand(played, hand_id)
            finally:
                await played.store.close()

        asyncio.run(go())

    run()


async def stored_deltas(played: Played, hand_id: str) -> dict[int, int]:
    async with played.store.engine.connect() as conn:
        rows = await conn.execute(
            sa.select(game_results.c.player_id, game_results.c.chips_delta).where(
                game_results.c.hand_id == hand_id
            )
        )
        return {pid: delta for pid, delta in rows}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_an_export_re_runs_to_the_game_as_played(game, seed):
    played = await play(game, 3, seed, hands=3)
    try:
        # the whole seed is in /verify and the export once the table closed and the hours passed
        await close_and_reveal(played.core, int(played.finished[0].split("-")[0]))
        for hand_id in played.finished:
            table_id = int(hand_id.split("-")[0])
            stored = await load_hand(played.store, hand_id, table_id)
            setup = stored.played.setup
            verify = (await played.core.handle(cmd("zed", f"/verify {hand_id}")))[0].text
            for viewer in (None, *range(len(setup.players))):
                check = history.check(history.read(export_text(stored, viewer)))
                assert check.ok and check.seed_ok, check.problems
                assert check.played is not None
                assert check.played.result == stored.played.result
                assert stored.seed.hex() in verify  # /verify and the export name one seed
                again = check.played.steps
                assert len(again) == len(stored.played.steps)
                for mine, real in zip(again[1:], stored.played.steps[1:], strict=True):
                    assert mine.seat == real.seat
                    if viewer == real.seat or real.action.kind != "draw":
                        assert mine.action == real.action
                    else:  # another player's exchanged cards: only their number is known
                        assert len(mine.action.cards) == len(real.action.cards)
            if game == "okey":
                assert list(stored.played.result["penalties"]) == played.penalties[hand_id]
            else:
                deltas = await stored_deltas(played, hand_id)
                final = stored.played.result["stacks"]
                assert deltas == {
                    int(pid): final[i] - setup.stacks[i] for i, pid in enumerate(setup.players)
                }
    finally:
        await played.store.close()


async def test_refusals_say_why_and_change_nothing():
    played = await play("turkish", 2, 7, hands=1)
    try:
        running = played.core.tables.in_channel("test", "c1").session.hand_id()
        before = await played.store.actions(1)
        cases = {
            f"/replay {running}": "is still being played",
            "/replay 99-1": "There is no finished hand 99-1",
            "/replay": "Usage: /replay",
            "/replay 1-1 1-2": "Usage: /replay",
            "/export abc": "Usage: /export",
            f"/export {running}": "is still being played",
        }
        for line, reason in cases.items():
            out = await played.core.handle(cmd("ayse", line))
            assert [o.kind for o in out] == [OutKind.ERROR] and reason in out[0].text, line
        other = replace(cmd("ayse", f"/replay {played.finished[0]}"), platform="elsewhere")
        out = await played.core.handle(other)
        assert [o.kind for o in out] == [OutKind.ERROR] and "no finished hand" in out[0].text
        assert await played.store.actions(1) == before
    finally:
        await played.store.close()


async def test_replay_in_turkish_and_the_picture_strip():
    played = await play("turkish", 2, 11, hands=1)
    try:
        played.core.replays.pictures_on = True
        hand_id = played.finished[0]
        out = await played.core.handle(cmd("ayse", f"/tekrar {hand_id}", locale="tr"))
        assert out[0].kind is OutKind.PRIVATE and out[0].text.startswith(f"{hand_id} elinin")
        assert out[0].picture is not None and out[0].picture.startswith(b"\x89PNG")
        stored = await load_hand(played.store, hand_id, 1)
        strip = key_moments(stored, None, "en")
        shown = any(e.kind == "showdown" for s in stored.played.steps for e in s.events)
        assert (strip is not None) == shown  # a spectator sees no dealt hand, only a showdown
    finally:
        await played.store.close()


def test_a_hand_dealt_before_deals_were_logged_is_not_found():
    record = ActionRecord(1, 1, 0, 1, {"kind": "start"}, START)
    assert moves_after([record], "1-1") is None


def test_a_tampered_export_fails_its_check():
    async def go():
        played = await play("okey", 2, 5, hands=1)
        try:
            stored = await load_hand(played.store, played.finished[0], 1)
            return export_text(stored, 0)
        finally:
            await played.store.close()

    content = asyncio.run(go())
    good = history.read(content)
    assert history.check(good).ok
    assert not history.check(good, posted_hash="0" * 64).seed_ok
    lines = [json.loads(line) for line in content.splitlines()]
    move = next(line for line in lines if line.get("type") == "move")
    move["action"] = {"kind": "show_indicator"}  # not the move that was played
    bad = "".join(json.dumps(line) + "\n" for line in lines)
    assert not history.check(history.read(bad)).ok
    with pytest.raises(history.HistoryError):
        history.read('{"format": "something else"}\n')
