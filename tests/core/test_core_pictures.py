"""Pictures from the core: the public table, each player's own hand or rack (only to them), the
showdown with the winners' hand name; none when pictures are off; a failing picture costs only
the picture; drawing happens off the event loop and superseded table edits are not drawn. Also
the two QA fixes: leaving an Okey match can be taken back, and /daily and /balance refuse extra
words."""

from __future__ import annotations

import io
import logging
import random
import re
import threading

import pytest
from PIL import Image

import bot.core.app as app
import bot.core.table.pictures as core_pictures
from bot.core.messages import Outgoing, OutKind
from bot.core.table.session import Step
from bot.render.pictures import (
    HandScene,
    OkeyRackScene,
    OkeyTableScene,
    PokerTableScene,
)
from bot.render.pictures.okey import rack_size
from bot.render.pictures.okey import table_size as okey_table_size
from bot.render.pictures.poker import hand_size
from bot.render.pictures.poker import table_size as poker_table_size
from games.okey import arrange, auto_action
from storage import SeedRecord, wallet
from testkit.drive import hidden_cards, live_session, random_move
from testkit.helpers import cmd, errors, make_core, private_to

PNG = b"\x89PNG\r\n\x1a\n"
PLAYERS = ("ayse", "mehmet", "cem")


class Spy:
    """Records every sketch the core hands to `draw_pictures`, with the item it rides on and
    what was hidden at that moment (the session's running hand)."""

    def __init__(self, core) -> None:
        self.core = core
        self.seen: list[tuple[Outgoing, object, set[str]]] = []

    async def __call__(self, items: list[Outgoing]) -> list[Outgoing]:
        session = live_session(self.core)
        hidden = (
            hidden_cards(session) if session is not None and session.group == "poker" else set()
        )
        drawn = await core_pictures.draw_pictures(items)
        self.seen += [
            (after, before.sketch.scene, hidden)
            for before, after in zip(items, drawn, strict=True)
            if before.sketch is not None
        ]
        return drawn


@pytest.fixture
def spy(monkeypatch):
    holder: dict[str, Spy] = {}

    def attach(core) -> Spy:
        holder["spy"] = Spy(core)
        monkeypatch.setattr(app, "draw_pictures", holder["spy"])
        return holder["spy"]

    return attach


def decode(png: bytes) -> Image.Image:
    assert png.startswith(PNG)
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


async def seat_poker(core, game="turkish", players=PLAYERS) -> list[Outgoing]:
    out = await core.handle(cmd(players[0], f"/poker open {game} 10"))
    for user in players:
        out += await core.handle(cmd(user, "/poker join 200"))
    return out + await core.handle(cmd(players[0], "/poker start"))


def scene_cards(scene: PokerTableScene) -> set[str]:
    return {card for seat in scene.seats for card in seat.cards_up}


@pytest.mark.parametrize("game", ["turkish", "acik"])
async def test_deal_sends_table_and_each_players_own_hand(game, spy, memory_store):
    core = make_core(memory_store, seed=f"pic-{game}", pictures=True)
    watch = spy(core)
    out = await seat_poker(core, game)
    session = live_session(core)
    table = [o for o in out if o.kind is OutKind.EDIT_TABLE][-1]
    assert decode(table.picture).size == poker_table_size(None)
    for user in PLAYERS:
        mine = [o for o in out if o.kind is OutKind.PRIVATE and o.user_id == user]
        assert mine and all(o.picture is not None for o in mine)
        e = session.engine_seat(session.seats[session.find_name(user)].player_id)
        own = session.engine.view(e)["hand"]
        scenes = [s for o, s, _ in watch.seen if any(o is m for m in mine)]
        assert all(isinstance(s, HandScene) and list(s.cards) == own for s in scenes)
        assert scenes[-1].hole == (1 if game == "acik" else 0)
        assert decode(mine[-1].picture).size == hand_size(scenes[-1])
    # hands go only to their owner: no public item carries a hand picture
    assert all(
        not isinstance(s, HandScene) for o, s, _ in watch.seen if o.kind is not OutKind.PRIVATE
    )


