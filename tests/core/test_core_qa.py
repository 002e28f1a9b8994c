"""Findings of playing the core as a newcomer: a folded player's `/poker hand`, refusals that name
the move in the player's language, and a button that shows the only possible amount."""

from __future__ import annotations

import pytest

from bot.core.messages import OutKind
from testkit.drive import live_session
from testkit.helpers import cmd, errors, last_buttons, make_core, press, private_to
from testkit.stores import open_memory_store

PLAYERS = ("ayse", "mehmet", "cem")


@pytest.fixture
def core(memory_store):
    return make_core(memory_store, seed="qa")


async def seat(core, players=PLAYERS, locale="en") -> list:
    out = await core.handle(cmd(players[0], "/poker open turkish 10", locale=locale))
    for user in players:
        out += await core.handle(cmd(user, "/poker join 200", locale=locale))
    out += await core.handle(cmd(players[0], "/poker start", locale=locale))
    return out


def kinds(session) -> dict:
    index = session.engine.to_act()
    return {s.kind: s for s in session.engine.legal_actions(index)}


def actor(session) -> str:
    return session.seat_of_engine(session.engine.to_act()).user_id


async def test_a_folded_player_is_told_they_folded_not_that_they_may_open(core):
    await seat(core)
    for _ in range(60):  # pass until someone opens, then the next player folds
        session = live_session(core)
        specs, user = kinds(session), actor(session)
        if "open" in specs:
            out = await core.handle(cmd(user, f"/poker open {specs['open'].min_amount}"))
        elif "fold" in specs:
            out = await core.handle(cmd(user, "/poker fold"))
            break
        else:
            out = await core.handle(cmd(user, "/poker pass"))
        assert not errors(out), errors(out)
    else:
        pytest.fail("nobody opened")
    session = live_session(core)
    assert session.engine.view(None)["folded"].count(True) == 1 and session.running()
    reply = await core.handle(cmd(user, "/poker hand"))
    assert [o.kind for o in reply] == [OutKind.PRIVATE]
    hand = session.hand_id()
    assert reply[0].text == f"Hand {hand} · You folded this hand; your cards are out of play."
    tr = await core.handle(cmd(user, "/poker el", locale="tr"))
    assert tr[0].text == f"El {hand} · Bu elde çekildin; kartların artık oyunda değil."


async def test_refusals_name_the_move_in_the_players_language(core):
    await seat(core)
    for _ in range(60):
        session = live_session(core)
        specs, user = kinds(session), actor(session)
        if "open" in specs:
            break
        await core.handle(cmd(user, "/poker pass"))
    else:
        pytest.fail("nobody could open")
    spec = specs["open"]
    version = live_session(core).nonce
    low = spec.min_amount - 1
    tr = errors(await core.handle(cmd(user, f"/poker aç {low}", locale="tr")))
    expected = (
        str(spec.min_amount)
        if spec.min_amount == spec.max_amount
        else (f"{spec.min_amount}-{spec.max_amount}")
    )
    assert tr == [f"{low} olmaz: açmak için toplam miktar {expected} olmalı."]
    en = errors(await core.handle(cmd(user, "/poker open lots")))
    assert en == [f"Say the total stake to open: {expected}, e.g. open {spec.min_amount}"]
    tr = errors(await core.handle(cmd(user, "/poker aç çok", locale="tr")))
    assert tr == [f"Toplam miktarı yaz: açmak için {expected}, örn. aç {spec.min_amount}"]
    tr = errors(await core.handle(cmd(user, "/poker arttır 100", locale="tr")))
    assert tr == ["Şu an arttırmak olmaz."]
    tr = errors(await core.handle(cmd(user, "/poker kalk hemen", locale="tr")))
    assert tr == ["«ayrıl» komutundan sonra bir şey yazılmaz."]
    assert live_session(core).nonce == version  # refusals changed nothing


async def test_the_only_possible_amount_is_played_by_the_button_alone(core):
    out = await seat(core, PLAYERS[:2])
    for _ in range(60):
        session = live_session(core)
        specs, user = kinds(session), actor(session)
        buttons = last_buttons(out)
        if "open" in specs and specs["open"].min_amount == specs["open"].max_amount:
            break
        out = await core.handle(cmd(user, "/poker pass"))
    else:
        pytest.fail("no single-amount opening came up")
    amount = specs["open"].min_amount
    assert buttons["open"].label == f"Open ({amount})"
    out = await core.press(press(user, buttons["open"]))
    assert not errors(out), errors(out)
    assert f"opens: {amount}." in "\n".join(o.text for o in out)
    assert private_to(out, user) == []


async def test_standing_pat_is_said_so(core):
    await seat(core, PLAYERS[:2])
    for _ in range(80):  # open when possible, call, and stand pat in the draw
        session = live_session(core)
        specs, user = kinds(session), actor(session)
        if "draw" in specs:
            break
        if "open" in specs:
            move = f"/poker open {specs['open'].min_amount}"
        else:
            move = "/poker call" if "call" in specs else "/poker pass"
        assert not errors(await core.handle(cmd(user, move)))
    else:
        pytest.fail("no draw came up")
    out = await core.handle(cmd(user, "/poker pat"))
    text = "\n".join(o.text for o in out)
    assert f"{user.capitalize()} stands pat." in text and "stood pat)" in text
    assert private_to(out, user) == []  # no "You got: —"
    other = actor(live_session(core))
    out = await core.handle(cmd(other, "/poker değiştir", locale="tr"))  # exchange nothing
    assert f"{other.capitalize()} stands pat." in "\n".join(o.text for o in out)
    assert private_to(out, other) == []


