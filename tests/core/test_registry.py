"""The game registry (`bot.core.registry`): the core finds every game through its `GameSpec`,
so a game registered there is opened, shown, restored and sorted without any change to `Core`."""

from __future__ import annotations

import dataclasses
from datetime import datetime

import pytest

from bot.core.api import TableView
from bot.core.config import CoreConfig
from bot.core.okey.session import OkeySession
from bot.core.okey.spec import OKEY
from bot.core.okey.view import okey_view
from bot.core.registry import GAMES, SESSIONS, game_spec, group_specs, open_session, register
from bot.core.table.session import TableSession, Who
from testkit.helpers import cmd, errors, make_core

PLAYERS = ("ayse", "mehmet", "cem", "deniz")


class DummySession(OkeySession):
    """A fifth game for the test: classic Okey's rules under another name."""

    game = "dummy"


def _dummy_create(
    locale: str, args: tuple[str, ...], config: CoreConfig, now: datetime
) -> TableSession:
    session = DummySession.create(locale, args, config, now)
    assert isinstance(session, DummySession)
    return session


def _dummy_view(session: DummySession, user_id: str | None, locale: str | None) -> TableView:
    """Okey's view, marked so the test can tell it was this builder that drew it."""
    return dataclasses.replace(okey_view(session, user_id, locale), phase="dummy")


sorted_by: list[str] = []


def _dummy_sort(view: TableView, mode: str) -> tuple[str | None, ...]:
    sorted_by.append(mode)
    return tuple(reversed(view.mine))


DUMMY = dataclasses.replace(
    OKEY,
    name="dummy",
    session=DummySession,
    create=_dummy_create,
    view=_dummy_view,
    picks=lambda word: word == "dummy",
    default=False,
    sort_rack=_dummy_sort,
)


@pytest.fixture
def dummy(monkeypatch: pytest.MonkeyPatch) -> None:
    """The dummy game registered for one test (and gone after it)."""
    monkeypatch.setitem(GAMES, "dummy", DUMMY)


def test_each_game_is_registered_once_with_its_group():
    assert set(GAMES) == {"turkish", "acik", "okey", "okey101"}
    assert [s.name for s in group_specs("poker")] == ["turkish", "acik"]
    assert [s.name for s in group_specs("okey")] == ["okey", "okey101"]
    assert {g: SESSIONS[g].__name__ for g in SESSIONS} == {
        "turkish": "PokerSession",
        "acik": "PokerSession",
        "okey": "OkeySession",
        "okey101": "Okey101Session",
    }
    # one default per group: what `/poker open 10` and `/okey start` play
    assert [s.name for s in GAMES.values() if s.default] == ["turkish", "okey"]
    # what a game is made of, not its name, decides the pickers and the rack
    assert {s.name for s in GAMES.values() if s.tiles} == {"okey", "okey101"}
    assert {s.name for s in GAMES.values() if s.sort_rack} == {"okey", "okey101"}


def test_the_first_word_picks_the_game_of_the_group():
    who = Who(1, "ayse", "Ayse", "en")
    now = datetime(2026, 1, 5, 12, 0)
    config = CoreConfig()
    assert open_session("poker", ("acik", "5"), who, config, now)[0].game == "acik"
    assert open_session("poker", ("5",), who, config, now)[0].game == "turkish"
    assert open_session("okey", ("101",), who, config, now)[0].game == "okey101"
    assert open_session("okey", (), who, config, now)[1] == "join"


def test_register_adds_a_game(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr("bot.core.registry.GAMES", dict(GAMES))
    from bot.core import registry

    register(DUMMY)
    assert registry.GAMES["dummy"] is DUMMY and game_spec("dummy") is DUMMY


async def test_a_registered_game_plays_through_the_core_unchanged(store, dummy):
    core = make_core(store, seed="registry")
    out = await core.handle(cmd(PLAYERS[0], "/okey start dummy 1 10"))
    assert not errors(out)
    for user in PLAYERS[1:]:
        assert not errors(await core.handle(cmd(user, "/okey join")))
    assert not errors(await core.handle(cmd(PLAYERS[0], "/okey begin")))
    live = core.tables.in_channel("test", "c1")
    assert live is not None and isinstance(live.session, DummySession)
    info = core.table_info(str(live.id))
    assert info is not None and (info.game, info.group) == ("dummy", "okey")

    # its view builder draws every viewer's view, the web table's too
    view = await core.table_view(str(live.id), "test", "ayse")
    assert view is not None and view.phase == "dummy" and len(view.mine) >= 14
    views = await core.table_views(str(live.id), "test", ["ayse", None])
    assert views is not None and {v.phase for v in views.values()} == {"dummy"}

    # its rack sorter arranges the rack
    assert await core.sort_rack(str(live.id), "test", "ayse", "runs", "en") is None
    assert sorted_by == ["runs"]
    views = await core.table_views(str(live.id), "test", ["ayse"])
    assert views is not None and views["ayse"].rack[: len(view.mine)] == tuple(reversed(view.mine))

    # a restart restores it as its own session class, from the registry
    again = make_core(store, seed="registry")
    await again.start()
    restored = again.tables.in_channel("test", "c1")
    assert restored is not None and isinstance(restored.session, DummySession)