async def test_poker_hand_command_sends_the_hand_picture(spy, memory_store):
    core = make_core(memory_store, seed="pic-hand", pictures=True)
    watch = spy(core)
    await seat_poker(core)
    reply = await core.handle(cmd("mehmet", "/poker hand"))
    assert [o.kind for o in reply] == [OutKind.PRIVATE] and reply[0].user_id == "mehmet"
    scene = watch.seen[-1][1]
    assert decode(reply[0].picture).size == hand_size(scene)
    session = live_session(core)
    e = session.engine_seat(session.seats[session.find_name("mehmet")].player_id)
    assert list(scene.cards) == session.engine.view(e)["hand"]


@pytest.mark.parametrize("game", ["turkish", "acik"])
async def test_public_pictures_hold_only_public_cards_and_showdown_is_named(
    game, spy, memory_store
):
    core = make_core(memory_store, seed=f"walk-{game}", pictures=True)
    watch = spy(core)
    await seat_poker(core, game)
    rng = random.Random(7)
    showdowns = []
    for _ in range(150):
        session = live_session(core)
        if session is None or not session.running():
            break
        user, line = random_move(session, rng)
        out = await core.handle(cmd(user, line))
        assert not errors(out), errors(out)
        showdowns += [o for o in out if o.kind is OutKind.PUBLIC and o.picture is not None]
        mine = [(o.user_id, o.picture) for o in out if o.kind is OutKind.PRIVATE and o.picture]
        assert len(mine) == len(set(mine)), "the same hand picture sent twice in one answer"
    for item, scene, hidden in watch.seen:
        if item.kind is OutKind.PRIVATE:
            continue
        assert isinstance(scene, PokerTableScene)
        if item.kind is OutKind.EDIT_TABLE:  # the state after the step: nothing hidden drawn
            assert not scene_cards(scene) & hidden, (scene_cards(scene), hidden)
        if game == "turkish" and item.kind is OutKind.EDIT_TABLE:
            assert not scene_cards(scene)  # no card is face up before a showdown
    assert showdowns, "no showdown in the walk"
    for item in showdowns:
        scene = next(s for o, s, _ in watch.seen if o is item)
        assert decode(item.picture).size == poker_table_size(scene)
        shown = {i for i, seat in enumerate(scene.seats) if seat.hand_label}
        if game == "turkish":  # only the hands shown down have faces
            assert shown == {i for i, seat in enumerate(scene.seats) if seat.cards_up}
        # the winners are the seats the text says won a pot (chips handed back are no win)
        said = {s.name for s in scene.seats if re.search(rf"^{s.name} wins", item.text, re.M)}
        assert said and {s.name for s in scene.seats if s.winner} == said
        labels = [s.hand_label for s in scene.seats if s.winner]
        assert scene.showdown_label == " / ".join(dict.fromkeys(labels))


async def test_okey_racks_go_to_their_owner_grouped_as_arranged(spy, memory_store):
    core = make_core(memory_store, seed="pic-okey", pictures=True)
    watch = spy(core)
    await core.handle(cmd("ayse", "/okey start"))
    await core.handle(cmd("mehmet", "/okey join"))
    out = await core.handle(cmd("ayse", "/okey begin"))
    session = live_session(core)
    game = session.round
    table = [o for o in out if o.kind is OutKind.EDIT_TABLE][-1]
    assert decode(table.picture).size == okey_table_size(None)
    table_scene = next(s for o, s, _ in watch.seen if o is table)
    assert isinstance(table_scene, OkeyTableScene)
    for user in ("ayse", "mehmet"):
        e = session.engine_seat(session.seats[session.find_name(user)].player_id)
        mine = [o for o in out if o.kind is OutKind.PRIVATE and o.user_id == user and o.picture]
        assert mine, user
        scene = next(s for o, s, _ in watch.seen if o is mine[-1])
        rack = game.view(e)["hand"]
        layout = arrange(rack, game.indicator)
        assert isinstance(scene, OkeyRackScene)
        assert scene.melds == tuple(tuple(m) for m in layout.melds)
        assert sorted([*scene.loose, *(t for m in scene.melds for t in m)]) == sorted(rack)
        assert scene.indicator == game.indicator and scene.okey == game.okey
        assert decode(mine[-1].picture).size == rack_size(scene)
    assert all(
        not isinstance(s, OkeyRackScene) for o, s, _ in watch.seen if o.kind is not OutKind.PRIVATE
    )
    reply = await core.handle(cmd("mehmet", "/okey arrange pairs"))
    assert reply[0].kind is OutKind.PRIVATE and reply[0].user_id == "mehmet"
    e = session.engine_seat(session.seats[session.find_name("mehmet")].player_id)
    pairs = arrange(game.view(e)["hand"], game.indicator, "pairs")
    assert watch.seen[-1][1].melds == tuple(tuple(m) for m in pairs.melds)
    assert decode(reply[0].picture).size == rack_size(None)


