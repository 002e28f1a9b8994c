"""Rematch in one press ("Play again", `bot.core.table.rematch`), on every registered game through
the registry: a table every person left offers its players a rematch on its last message; the
first press opens a new table with the same house rules and stake, each player pays their own
buy-in or stake through the ledger, and it starts when all have pressed (or a moderator does).
Bad presses are refused privately and change nothing; chips are conserved throughout."""

from __future__ import annotations

import pytest

from bot.core.i18n import t
from bot.core.messages import Button, OutKind, Sender
from bot.core.moves import Rematch
from bot.core.registry import GAMES
from bot.core.spec import GameSpec
from bot.core.table.session import TableSession
from storage import escrow, wallet
from testkit.helpers import Clock, cmd, errors, make_core, press, private_to, public_text

SPECS = list(GAMES.values())
PLAYERS = ("ayse", "mehmet", "cem")


def ids(spec: GameSpec) -> str:
    return spec.name


async def open_game(core, spec: GameSpec, channel: str = "c1", community: str | None = None):
    """A table of `spec` opened in `channel` (its house rules and stake the defaults)."""
    who = await core.accounts.who(Sender("test", channel, "ayse", "Ayse", "en"))
    session = spec.create("en", (), core.config, core.clock())
    return await core.tables.open("test", channel, who, session, None, community)


async def stopped(core, spec: GameSpec, players=PLAYERS[:2], community: str | None = None):
    """Play `spec` with `players` until every one of them has left: the last outgoing items.
    Every player of the tests is known (granted their chips) first."""
    for user in PLAYERS:
        await core.accounts.who(Sender("test", "c1", user, user.capitalize(), "en"))
    await open_game(core, spec, community=community)
    for user in players:
        out = await core.handle(cmd(user, f"/{spec.group} join"))
        assert not errors(out), errors(out)
    session = core.tables.in_channel("test", "c1").session
    out = await core.handle(cmd(players[0], f"/{spec.group} {session.begin_sub}"))
    assert not errors(out), errors(out)
    for user in players:
        out = await core.handle(cmd(user, f"/{spec.group} leave"))
        assert not errors(out), errors(out)
    assert core.tables.in_channel("test", "c1") is None  # the computer played their seats out
    return out


def again(out) -> Button:
    """The "Play again" button of the newest table message in `out`."""
    for item in reversed(out):
        if item.kind is OutKind.EDIT_TABLE:
            found = [b for row in item.buttons for b in row if b.action == "again"]
            assert found, item.buttons
            return found[0]
    raise AssertionError("no table message")


async def chips(store, core) -> int:
    """Every chip of the players and of the tables' escrows."""
    total = 0
    for user in PLAYERS:
        total += await store.balance(wallet((await store.player("test", user, user)).id))
    for number in range(1, 6):
        total += await store.balance(escrow(number))
    return total


def live(core) -> TableSession:
    return core.tables.in_channel("test", "c1").session


@pytest.mark.parametrize("spec", SPECS, ids=ids)
async def test_everyone_left_then_all_press_and_the_rematch_starts(store, spec):
    core = make_core(store, seed=f"again-{spec.name}")
    out = await stopped(core, spec)
    total = await chips(store, core)
    button = again(out)
    assert button.label == "Play again (0/2)"
    old = button.table_id
    # someone who was not at the table: refused, nothing changes
    out = await core.press(press("cem", button))
    assert errors(out) == [t("en", "err.rematch_not_player")]
    assert core.tables.in_channel("test", "c1") is None
    # the first press opens a new table with the same rules, the presser sitting again
    out = await core.press(press("ayse", button))
    assert not errors(out), errors(out)
    session = live(core)
    assert str(session.table_id) != old and not session.running()
    assert session.options == (await store.get_table(int(old))).snapshot["options"]
    assert [s.user_id for s in session.seats] == ["ayse"]
    assert again(out).label == "Play again (1/2)"
    assert "Ayse wants to play again." in public_text(out)
    assert not [o for o in out if o.kind is OutKind.PUBLIC and "again" in o.text.lower()]
    assert await chips(store, core) == total
    # a second press, on either message: refused privately
    for pressed in (button, again(out)):
        out2 = await core.press(press("ayse", pressed))
        assert errors(out2) == [t("en", "err.rematch_pressed")]
    # the last player's press (on the old message) starts it: each paid their own way
    out = await core.press(press("mehmet", button))
    assert not errors(out), errors(out)
    session = live(core)
    assert session.running() and session.rematch is None
    assert [s.user_id for s in session.seats] == ["ayse", "mehmet"]
    assert "Rematch: the same players, house rules and stake." in public_text(out)
    assert await store.balance(escrow(session.table_id)) == session.held() > 0
    assert await chips(store, core) == total
    # a press once it has started: refused, nothing changes
    version = (await store.get_table(session.table_id)).version
    out = await core.press(press("ayse", button))
    assert errors(out) == [t("en", "err.rematch_over")]
    assert (await store.get_table(session.table_id)).version == version


