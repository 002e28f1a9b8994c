"""The contract between the core and the front ends (`bot.core.api`): its types, the table views
for a seated viewer and a spectator (Türk pokeri, Açık poker, Okey), the pickers on private
items, the moderator question and the table info adapters read."""

from __future__ import annotations

import dataclasses

import pytest

from bot.core.api import ActionView, CoreApi, SeatView, TableInfo, TableView
from bot.core.app import Core
from bot.core.messages import NEEDS_CARDS, TILES, Outgoing, OutKind, Pick, Picker
from testkit.helpers import cmd, make_core

SPECTATOR = "zed"


async def poker_table(store, game: str, players: tuple[str, ...] = ("ayse", "mehmet", "cem")):
    """A core with a poker table of `game` in channel c1, its first hand dealt."""
    core = make_core(store, seed=f"contract-{game}")
    await core.handle(cmd(players[0], f"/poker open {game} 5"))
    for i, user in enumerate(players):
        await core.handle(cmd(user, f"/poker join {150 + 10 * i}"))
    await core.handle(cmd(players[0], "/poker start"))
    return core, core.tables.in_channel("test", "c1")


async def okey_table(store):
    """A core with an Okey table of four in channel c1, its first round dealt."""
    core = make_core(store, seed="contract-okey")
    users = ("ayse", "mehmet", "cem", "deniz")
    await core.handle(cmd(users[0], "/okey start 1 10"))
    for user in users[1:]:
        await core.handle(cmd(user, "/okey join"))
    await core.handle(cmd(users[0], "/okey begin"))
    return core, core.tables.in_channel("test", "c1")


async def test_the_core_is_a_core_api(store):
    assert isinstance(Core(store), CoreApi)


def test_the_contract_types_are_frozen_values():
    seat = SeatView(name="Ayse", user_id="ayse")
    view = TableView(table_id="1", game="okey", group="okey", locale="en", phase="waiting")
    for value in (
        seat,
        view,
        ActionView("bet", 10, 20),
        TableInfo("1", "t", "okey", "okey", "en", "n"),
    ):
        with pytest.raises(dataclasses.FrozenInstanceError):
            value.name = "x"  # type: ignore[misc, union-attr]
    assert view.seats == () and view.me is None and view.mine == () and view.actions == ()
    picker = Picker(NEEDS_CARDS, (Pick("Ah", "A♥"), Pick("Td", "10♦")))
    assert picker.codes == ("Ah", "Td")
    assert Outgoing(OutKind.PUBLIC, "hi").picker is None


@pytest.mark.parametrize(
    ("name", "args", "needed"),
    [
        ("table", ("reset",), True),
        ("masa", ("at", "cem"), True),
        ("poker", ("rules", "set", "deck=32"), True),
        ("okey", ("kurallar", "ayarla", "takeback=off"), True),
        ("poker", ("rules",), False),
        ("poker", ("join",), False),
        ("tournament", ("cancel", "3"), True),
        ("turnuva", ("başlat", "3"), True),
        ("tournament", ("join", "3"), False),
        ("balance", (), False),
        ("frob", (), False),
    ],
)
async def test_the_core_says_which_commands_need_a_moderator(store, name, args, needed):
    assert Core(store).needs_moderator(name, args) is needed


async def test_table_info_tells_game_language_platform_and_nonce(store):
    core, live = await okey_table(store)
    info = core.table_info(str(live.id))
    assert info == TableInfo(
        str(live.id), "test", "okey", "okey", live.session.locale, live.session.nonce
    )
    assert core.table_info("999") is None
    assert core.table_info("garbage") is None


@pytest.mark.parametrize("game", ["turkish", "acik"])
async def test_poker_view_for_a_seated_player_and_a_spectator(store, game):
    core, live = await poker_table(store, game)
    session = live.session
    table = str(live.id)
    actor = session.seats[session.actor()].user_id
    mine = await core.table_view(table, "test", actor)
    spectator = await core.table_view(table, "test", SPECTATOR)
    assert mine is not None and spectator is not None
    assert (mine.game, mine.group, mine.phase) == (game, "poker", "playing")
    assert mine.hand_id == spectator.hand_id == session.hand_id()
    assert mine.seats == spectator.seats  # seats are what everyone sees
    assert [s.user_id for s in mine.seats] == ["ayse", "mehmet", "cem"]
    assert mine.me == session.actor() and spectator.me is None
    engine = session.engine
    index = session.engine_seat(session.seats[mine.me].player_id)
    assert list(mine.mine) == engine.view(index)["hand"]
    assert spectator.mine == () and spectator.actions == ()
    kinds = {a.kind for a in mine.actions}
    assert kinds == {s.kind for s in engine.legal_actions(index)}
    for action, spec in zip(mine.actions, engine.legal_actions(index), strict=True):
        assert (action.min_amount, action.max_amount) == (spec.min_amount, spec.max_amount)
    assert mine.acting == spectator.acting == session.actor()
    assert mine.deadline == session.deadline is not None
    public = engine.view(None)
    assert mine.pot == public["pot"] > 0
    assert sum(s.stake for s in mine.seats) <= mine.pot
    assert sum(1 for s in mine.seats if s.dealer) == 1
    for seat in mine.seats:
        assert seat.in_play and seat.chips is not None and seat.chips > 0
        if game == "acik":
            assert len(seat.up) == 1 and seat.down == 1
        else:
            assert seat.up == () and seat.down == 5
    # nobody else's cards: a spectator's view holds no card of any hand
    hidden = {c for i in range(len(session.in_hand)) for c in engine.view(i)["hand"]}
    public_up = {c for s in spectator.seats for c in s.up}
    assert not (set(_all_strings(spectator)) & (hidden - public_up))
    other = await core.table_view(table, "test", "mehmet" if actor != "mehmet" else "cem")
    assert other is not None and other.actions == ()
    assert set(other.mine).isdisjoint(set(mine.mine) - public_up)


