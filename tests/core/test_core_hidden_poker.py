"""No answer depends on cards the asker cannot see, at Türk pokeri and Açık poker.

Twin tables that differ only in hidden cards get the same commands and button presses (every
command and sub-command, typed moves with fitting or garbage arguments, every button with a
right or wrong nonce), from every seated player and a spectator, through `Core.handle` /
`Core.press` on the real Store; properties (a)-(d) of `testkit.hidden` must hold.

Plus the leak of issue 14 as a plain example: `/poker open <anything>` from the player to act in
the first betting round gets the same answer whether or not they hold openers.
"""

from __future__ import annotations

import logging

import pytest
from hypothesis import strategies as st

from bot.core.messages import OutKind
from testkit.hidden import (
    Bases,
    check_refusal_shape,
    check_twins,
    open_twin,
    play_base,
    poker_prelude,
    refresh,
    run_examples,
    send,
    table_session,
)

PLAYERS = {"turkish": ("ayse", "mehmet", "cem", "deniz"), "acik": ("ayse", "mehmet", "cem")}
STRUCTURES = ("pot", "fixed", "nolimit")
MOVES = (0, 0, 0, 1, 2, 4, 7, 11, 16)  # often the first betting round: openers matter there
SEEDS = (0, 1, 2)
SUBS = (
    "open",
    "aç",
    "join",
    "leave",
    "start",
    "hand",
    "table",
    "rules",
    "addbot",
    "back",
    "check",
    "bet",
    "call",
    "raise",
    "fold",
    "pass",
    "draw",
    "değiş",
    "pat",
    "frob",
)
GROUPS = ("poker", "poker", "poker", "poker", "pk", "okey", "balance", "verify", "help", "frob")
PRESSES = ("open", "pass", "check", "bet", "call", "raise", "fold", "draw", "pat", "ts", "frob")
WORDS = ("0", "-5", "1.000", "999999999", "abc", "turkish", "acik", "fixed", "Zz", "A♥", "10h", "")


def prelude(game: str, seed: int) -> list[str]:
    """Open a table, seat the players, deal."""
    return poker_prelude(PLAYERS[game], game, STRUCTURES[seed % len(STRUCTURES)])


BASES = Bases("base", prelude, MOVES, SEEDS)


def all_cards() -> list[str]:
    ranks, suits = "23456789TJQKA", "hdcs"
    return [r + s for r in ranks for s in suits]


@st.composite
def poker_input(draw, session, asker: str, own: list[str]):
    """A command or a press as `asker` might send it now, with arguments fitting the table's
    public limits and the asker's cards, or plain garbage."""
    amounts: list[str] = []
    if session is not None:
        for spec in session.buttons():
            for value in (spec.min_amount, spec.max_amount):
                if value is not None:
                    amounts += [str(value), str(value - 1), str(value + 1)]
            if spec.min_amount is not None and spec.max_amount is not None:
                amounts.append(str(draw(st.integers(spec.min_amount, spec.max_amount))))
    words = st.sampled_from(
        [*amounts, *own, *WORDS, *draw(st.lists(st.sampled_from(all_cards()), max_size=2))]
    )
    args = draw(st.lists(words, max_size=4))
    buttons = [] if session is None else [b.action for b in session.buttons()]
    if buttons and draw(st.booleans()):  # a move the table offers, typed or pressed
        action = draw(st.sampled_from(buttons))
        if action == "draw":
            args = draw(st.lists(st.sampled_from(own or ["Ah"]), max_size=4, unique=True))
        elif action in ("open", "bet", "raise") and amounts:
            args = [draw(st.sampled_from(amounts))]
        elif action != "call" or draw(st.booleans()):
            args = []
        if draw(st.booleans()):
            return ("press", action, draw(st.booleans()), tuple(args))
        return ("cmd", f"/poker {action} {' '.join(args)}".strip(), None, ())
    if draw(st.integers(0, 3)) == 0 and session is not None:
        actions = [b.action for b in session.buttons()] + list(PRESSES)
        action = draw(st.sampled_from(actions))
        right = draw(st.booleans())
        return ("press", action, right, tuple(args))
    group = draw(st.sampled_from(GROUPS))
    if group in ("poker", "pk", "okey"):
        sub = draw(st.sampled_from(SUBS))
        return ("cmd", f"/{group} {sub} {' '.join(args)}".strip(), None, ())
    return ("cmd", f"/{group} {' '.join(args)}".strip(), None, ())


