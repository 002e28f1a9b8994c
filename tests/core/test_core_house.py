"""House rules of the poker tables (issue 16): the catalogue's parsing, and for each option a
table opened with it plays whole hands through the core whose outcome shows the option in force.

Deals that need a rare tie are either searched in the test setup (a bounded, deterministic search
over candidate seeds) or fixed seeds found by the same search once; each test first checks that its
seed deals what the test needs, so a change in the shuffle fails loudly instead of passing by luck.
"""

from __future__ import annotations

import re

import pytest

from bot.core.errors import Refusal
from bot.core.table import house
from games.poker import acik, evaluate
from games.poker.ranking import acik_rules, turkish_rules
from storage import Store
from testkit.drive import live_session
from testkit.helpers import cmd, errors, private_to, public_text
from testkit.house_play import (
    FixedSeeds,
    acik_hands,
    candidate,
    core_on,
    first_dealer,
    open_table,
    play_hand,
    someone_opens,
    turkish_hands,
    winner,
)

CARD = re.compile(r"(?<![\w])(10|[2-9JQKA])[♥♠♦♣]")
PLAYERS = [f"p{i}" for i in range(10)]

# Found by searching sha256("flushfour52-<k>") and sha256("twopair-<k>") (k = 3512 and 15506):
# the first deals nine Açık players a flush against four of a kind, the second deals two Türk
# pokeri players the same two pairs, the higher kicker against the heart.
FLUSH_AGAINST_FOUR = bytes.fromhex(
    "aff28b2929b897a4f097295a1e1b13baaa518a9bfe4829993aa7057a12f60fc4"
)
TWO_PAIR_TIE = bytes.fromhex("03d1acb17bbf4f548d1d12def4e55a08317e325de5b50d30f3366b5c40ddbcdc")


def name(user: str) -> str:
    return user.capitalize()


# --- the catalogue -----------------------------------------------------------------------------


def test_names_and_values_match_after_folding_turkish_letters():
    assert house.parse("acik", ["Floş=KAPALI", "deste=32", "bakış=birkez"]) == {
        "flushfour": "off",
        "deck": "32",
        "peek": "once",
    }
    assert house.parse("turkish", ["renk=♠♥♣♦", "ikiçift=kupa"]) == {
        "suits": "shcd",
        "twopair": "heart",
    }
    assert house.parse("okey", ["tür=klasik", "el=3", "geriat=evet"]) == {
        "preset": "classic",
        "rounds": "3",
        "takeback": "on",
    }
    assert house.stored({"rounds": "3", "deck": "32"}) == {"rounds": 3, "deck": "32"}


@pytest.mark.parametrize(
    ("game", "word", "key"),
    [
        ("acik", "colour=hsdc", "err.house_unknown"),
        ("acik", "twopair=heart", "err.house_unknown"),  # a Türk pokeri option
        ("turkish", "deck=32", "err.house_unknown"),  # an Açık option
        ("okey", "suits=hsdc", "err.house_unknown"),
        ("acik", "deck=36", "err.house_value"),
        ("acik", "suits=hhdc", "err.house_value"),
        ("acik", "peek=twice", "err.house_value"),
        ("acik", "deck", "err.house_form"),
        ("acik", "deck=", "err.house_value"),
    ],
)
def test_bad_words_are_refused_with_the_valid_ones(game, word, key):
    with pytest.raises(Refusal) as caught:
        house.parse(game, [word])
    assert caught.value.key == key
    with pytest.raises(Refusal) as twice:
        house.parse("acik", ["deck=32", "deste=52"])
    assert twice.value.key == "err.house_twice"


def test_engine_arguments_and_defaults():
    assert house.engine_args("acik", {}) == {
        "rules": {"deck": 52, "suit_order": "hsdc", "flush_beats_four": True},
        "hand": {"void_bets": True, "peek_once": False},
        "match": {},
        "table": {"odds": True, "speed": "normal", "away": 3},
    }
    chosen = {"twopair": "heart", "suits": "cdsh"}
    assert house.engine_args("turkish", chosen)["rules"] == {
        "suit_order": "cdsh",
        "two_pair_heart_beats_kicker": True,
    }
    okey = house.engine_args("okey", {"rounds": 3, "preset": "classic"})["match"]
    assert okey == {"preset": "classic", "rounds": 3, "takeback": False}
    assert house.changed("acik", {"deck": "32", "peek": "once", "void": "on"}) == [
        "deck=32",
        "peek=once",
    ]
    assert house.changed("okey", {"rounds": 3, "preset": "classic", "takeback": "on"}) == [
        "takeback=on"
    ]  # the Okey header shows rounds and scoring itself