@pytest.mark.parametrize("spec", SPECS, ids=ids)
async def test_a_player_short_of_chips_is_told_and_the_rest_go_on(store, spec):
    core = make_core(store, seed=f"short-{spec.name}")
    out = await stopped(core, spec, players=PLAYERS)
    button = again(out)
    cost = (await store.get_table(int(button.table_id))).snapshot["options"]
    need = cost.get("default_buy_in", cost.get("stake"))
    # cem's chips go to a poker table elsewhere (through the ledger)
    await core.handle(cmd("cem", "/poker open 10", channel="c2"))
    cem = (await store.player("test", "cem", "cem")).id
    spend = await store.balance(wallet(cem)) - need + 1
    out = await core.handle(cmd("cem", f"/poker join {spend}", channel="c2"))
    assert not errors(out), errors(out)
    total = await chips(store, core)
    # cem's own press: refused privately, nothing opened
    out = await core.press(press("cem", button))
    assert errors(out) == [t("en", "err.rematch_funds", chips=need)]
    assert core.tables.in_channel("test", "c1") is None
    out = await core.press(press("ayse", button))
    assert t("en", "rematch.short", chips=need) in private_to(out, "cem")
    assert again(out).label == "Play again (1/2)"  # the rest go on without cem
    out = await core.press(press("mehmet", button))
    assert not errors(out), errors(out)
    session = live(core)
    assert session.running() and [s.user_id for s in session.seats] == ["ayse", "mehmet"]
    assert await chips(store, core) == total


@pytest.mark.parametrize("spec", SPECS, ids=ids)
async def test_too_few_left_is_said_and_nothing_starts(store, spec):
    core = make_core(store, seed=f"few-{spec.name}")
    out = await stopped(core, spec)
    button = again(out)
    need = (await store.get_table(int(button.table_id))).snapshot["options"]
    need = need.get("default_buy_in", need.get("stake"))
    await core.handle(cmd("mehmet", "/poker open 10", channel="c2"))
    mehmet = (await store.player("test", "mehmet", "mehmet")).id
    spend = await store.balance(wallet(mehmet)) - need + 1
    await core.handle(cmd("mehmet", f"/poker join {spend}", channel="c2"))
    total = await chips(store, core)
    out = await core.press(press("ayse", button))
    assert "The rematch cannot start" in public_text(out)
    session = live(core)
    assert not session.running() and session.rematch is None
    assert await chips(store, core) == total


@pytest.mark.parametrize("spec", SPECS, ids=ids)
async def test_a_moderator_starts_it_at_once(store, spec):
    core = make_core(store, seed=f"mod-{spec.name}")
    out = await stopped(core, spec)
    button = again(out)
    total = await chips(store, core)
    await core.press(press("ayse", button))
    moderator = Sender("test", "c1", "cem", "Cem", "en", is_moderator=True)
    out = await core.act(button.table_id, moderator, button.nonce, Rematch())
    assert not errors(out), errors(out)
    session = live(core)
    assert session.running() and [s.user_id for s in session.seats] == ["ayse", "mehmet"]
    assert await chips(store, core) == total


@pytest.mark.parametrize("spec", SPECS, ids=ids)
async def test_the_offer_expires(store, spec):
    clock = Clock()
    core = make_core(store, seed=f"late-{spec.name}", clock=clock, rematch_seconds=300)
    out = await stopped(core, spec)
    button = again(out)
    out = await core.press(press("ayse", button))
    total = await chips(store, core)
    clock.advance(301)
    out = await core.tick()
    assert "The offer to play again has expired." in public_text(out)
    assert not [b for item in out for row in item.buttons for b in row if b.action == "again"]
    out = await core.press(press("mehmet", button))
    assert errors(out) == [t("en", "err.rematch_expired")]
    assert not live(core).running()
    assert await chips(store, core) == total


async def test_forged_and_foreign_presses_are_refused(store):
    spec = SPECS[0]
    core = make_core(store, seed="forged")
    out = await stopped(core, spec)
    button = again(out)
    for raw_table, action in (("999", "again"), (button.table_id, "agian")):
        forged = Button(button.label, raw_table, action, button.nonce)
        out = await core.press(press("ayse", forged))
        assert errors(out) and errors(out)[0] in (
            t("en", "err.no_such_table"),
            t("en", "err.bad_button"),
        )
    other = Sender("discord", "c1", "ayse", "Ayse", "en")
    out = await core.act(button.table_id, other, button.nonce, Rematch())
    assert errors(out) == [t("en", "err.no_such_table")]
    assert core.tables.in_channel("test", "c1") is None


async def test_the_community_limit_and_the_press_budget_hold(store):
    spec = SPECS[0]
    core = make_core(store, seed="limits", max_open_tables=1, press_burst=2)
    out = await stopped(core, spec, community="g1")
    button = again(out)
    await core.handle(cmd("cem", "/poker open 10", channel="c2", community="g1"))
    out = await core.press(press("ayse", button))
    assert errors(out) == [t("en", "err.community_tables", max=1)]
    assert core.tables.in_channel("test", "c1") is None
    out = await core.press(press("ayse", button))
    out = await core.press(press("ayse", button))
    assert errors(out) == [t("en", "err.slow_down")]
