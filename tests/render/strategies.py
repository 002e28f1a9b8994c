"""Hypothesis strategies for random valid scenes."""

from __future__ import annotations

from hypothesis import strategies as st

from bot.render.pictures import HandScene, OkeyRackScene, OkeyTableScene, PokerSeat, PokerTableScene
from bot.render.pictures.notation import RANKS, SUITS

CARDS = [r + s for r in RANKS for s in SUITS]
TILES = [f"{c}{n}" for c in "RYBK" for n in range(1, 14)] + ["F"]
NAMES = st.text(
    alphabet="abcçdefgğhıijklmnoöprsştuüvyzİĞÜŞÖÇ 0123456789-_ABCZ", min_size=1, max_size=40
)
LABELS = st.none() | st.text(alphabet="AaKkFfloşüğİ —:0123456789", min_size=1, max_size=60)


@st.composite
def hands(draw: st.DrawFn) -> HandScene:
    """1-10 cards, some of them hole cards, with or without a caption."""
    cards = tuple(draw(st.lists(st.sampled_from(CARDS), min_size=1, max_size=10)))
    return HandScene(cards, label=draw(LABELS), hole=draw(st.integers(0, len(cards))))


@st.composite
def poker_seats(draw: st.DrawFn) -> PokerSeat:
    """A seat with up to five cards, some face down."""
    up = tuple(draw(st.lists(st.sampled_from(CARDS), max_size=5)))
    return PokerSeat(
        name=draw(NAMES),
        stack=draw(st.integers(0, 10**9)),
        stake=draw(st.integers(0, 10**7)),
        cards_up=up,
        cards_down_count=draw(st.integers(0, 5 - len(up))),
        folded=draw(st.booleans()),
        all_in=draw(st.booleans()),
        winner=draw(st.booleans()),
        hand_label=draw(LABELS),
        odds=draw(st.none() | st.integers(0, 100)),
    )


@st.composite
def poker_tables(draw: st.DrawFn) -> PokerTableScene:
    """A table of 1-10 seats with a valid turn and button."""
    seats = tuple(draw(st.lists(poker_seats(), min_size=1, max_size=10)))
    seat = st.none() | st.integers(0, len(seats) - 1)
    return PokerTableScene(
        game=draw(st.sampled_from(["turkish", "acik"])),
        seats=seats,
        pot=draw(st.integers(0, 10**9)),
        to_act=draw(seat),
        dealer=draw(seat),
        showdown_label=draw(LABELS),
    )


@st.composite
def okey_racks(draw: st.DrawFn) -> OkeyRackScene:
    """Up to 15 tiles as melds of 2-13 tiles (pairs for seven pairs) followed by loose tiles."""
    tiles = draw(st.lists(st.sampled_from(TILES), max_size=15))
    melds = []
    rest = list(tiles)
    while len(rest) >= 2 and draw(st.booleans()):
        size = draw(st.integers(2, min(13, len(rest))))
        melds.append(tuple(rest[:size]))
        rest = rest[size:]
    return OkeyRackScene(
        melds=tuple(melds),
        loose=tuple(rest),
        indicator=draw(st.none() | st.sampled_from(TILES[:-1])),
        okey=draw(st.none() | st.sampled_from(TILES[:-1])),
    )


@st.composite
def okey_tables(draw: st.DrawFn) -> OkeyTableScene:
    """A table of 2-4 seats."""
    n = draw(st.integers(2, 4))
    per_seat = st.lists(st.integers(0, 999), min_size=n, max_size=n).map(tuple)
    return OkeyTableScene(
        names=tuple(draw(st.lists(NAMES, min_size=n, max_size=n))),
        discard_tops=tuple(
            draw(st.lists(st.none() | st.sampled_from(TILES), min_size=n, max_size=n))
        ),
        stock_count=draw(st.integers(0, 106)),
        indicator=draw(st.none() | st.sampled_from(TILES[:-1])),
        to_act=draw(st.none() | st.integers(0, n - 1)),
        penalties=draw(st.none() | per_seat),
        hand_counts=draw(st.none() | per_seat),
        okey=draw(st.none() | st.sampled_from(TILES[:-1])),
        winner=draw(st.none() | st.integers(0, n - 1)),
    )