async def test_no_pictures_when_switched_off(spy, memory_store):
    core = make_core(memory_store, seed="pic-off")
    watch = spy(core)
    out = await seat_poker(core)
    out += await core.handle(cmd("ayse", "/poker hand"))
    await core.handle(cmd("ayse", "/okey start", channel="c2"))
    await core.handle(cmd("mehmet", "/okey join", channel="c2"))
    out += await core.handle(cmd("ayse", "/okey begin", channel="c2"))
    out += await core.handle(cmd("ayse", "/okey rack", channel="c2"))
    assert out and all(o.picture is None for o in out)
    assert watch.seen == []


async def test_a_failing_picture_costs_only_the_picture(monkeypatch, caplog, memory_store):
    def broken(scene, style):
        raise ValueError("cannot draw Ah Kd")

    monkeypatch.setattr(core_pictures, "render_poker_table", broken)
    core = make_core(memory_store, seed="pic-broken", pictures=True)
    with caplog.at_level(logging.WARNING, logger="bot.core.pictures"):
        out = await seat_poker(core)
    assert not errors(out) and live_session(core).running()
    assert all(o.picture is None for o in out if o.kind is OutKind.EDIT_TABLE)
    assert all(o.picture is not None for o in out if o.kind is OutKind.PRIVATE)
    assert "picture_failed" in caplog.text and "Ah" not in caplog.text


async def test_drawing_runs_off_the_loop_and_skips_superseded_table_edits(
    monkeypatch, memory_store
):
    threads: list[int] = []
    real = core_pictures.render_poker_table

    def recording(scene, style):
        threads.append(threading.get_ident())
        return real(scene, style)

    monkeypatch.setattr(core_pictures, "render_poker_table", recording)
    core = make_core(memory_store, seed="pic-bots-2", pictures=True)  # bots act first
    await core.handle(cmd("ayse", "/poker open turkish 10"))
    await core.handle(cmd("ayse", "/poker join 200"))
    for _ in range(3):
        await core.handle(cmd("ayse", "/poker addbot"))
    threads.clear()
    out = await core.handle(cmd("ayse", "/poker start"))  # the bots play on until ayse's turn
    edits = [o for o in out if o.kind is OutKind.EDIT_TABLE]
    assert len(edits) > 1
    assert [o.picture is not None for o in edits] == [False] * (len(edits) - 1) + [True]
    assert threads and threading.get_ident() not in threads
    assert len(threads) == 1  # one table state drawn, once


async def test_leaving_an_okey_match_can_be_taken_back(memory_store):
    core = make_core(memory_store, seed="qa-back")
    await core.handle(cmd("ayse", "/okey start"))
    await core.handle(cmd("mehmet", "/okey join"))
    await core.handle(cmd("cem", "/okey join"))
    await core.handle(cmd("ayse", "/okey begin"))
    await core.handle(cmd("mehmet", "/okey leave"))
    session = live_session(core)
    assert session.seats[session.find_name("mehmet")].leaving
    out = await core.handle(cmd("mehmet", "/okey back"))
    assert not errors(out), errors(out)
    assert "Mehmet stays at the table after all" in "\n".join(o.text for o in out)
    seat = live_session(core).seats[live_session(core).find_name("mehmet")]
    assert not seat.leaving and not seat.away
    again = await core.handle(cmd("mehmet", "/okey back"))
    assert errors(again) == ["You are not away."]
    # a moderator's kick is not undone by /okey back
    await core.handle(cmd("ayse", "/table kick Cem", mod=True))
    kicked = await core.handle(cmd("cem", "/okey back"))
    assert errors(kicked) == [
        "A moderator took you off this table; the computer plays your seat until the match ends."
    ]
    assert live_session(core).seats[live_session(core).find_name("cem")].leaving