async def test_the_indicator_button_is_offered_privately_never_on_the_table():
    players = ("ayse", "mehmet", "cem", "deniz")
    offered = 0
    for n in range(12):  # fresh deals; each plays the first turns, where the indicator may be shown
        async with await open_memory_store() as store:
            offered += await _indicator_offers(make_core(store, seed=f"indicator-{n}"), players)
    assert offered >= 1  # the private offer did come up in these deals


async def _indicator_offers(core, players) -> int:
    """Play the first turns of a fresh deal; how often the indicator's twin was offered."""
    offered = 0
    await core.handle(cmd("ayse", "/okey start"))
    for user in players[1:]:
        await core.handle(cmd(user, "/okey join"))
    out = await core.handle(cmd("ayse", "/okey begin"))
    for _ in range(5):
        for item in out:
            actions = {b.action for row in item.buttons for b in row}
            if item.kind in (OutKind.PUBLIC, OutKind.EDIT_TABLE):
                assert "show" not in actions, item.text
            elif "show" in actions and "You hold the indicator's twin" in item.text:
                offered += 1
                session = live_session(core)
                holder = session.seat_of(session.match.round.to_act()).user_id
                assert item.user_id == holder
                button = next(b for row in item.buttons for b in row if b.action == "show")
                shown = await core.press(press(holder, button))
                assert "shows the indicator" in "\n".join(o.text for o in shown)
        session = live_session(core)
        game = session.match.round
        index = game.to_act()
        user = session.seat_of(index).user_id
        if game.phase == "take":
            out = await core.handle(cmd(user, "/okey take stock"))
        else:
            tile = game.view(index)["hand"][0]
            out = await core.handle(cmd(user, f"/okey discard {tile}"))
        assert not errors(out), errors(out)
    return offered


async def test_okey_buttons_refuse_words_after_them(memory_store):
    core = make_core(memory_store, seed="okey-args")
    await core.handle(cmd("ayse", "/okey start"))
    await core.handle(cmd("mehmet", "/okey join"))
    out = await core.handle(cmd("ayse", "/okey begin"))
    session = live_session(core)
    user = session.seat_of(session.match.round.to_act()).user_id
    mine = [o for o in out if o.kind is OutKind.PRIVATE and o.user_id == user and o.buttons]
    button = mine[-1].buttons[0][0]
    nonce = session.nonce
    refused = await core.press(press(user, button, "-5"))
    assert [o.kind for o in refused] == [OutKind.ERROR]
    assert live_session(core).nonce == nonce  # nothing changed
    assert not errors(await core.press(press(user, button)))


async def test_poker_hand_between_hands_says_no_hand_is_played(core):
    await core.handle(cmd("ayse", "/poker open turkish 10"))
    await core.handle(cmd("ayse", "/poker join 100"))
    assert errors(await core.handle(cmd("ayse", "/poker hand"))) == [
        "No hand is being played. /poker start deals one."
    ]


async def test_a_call_names_the_chips_its_button_named(core):
    out = await seat(core, PLAYERS[:2])
    for _ in range(60):
        session = live_session(core)
        specs, user = kinds(session), actor(session)
        if "open" in specs:
            break
        out = await core.handle(cmd(user, "/poker pass"))
    else:
        pytest.fail("nobody could open")
    await core.handle(cmd(user, f"/poker open {specs['open'].min_amount}"))
    other = actor(live_session(core))
    out = await core.handle(
        cmd(other, f"/poker raise {kinds(live_session(core))['raise'].min_amount}")
    )
    label = last_buttons(out)["call"].label
    owed = int(label.split()[-1])
    session = live_session(core)
    assert owed == session.engine.view(None)["current_bet"] - specs["open"].min_amount
    out = await core.press(press(user, last_buttons(out)["call"]))
    assert f"{user.capitalize()} calls {owed}." in "\n".join(o.text for o in out)


def test_refused_cards_are_named_as_the_player_sees_them():
    from bot.core.i18n import refusal_params, t

    params = refusal_params("tr", {"card": "Kc"})
    assert t("tr", "illegal.card_not_in_hand", **params) == "K♣ sende yok."
    assert refusal_params("en", {"card": "Xx"})["card"] == "Xx"  # not a card: shown as typed


async def test_a_refusal_repeats_at_most_a_short_piece_of_what_was_typed(core):
    word = "x" * 5000
    [unknown] = errors(await core.handle(cmd("ayse", f"/{word}")))
    [verify] = errors(await core.handle(cmd("ayse", f"/verify {word}")))
    for refusal in (unknown, verify):
        assert "x" * 39 + "…" in refusal and "x" * 41 not in refusal
        assert len(refusal) < 300  # fits any chat message, whatever was typed
