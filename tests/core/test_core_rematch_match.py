"""Rematch at a tile table whose match ended (every tile game in the registry, `GameSpec.tiles`):
the table stays open with its players seated and offers "Play again"; the computer player at it
counts as pressed; once both people press, the next match begins on the same table, each seat
staking through the ledger; a stranger's press and a second press are refused privately."""

from __future__ import annotations

import pytest

from bot.core.i18n import t
from bot.core.messages import OutKind, Sender
from bot.core.moves import ConfirmDiscard, Rematch
from bot.core.registry import GAMES
from storage import escrow, wallet
from testkit.helpers import cmd, errors, make_core, public_text

TILES = [spec for spec in GAMES.values() if spec.tiles]
PEOPLE = ("ayse", "mehmet")


def sender(user: str, moderator: bool = False) -> Sender:
    return Sender("test", "c1", user, user.capitalize(), "en", is_moderator=moderator)


async def play_match(core, session) -> list:
    """Play the one-round match with the computer's own moves for every seat."""
    out: list = []
    for _ in range(600):
        if not session.running():
            return out
        index = session.match.round.to_act()
        seat = session.seat_of(index)
        if seat.bot:  # (the computer at the table moved already)
            raise AssertionError("a computer seat is to act after a step")
        action = session._computer_action(session.match.round, index, "hard")
        out = await core.act(str(session.table_id), sender(seat.user_id), session.nonce, action)
        if errors(out) and action.kind == "discard":  # a +101 discard, made anyway
            move = ConfirmDiscard(action.cards[0])
            out = await core.act(str(session.table_id), sender(seat.user_id), session.nonce, move)
        assert not errors(out), errors(out)
        session = core.tables.in_channel("test", "c1").session
    raise AssertionError("the match did not end")


async def chips(store, users) -> int:
    total = 0
    for user in users:
        player = await store.player(*user)
        total += await store.balance(wallet(player.id))
    return total


@pytest.mark.parametrize("spec", TILES, ids=lambda s: s.name)
async def test_a_match_ended_offers_play_again_on_the_same_table(store, spec):
    core = make_core(store, seed=f"match-{spec.name}")
    who = await core.accounts.who(sender("ayse"))
    session = spec.create("en", (), core.config, core.clock())
    session.options[session.opening.rounds_option] = 1
    await core.tables.open("test", "c1", who, session, None, None)
    for user in PEOPLE:
        assert not errors(await core.handle(cmd(user, f"/{spec.group} join")))
    assert not errors(await core.handle(cmd("ayse", f"/{spec.group} addbot")))
    await core.accounts.who(sender("cem"))
    live = core.tables.in_channel("test", "c1")
    bot = live.session.seats[-1]
    users = [("test", "ayse", "Ayse"), ("test", "mehmet", "Mehmet"), ("test", "cem", "Cem")]
    users.append(("bot", bot.user_id, bot.name))
    assert not errors(await core.handle(cmd("ayse", f"/{spec.group} begin")))
    out = await play_match(core, core.tables.in_channel("test", "c1").session)
    session = core.tables.in_channel("test", "c1").session
    table = str(session.table_id)
    assert session.rematch is not None and not session.running()
    buttons = [
        b for item in out if item.kind is OutKind.EDIT_TABLE for r in item.buttons for b in r
    ]
    assert buttons[-1].action == "again" and buttons[-1].label == "Play again (1/3)"
    total = await chips(store, users)
    played = session.hand_no

    out = await core.act(table, sender("cem"), "-", Rematch())
    assert errors(out) == [t("en", "err.rematch_not_player")]
    out = await core.act(table, sender("ayse"), "-", Rematch())
    assert not errors(out) and "Play again (2/3)" in [
        b.label for item in out for r in item.buttons for b in r
    ]
    out = await core.act(table, sender("ayse"), "-", Rematch())
    assert errors(out) == [t("en", "err.rematch_pressed")]
    out = await core.act(table, sender("mehmet"), "-", Rematch())
    assert not errors(out), errors(out)
    assert "Rematch: the same players, house rules and stake." in public_text(out)
    session = core.tables.in_channel("test", "c1").session
    assert str(session.table_id) == table and session.running() and session.hand_no == played + 1
    stake = session.options["stake"]
    assert await store.balance(escrow(session.table_id)) == session.held() == 3 * stake
    assert await chips(store, users) == total - 3 * stake
    out = await core.act(table, sender("mehmet"), "-", Rematch())
    assert errors(out) == [t("en", "err.rematch_over")]