@pytest.mark.parametrize(
    ("line", "usage"),
    [
        ("/daily now", "Usage: /daily (nothing after it)"),
        ("/balance me", "Usage: /balance (nothing after it)"),
        ("/leaderboard chips please", "Usage: /leaderboard [chips|okey|101|wins] [global]"),
        ("/lang en please", "Usage: /lang tr or /lang en"),
    ],
)
async def test_extra_words_get_the_usage_line_and_change_nothing(line, usage, memory_store):
    store = memory_store
    core = make_core(store, seed="qa-words")
    await core.handle(cmd("ayse", "/balance"))
    player = await store.player("test", "ayse", "Ayse")
    before = await store.balance(wallet(player.id))
    out = await core.handle(cmd("ayse", line))
    assert errors(out) == [usage]
    assert await store.balance(wallet(player.id)) == before
    daily = await core.handle(cmd("ayse", "/daily"))
    assert not errors(daily) and private_to(daily, "ayse")


def test_a_hand_dealt_and_ended_in_one_step_records_its_seed_once():
    step = Step()
    step.record_seed(SeedRecord("1-1", 1, "ab" * 32, None))
    step.record_seed(SeedRecord("1-2", 1, "cd" * 32, None))
    step.record_seed(SeedRecord("1-1", 1, "ab" * 32, "ef" * 32))
    assert [(s.hand_id, s.seed_hex) for s in step.seeds] == [("1-2", None), ("1-1", "ef" * 32)]


async def test_warm_up_failure_is_only_logged(monkeypatch, caplog):
    def broken() -> None:
        raise OSError("no font")

    monkeypatch.setattr(core_pictures, "_warm", broken)
    with caplog.at_level(logging.WARNING, logger="bot.core.pictures"):
        await core_pictures.warm_up_pictures()
    assert "picture_warm_up_failed" in caplog.text and "OSError" in caplog.text


def okey_line(action) -> str:
    if action.kind == "take":
        return f"/okey take {action.source}"
    if action.kind == "show_indicator":
        return "/okey show"
    return f"/okey {action.kind} {action.cards[0]}"


async def test_an_okey_finish_shows_the_winners_melds(spy, memory_store):
    for attempt in range(6):  # a round may also end with the stock run out
        core = make_core(memory_store, seed=f"pic-finish-{attempt}", pictures=True)
        watch = spy(core)
        channel = f"finish-{attempt}"
        await core.handle(cmd("ayse", "/okey start", channel=channel))
        await core.handle(cmd("mehmet", "/okey join", channel=channel))
        await core.handle(cmd("ayse", "/okey begin", channel=channel))
        for _ in range(400):
            session = live_session(core, channel)
            game = session.round if session is not None else None
            if game is None:
                break
            index = game.to_act()
            view = game.view(None)
            user = session.seat_of(index).user_id
            out = await core.handle(cmd(user, okey_line(auto_action(game, index)), channel=channel))
            assert not errors(out), errors(out)
            finished = [o for o in out if o.kind is OutKind.PUBLIC and o.picture]
            if finished:
                scene = next(s for o, s, _ in watch.seen if o is finished[0])
                result = game.view(None)["result"]
                assert isinstance(scene, OkeyRackScene)
                assert scene.melds == tuple(tuple(m) for m in result["melds"])
                assert scene.loose == (result["discard"],) and view["indicator"] == scene.indicator
                assert decode(finished[0].picture).size == rack_size(scene)
                return
    pytest.fail("no round was finished by a player")