@pytest.mark.parametrize("game", ["turkish", "acik"])
def test_no_answer_depends_on_cards_the_asker_cannot_see(game, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"hidden-{game}")

    async def check(data) -> None:
        await check_twins(tmp, await BASES.draw(tmp, game, data), data, poker_input)

    run_examples(50, check)


# --- the leak of issue 14, as plain examples ----------------------------------------------------

WITH_OPENERS = ("Kh", "Ks", "9d", "8c", "Jd")
WITHOUT_OPENERS = ("Kh", "Qs", "9d", "8c", "Jd")
OPEN_WORDS = ["/poker open", "/poker open abc", "/poker open 0", "/poker open 999999999"]
OPEN_WORDS += ["/poker open turkish 10", "/poker aç fixed", "/poker open -5", "/pk open 1.000.000"]


def give(cards: tuple[str, ...]):
    """A snapshot change: the player to act holds `cards` (swapped with wherever they lie)."""

    def change(snapshot) -> bool:
        engine = snapshot["engine"]
        seat = engine["betting"]["to_act"]
        places = [*engine["hands"], engine["stock"]]
        for card, i in zip(cards, range(len(cards)), strict=True):
            where = next(p for p in places if card in p)
            j = where.index(card)
            where[j], engine["hands"][seat][i] = engine["hands"][seat][i], card
        refresh(snapshot)
        return True

    return change


async def opening_twins(tmp) -> tuple[list, str]:
    saved = await play_base(tmp / "open.db", "turkish", prelude("turkish", 0), 0, 0)
    twins = []
    for name, hand in (("with", WITH_OPENERS), ("without", WITHOUT_OPENERS)):
        twin = await open_twin(saved, tmp / f"open-{name}.db", give(hand))
        assert twin is not None
        twins.append(twin)
    session = table_session(twins[0][1])
    actor = session.seats[session.actor()].user_id
    index = session.engine.to_act()
    assert session.engine.view(index)["has_openers"]
    assert not table_session(twins[1][1]).engine.view(index)["has_openers"]
    return twins, actor


async def test_poker_open_from_the_player_to_act_never_tells_who_holds_openers(tmp_path, caplog):
    """Issue 14's leak: the answer to `/poker open <anything>` in the first betting round used
    to be a usage text (or "this channel has a table") for a player without openers and an
    amount prompt for one with them. Now it is the same private refusal for both."""
    twins, actor = await opening_twins(tmp_path)
    try:
        for line in OPEN_WORDS:
            outs = [await send(core, actor, ("cmd", line, None, ())) for _, core in twins]
            for out in outs:
                check_refusal_shape(out, actor)
                assert [o.kind for o in out] == [OutKind.ERROR], (line, out)
            assert outs[0] == outs[1], line
        for right, args in ((False, ()), (True, ("abc",)), (True, ("999999999",))):
            how = ("press", "open", right, args)
            outs = [await send(core, actor, how) for _, core in twins]
            assert [o.kind for o in outs[0]] == [OutKind.ERROR], outs[0]
            assert outs[0] == outs[1]
        session = table_session(twins[0][1])
        low = next(b for b in session.buttons() if b.action == "open").min_amount
        with caplog.at_level(logging.INFO, logger="bot.core"):
            with_openers, without = [
                await send(core, actor, ("cmd", f"/poker open {low}", None, ()))
                for _, core in twins
            ]
        assert not [o for o in with_openers if o.kind is OutKind.ERROR]  # the opening is made
        check_refusal_shape(without, actor)
        assert "kings or better" in without[0].text  # told privately, to the asker alone
        assert "outcome=refused" in caplog.text and "openers" not in caplog.text  # nor logged
    finally:
        for store, _ in twins:
            await store.close()