# --- each option in force ----------------------------------------------------------------------


async def test_deck_32_deals_only_sevens_and_higher(store):
    core = core_on(store, FixedSeeds(master="deck32"))
    users = PLAYERS[:6]
    out = await open_table(core, "/poker open acik 10 deck=32", users)
    assert "House rules: deck=32" in public_text(out)
    out += await core.handle(cmd("p0", "/poker start"))
    for _ in range(3):
        out += await play_hand(core)
    seen = CARD.findall(public_text(out))
    for user in users:
        seen += CARD.findall("\n".join(private_to(out, user)))
    assert len(seen) >= 3 * 6 * 5  # every up card, shown hand and down card of three hands
    assert {rank for rank in seen} <= {"7", "8", "9", "10", "J", "Q", "K", "A"}
    assert live_session(core).engine.rules.deck_size == 32


async def test_deck_32_full_with_six_players(store):
    core = core_on(store, FixedSeeds())
    await open_table(core, "/poker open açık 10 deste=32", PLAYERS[:6])
    out = await core.handle(cmd("p6", "/poker join 200"))
    assert errors(out) == ["The table is full: a 32-card deck deals to at most 6 players."]
    assert len(live_session(core).seats) == 6


def speaks_first_tie(order: str) -> tuple[bytes, int]:
    """A seed whose first street shows two up cards of one rank, so that the suit order decides
    who speaks first, and the seat that speaks first under `order` (not under the default)."""
    default, chosen = acik_rules(), acik_rules(suit_order=order)
    for k in range(2000):
        seed = candidate("speaks", k)
        hands = acik_hands(default, seed, 2)
        ups = [[h[1]] for h in hands]  # the first up card of each seat
        if ups[0][0].rank != ups[1][0].rank:
            continue
        mine, usual = winner(ups, chosen), winner(ups, default)
        assert mine != usual
        return seed, mine
    raise AssertionError("no tie in 2000 deals")


async def test_suits_decide_who_speaks_first_at_acik(store):
    seed, seat = speaks_first_tie("cdsh")
    core = core_on(store, FixedSeeds(seed))
    await open_table(core, "/poker open acik 10 suits=cdsh", PLAYERS[:2])
    out = await core.handle(cmd("p0", "/poker start"))
    out += await play_hand(core)
    text = public_text(out)
    assert f"{name(PLAYERS[seat])} speaks first" in text
    assert f"{name(PLAYERS[1 - seat])} speaks first" not in text.split("Street 2")[0]


def turkish_suit_tie(order: str) -> tuple[bytes, int]:
    """A seed whose two dealt Türk pokeri hands have the same ranks (and somebody can open), so
    that the suits decide the showdown, and the winner under `order`."""
    default, chosen = turkish_rules(2), turkish_rules(2, suit_order=order)
    for k in range(5000):
        seed = candidate("suits", k)
        hands = turkish_hands(seed, 2)
        if not someone_opens(hands):
            continue
        mine, usual = winner(hands, chosen), winner(hands, default)
        if mine != usual:
            return seed, mine
    raise AssertionError("no suit tie in 5000 deals")


async def test_suits_decide_a_turkish_showdown(store):
    seed, seat = turkish_suit_tie("cdsh")
    core = core_on(store, FixedSeeds(seed))
    await open_table(core, "/poker open turkish 10 renk=♣♦♠♥", PLAYERS[:2])
    out = await core.handle(cmd("p0", "/poker start"))
    out += await play_hand(core)
    text = public_text(out)
    assert "Showdown:" in text
    assert f"{name(PLAYERS[seat])} wins" in text
    assert f"{name(PLAYERS[1 - seat])} wins" not in text


async def test_twopair_heart_beats_the_kicker(store):
    hands = turkish_hands(TWO_PAIR_TIE, 2)
    heart = turkish_rules(2, two_pair_heart_beats_kicker=True)
    seat = winner(hands, heart)
    assert seat != winner(hands, turkish_rules(2))  # the seed still deals the tie
    assert {evaluate(h, heart).category for h in hands} == {"two_pair"}
    core = core_on(store, FixedSeeds(TWO_PAIR_TIE))
    await open_table(core, "/poker open turkish 10 twopair=heart", PLAYERS[:2])
    out = await core.handle(cmd("p0", "/poker start"))
    out += await play_hand(core)
    text = public_text(out)
    assert f"{name(PLAYERS[seat])} wins" in text
    assert f"{name(PLAYERS[1 - seat])} wins" not in text