async def test_a_table_waiting_for_players_has_no_hand(store):
    core = make_core(store, seed="contract-wait")
    await core.handle(cmd("ayse", "/poker open turkish 5"))
    await core.handle(cmd("ayse", "/poker join 150"))
    live = core.tables.in_channel("test", "c1")
    view = await core.table_view(str(live.id), "test", "ayse")
    assert view is not None
    assert (view.phase, view.hand_id, view.mine, view.actions, view.acting) == (
        "waiting",
        None,
        (),
        (),
        None,
    )
    assert view.seats == (SeatView(name="Ayse", user_id="ayse", chips=150),)
    assert await core.table_view(str(live.id), "discord", "ayse") is None  # another platform's
    assert await core.table_view("999", "test", "ayse") is None


async def test_okey_view_for_a_seated_player_and_a_spectator(store):
    core, live = await okey_table(store)
    session = live.session
    table = str(live.id)
    game = session.round
    actor = session.seats[session.actor()].user_id
    mine = await core.table_view(table, "test", actor)
    spectator = await core.table_view(table, "test", SPECTATOR)
    assert mine is not None and spectator is not None
    assert mine.seats == spectator.seats
    index = session.engine_seat(session.seats[mine.me].player_id)
    assert sorted(mine.mine) == sorted(game.view(index)["hand"])
    assert len(mine.mine) == 15  # the starter holds 15 tiles
    assert {a.kind for a in mine.actions} == {s.kind for s in game.legal_actions(index)}
    assert spectator.mine == () and spectator.actions == ()
    public = game.view(None)
    assert (mine.indicator, mine.okey, mine.stock) == (
        public["indicator"],
        public["okey"],
        public["stock"],
    )
    assert [s.down for s in mine.seats] == public["rack_sizes"]
    assert [s.points for s in mine.seats] == session.match.totals
    assert all(s.discards == () for s in mine.seats)
    assert mine.stage == public["phase"] and mine.acting == session.actor()
    racks = {t for i in range(4) if i != index for t in game.view(i)["hand"]}
    assert not (set(_all_strings(spectator)) & racks - {public["indicator"], public["okey"]})


async def test_a_hand_answer_carries_the_players_own_cards_as_a_picker(store):
    core, live = await poker_table(store, "turkish")
    session = live.session
    out = await core.handle(cmd("mehmet", "/poker hand"))
    [item] = [o for o in out if o.kind is OutKind.PRIVATE and o.user_id == "mehmet"]
    index = session.engine_seat(session.seats[1].player_id)
    hand = session.engine.view(index)["hand"]
    assert item.picker is not None and item.picker.kind == NEEDS_CARDS
    assert list(item.picker.codes) == hand
    assert all(pick.label != pick.code or "T" not in pick.code for pick in item.picker.choices)


async def test_a_rack_answer_carries_the_players_own_tiles_as_a_picker(store):
    core, live = await okey_table(store)
    out = await core.handle(cmd("cem", "/okey rack"))
    [item] = [o for o in out if o.kind is OutKind.PRIVATE and o.user_id == "cem"]
    assert item.picker is not None and item.picker.kind == TILES
    index = live.session.engine_seat(live.session.seats[2].player_id)
    assert set(item.picker.codes) == set(live.session.round.view(index)["hand"])
    assert len(item.picker.codes) == len(set(item.picker.codes))  # each tile once


async def test_a_folded_hand_offers_nothing_to_pick(store):
    core, live = await poker_table(store, "acik")
    session = live.session
    first = session.seats[session.actor()].user_id
    view = await core.table_view(str(live.id), "test", first)
    bet = next(a for a in view.actions if a.kind == "bet")
    await core.handle(cmd(first, f"/poker bet {bet.min_amount}"))
    actor = session.seats[session.actor()].user_id
    out = await core.handle(cmd(actor, "/poker fold"))
    assert not [o for o in out if o.kind is OutKind.ERROR]
    view = await core.table_view(str(live.id), "test", actor)
    assert view.seats[view.me].folded and view.mine  # their cards, but nothing to pick
    out = await core.handle(cmd(actor, "/poker hand"))
    assert all(o.picker is None for o in out)


def _all_strings(value) -> list[str]:
    """Every string inside a (nested) dataclass value."""
    if isinstance(value, str):
        return [value]
    if dataclasses.is_dataclass(value):
        return [s for f in dataclasses.fields(value) for s in _all_strings(getattr(value, f.name))]
    if isinstance(value, tuple | list):
        return [s for item in value for s in _all_strings(item)]
    return []


@pytest.fixture
async def store(memory_store):
    return memory_store
