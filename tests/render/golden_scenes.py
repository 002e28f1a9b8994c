"""The fixed scenes behind the golden images (shared by test_golden.py and make_golden.py)."""

from __future__ import annotations

from collections.abc import Callable

from bot.render.pictures import (
    HandScene,
    OkeyRackScene,
    OkeyTableScene,
    PictureStyle,
    PokerSeat,
    PokerTableScene,
    render_hand,
    render_okey_rack,
    render_okey_table,
    render_poker_table,
)


def hand_tr() -> bytes:
    """A Türk pokeri hand with Turkish rank letters and a caption."""
    scene = HandScene(("Ah", "Ks", "Qd", "Jc", "Th"), label="Kent — As yüksek")
    return render_hand(scene, PictureStyle(ranks="tr", lang="tr"))


def acik_showdown() -> bytes:
    """An Açık poker showdown at five seats, four-colour deck: a winner, a loser, a folded seat."""
    seats = (
        PokerSeat(
            "Ayşe", 1450, cards_up=("Ah", "Ad", "Kc", "Ks", "9h"), winner=True, hand_label="Döper"
        ),
        PokerSeat(
            "Mehmet", 0, cards_up=("Qh", "Qs", "Jd", "7c", "2s"), all_in=True, hand_label="Per"
        ),
        PokerSeat("Gülşen Çağlayan-Öztürk", 820, folded=True),
        PokerSeat(
            "İsmail",
            300,
            stake=0,
            cards_up=("8h", "8c", "3d", "4s"),
            cards_down_count=1,
            folded=True,
        ),
        PokerSeat("Zeynep", 990),
    )
    scene = PokerTableScene(
        "acik", seats, 960, to_act=None, dealer=2, showdown_label="Ayşe kazandı: Döper"
    )
    return render_poker_table(scene, PictureStyle(four_colour=True, lang="tr"))


def acik_odds() -> bytes:
    """An Açık poker table on street three with live odds: a leader, a long name beside its
    figure, a dead hand at 0%, a folded seat without a figure, seat 0 to act."""
    seats = (
        PokerSeat("Ayşe", 940, stake=40, cards_up=("Ah", "Ad"), cards_down_count=1, odds=64),
        PokerSeat(
            "Gülşen Çağlayan-Öztürk", 700, cards_up=("Kc", "Qc"), cards_down_count=1, odds=36
        ),
        PokerSeat("Mehmet", 500, cards_up=("2c", "7d"), cards_down_count=1, odds=0),
        PokerSeat("İsmail", 820, folded=True),
    )
    scene = PokerTableScene("acik", seats, 180, to_act=1, dealer=3)
    return render_poker_table(scene, PictureStyle(lang="tr"))


def turkish_betting() -> bytes:
    """A Türk pokeri table mid-betting: stakes out, cards face down, seat 1 to act."""
    seats = (
        PokerSeat("ayse", 480, stake=20, cards_down_count=5),
        PokerSeat("mehmet", 500, cards_down_count=5),
        PokerSeat("gul", 440, stake=60, cards_down_count=5, all_in=False),
    )
    return render_poker_table(PokerTableScene("turkish", seats, 40, to_act=1, dealer=0))


def okey_rack() -> bytes:
    """A rack with a run, a set, a wrap-around run, loose tiles, a false joker and an okey."""
    scene = OkeyRackScene(
        melds=(("R3", "R4", "R5"), ("B7", "Y7", "K7", "R7"), ("K11", "K12", "K13", "K1")),
        loose=("F", "Y6", "B2", "R6"),
        indicator="R5",
        okey="R6",
    )
    return render_okey_rack(scene, PictureStyle(lang="tr"))


def okey_table() -> bytes:
    """A four-player Okey table mid-round."""
    scene = OkeyTableScene(
        names=("Ayşe", "Mehmet", "Gülşen", "İsmail"),
        discard_tops=("R6", "K3", None, "F"),
        stock_count=48,
        indicator="R5",
        to_act=1,
        penalties=(0, 20, 40, 10),
        hand_counts=(14, 14, 14, 14),
        okey="R6",
    )
    return render_okey_table(scene)


GOLDEN: dict[str, Callable[[], bytes]] = {
    "hand_tr": hand_tr,
    "acik_showdown": acik_showdown,
    "acik_odds": acik_odds,
    "turkish_betting": turkish_betting,
    "okey_rack": okey_rack,
    "okey_table": okey_table,
}
