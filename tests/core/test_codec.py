"""The one button encoding (`bot.core.codec.MoveCodec`) and the typed moves it carries: every
move a button carries comes back as itself, fits Telegram's 64 bytes and Discord's 100
characters (with the adapter's own prefix), and anything forged, cut, oversized or unknown is
refused without touching a table."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.codec import MAX_BUTTON_BYTES, ButtonMove, CodecError, codec
from bot.core.errors import Refusal
from bot.core.messages import Button
from bot.core.moves import (
    PLAN_KINDS,
    Ask,
    BadMove,
    ConfirmDiscard,
    Leave,
    PickMeld,
    Plan,
    Rematch,
    Sit,
    Start,
    move_json,
    move_of_json,
)
from games.base import Action

DISCORD_MAX = 100  # Discord's custom id limit
DISCORD_PREFIX = "t:"  # the turn button's own prefix (bot.adapters.discord.components)
DISCORD_SUFFIX = ":c99"  # and its longest input code
TABLE = "9" * 18  # the longest table id (a 64-bit row id) and a tournament's
NONCES = ("a1b2c3", "f" * 12)

CARDS = [r + s for r in "23456789TJQKA" for s in "cdhs"]
TILES = [f"{c}{n}" for c in "RYBK" for n in range(1, 14)] + ["F"]
card = st.sampled_from(CARDS)
tile = st.sampled_from(TILES)
meld = st.integers(0, 99)

# every move a button of the core carries (what the sessions draw), generated
button_moves = st.one_of(
    st.sampled_from([Action(k) for k in ("check", "call", "fold", "pass")]),
    st.sampled_from([Ask(k) for k in ("open", "bet", "raise", "draw")]),
    st.just(Action("draw")),
    st.builds(
        lambda k, n: Action(k, amount=n),
        st.sampled_from(("open", "bet", "raise", "call")),
        st.integers(0, 10**11),
    ),
    st.builds(lambda cs: Action("draw", cards=tuple(cs)), st.lists(card, min_size=1, max_size=5)),
    st.sampled_from([Action("take", source="stock"), Action("take", source="discard")]),
    st.just(Action("show_indicator")),
    st.builds(lambda k, t: Action(k, cards=(t,)), st.sampled_from(("discard", "finish")), tile),
    st.builds(
        lambda k, t, m: Action(k, cards=(t,), amount=m),
        st.sampled_from(("add", "swap")),
        tile,
        meld,
    ),
    st.builds(ConfirmDiscard, tile),
    st.builds(PickMeld, st.none() | tile),
    st.builds(Plan, st.sampled_from(PLAN_KINDS)),
    st.sampled_from([Sit(), Leave(), Start(), Rematch()]),
)


@given(button_moves, st.sampled_from(NONCES), st.sampled_from((TABLE, "t" + "9" * 18, "1")))
def test_every_button_move_round_trips_within_both_platforms_limits(move, nonce, table):
    raw = codec.encode(table, nonce, move)
    assert codec.decode(raw) == ButtonMove(table, nonce, move)
    assert len(raw.encode()) <= MAX_BUTTON_BYTES  # Telegram's callback data, as it is
    assert len(DISCORD_PREFIX + raw + DISCORD_SUFFIX) <= DISCORD_MAX


def test_the_codes_of_buttons_already_in_chats_still_read():
    """The on-the-wire codes did not change: old buttons keep working."""
    old = {
        "check": Action("check"),
        "raise": Ask("raise"),
        "draw": Ask("draw"),
        "pat": Action("draw"),
        "ts": Action("take", source="stock"),
        "td": Action("take", source="discard"),
        "show": Action("show_indicator"),
        "d.R5": Action("discard", cards=("R5",)),
        "f.K13": Action("finish", cards=("K13",)),
        "dd.F": ConfirmDiscard("F"),
        "a": PickMeld(),
        "a.R5": PickMeld("R5"),
        "a.R5.3": Action("add", cards=("R5",), amount=3),
        "s.Y1.0": Action("swap", cards=("Y1",), amount=0),
        "ob": Plan("open_best"),
        "op": Plan("open_pairs"),
        "tb": Plan("take_open_best"),
        "tp": Plan("take_open_pairs"),
        "tu": Plan("take_use"),
        "lb": Plan("lay_best"),
        "join": Sit(),
        "leave": Leave(),
        "start": Start(),
        "again": Rematch(),
    }
    for code, move in old.items():
        assert codec.decode(f"12:{code}:a1b2c3") == ButtonMove("12", "a1b2c3", move), code
        assert codec.code(move) == code
        assert Button("label", "12", code, "a1b2c3").move == move


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "12",
        "12:check",
        "12:check:",
        ":check:n1",
        "12:check:n1:extra",
        "12:frobnicate:n1",
        "12:d.:n1",
        "12:d.R5.R6:n1",
        "12:a.R5.x:n1",
        "12:a.R5.-1:n1",
        "12:raise.abc:n1",
        "12:raise." + "9" * 13 + ":n1",  # an amount no button shows
        "12:dd.R5!:n1",
        "12:draw.A♥:n1",
        "12:x.take:n1",
        "12:x.take.elsewhere.-:n1",
        "12:x.add.-.two.R5:n1",
        "1 2:check:n1",
        "12:check:n 1",
        "12:check:" + "n" * 41,
        "12:d." + "R" * 60 + ":n1",  # oversized
        "ü" * 30 + ":check:n1",
        "#" + "a" * 32,  # a Telegram digest token is the adapter's, never a move
    ],
)
def test_forged_oversized_or_unknown_ids_are_refused(raw):
    refused = codec.decode(raw)
    assert isinstance(refused, Refusal) and refused.key == "err.bad_button"


@given(st.text(max_size=120))
def test_any_text_decodes_to_a_move_or_a_refusal(raw):
    decoded = codec.decode(raw)
    if isinstance(decoded, Refusal):
        assert decoded.key == "err.bad_button"
    else:  # what reads as a move is written back the same way
        assert codec.encode(decoded.table_id, decoded.nonce, decoded.move) == raw
        assert len(raw.encode()) <= MAX_BUTTON_BYTES


def test_a_move_no_button_can_carry_is_not_encoded():
    opening = Action("open", cards=(*TILES[:20], "/", *TILES[20:22]))
    with pytest.raises(CodecError):
        codec.encode(TABLE, NONCES[1], opening)  # too long for 64 bytes: the web sends it as JSON
    with pytest.raises(CodecError):
        codec.encode("12:3", "n1", Action("check"))  # a table id that would change the parts
    short = Action("open", cards=("R1", "R2", "R3", "/", "K7", "B7", "Y7"))
    raw = codec.encode("12", "n1", short)
    assert codec.decode(raw) == ButtonMove("12", "n1", short)


@given(button_moves.filter(lambda m: not isinstance(m, Sit | Leave | Start | Ask)))
def test_a_move_as_json_round_trips(move):
    assert move_of_json(move_json(move)) == move


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "frobnicate"},
        {"kind": "raise", "amount": "40"},
        {"kind": "raise", "amount": True},
        {"kind": "discard", "cards": ["R5", "<b>"]},
        {"kind": "lay", "cards": ["R1"] * 41},
        {"kind": "take", "source": "elsewhere"},
        {"kind": "open_best", "cards": ["R1"]},
        {"kind": "check", "confirm": True},
        {"kind": "discard", "cards": ["R5"], "confirm": "yes"},
        {"kind": "cards", "cards": "R5"},
        {"kind": "rematch", "amount": 5},
        {"kind": "rematch", "cards": ["R1"]},
    ],
)
def test_bad_move_json_is_refused(data):
    with pytest.raises(BadMove):
        move_of_json(data)


def test_play_again_as_json():
    assert move_of_json({"kind": "rematch"}) == Rematch()
    assert move_json(Rematch()) == {"kind": "rematch"}


def test_a_confirmed_discard_reads_from_the_old_word_too():
    assert move_of_json({"kind": "discard!", "cards": ["R5"]}) == ConfirmDiscard("R5")
    assert move_of_json({"kind": "discard", "cards": ["R5"], "confirm": True}) == ConfirmDiscard(
        "R5"
    )