async def test_flushfour_off_four_of_a_kind_beats_a_flush(store):
    players = 9
    hands = acik_hands(acik_rules(), FLUSH_AGAINST_FOUR, players)
    seat = winner(hands, acik_rules(flush_beats_four=False))
    usual = winner(hands, acik_rules())
    assert seat != usual  # the seed still deals a flush against four of a kind
    core = core_on(store, FixedSeeds(FLUSH_AGAINST_FOUR))
    await open_table(core, "/poker open acik 10 flushfour=off", PLAYERS[:players])
    out = await core.handle(cmd("p0", "/poker start"))
    out += await play_hand(core)
    assert {evaluate(hands[s], acik_rules()).category for s in (seat, usual)} == {
        "flush",
        "four_of_a_kind",
    }
    text = public_text(out)
    assert f"{name(PLAYERS[seat])} wins" in text
    assert f"{name(PLAYERS[usual])} wins" not in text


def void_turn() -> tuple[bytes, int]:
    """A seed where, everyone checking, some player reaches a turn at which a bet is void
    (rule 8), and how many checks come before that turn."""
    for k in range(500):
        seed = candidate("void", k)
        hand = acik.new(["a", "b"], [200, 200], None, seed, first_dealer(seed, 2), ante=10)
        checks = 0
        while not hand.finished:
            index = hand.to_act()
            if "bet" not in {s.kind for s in hand.legal_actions(index)}:
                return seed, checks
            hand.apply(index, acik.Action("check"))
            checks += 1
    raise AssertionError("no void bet in 500 deals")


async def bet_at_void_turn(store, seed: bytes, checks: int, words: str) -> list:
    core = core_on(store, FixedSeeds(seed))
    await open_table(core, f"/poker open acik 10 {words}".strip(), PLAYERS[:2])
    await core.handle(cmd("p0", "/poker start"))
    for _ in range(checks):
        session = live_session(core)
        user = session.seat_of_engine(session.engine.to_act()).user_id
        assert not errors(await core.handle(cmd(user, "/poker check")))
    session = live_session(core)
    user = session.seat_of_engine(session.engine.to_act()).user_id
    return await core.handle(cmd(user, "/poker bet 10"))


async def test_void_off_accepts_a_bet_that_void_on_refuses(tmp_path):
    seed, checks = void_turn()
    refused_store = await Store.open(f"sqlite+aiosqlite:///{tmp_path}/on.db")
    accepted_store = await Store.open(f"sqlite+aiosqlite:///{tmp_path}/off.db")
    try:
        refused = await bet_at_void_turn(refused_store, seed, checks, "void=on")
        accepted = await bet_at_void_turn(accepted_store, seed, checks, "ölü=kapalı")
    finally:
        await refused_store.close()
        await accepted_store.close()
    assert len(errors(refused)) == 1 and "void (rule 8)" in errors(refused)[0]
    assert not errors(accepted)
    assert re.search(r"P\d bets 10\.", public_text(accepted))


async def test_peek_once_refuses_a_second_look(store, tmp_path):
    core = core_on(store, FixedSeeds(master="peek"))
    await open_table(core, "/poker open acik 10 peek=once", PLAYERS[:2])
    out = await core.handle(cmd("p0", "/poker start"))
    assert private_to(out, "p0")[0].count("Your down card") == 1  # the one look, at the deal
    again = await core.handle(cmd("p0", "/poker hand"))
    assert errors(again) == ["At this table you may look at your down card only once per hand."]
    await play_hand(core)
    # at a free table the same look is answered
    other = await Store.open(f"sqlite+aiosqlite:///{tmp_path}/free.db")
    try:
        free = core_on(other, FixedSeeds(master="peek"))
        await open_table(free, "/poker open acik 10", PLAYERS[:2])
        assert not errors(await free.handle(cmd("p0", "/poker start")))
        look = await free.handle(cmd("p0", "/poker hand"))
    finally:
        await other.close()
    assert not errors(look) and "Your down card:" in private_to(look, "p0")[0]
