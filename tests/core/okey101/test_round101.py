"""A whole 101 round through the core, by presses and typed commands: opening with the best melds,
take-and-open with the previous discard, adding a tile to another player's meld with the picker,
the +101 discard warning and its confirm, finishing, the scores and the payout through the ledger,
then the history and the stats."""

from __future__ import annotations

from dataclasses import replace

from bot.core.messages import MELDS, TILES
from storage import escrow, wallet
from testkit.helpers import buttons_for, cmd, errors, make_core, press, public_text
from tests.core.okey101.rig import OPENING_RACK, live, private, rig

P1 = [
    "K6",
    "K7",
    "R13",
    "Y13",
    "B13",
    "K13",
    "R12",
    "Y12",
    "B12",
    "R2",
    "R3",
    "R4",
    "Y5",
    "Y6",
    "Y7",
    "B5",
    "B6",
    "B7",
    "Y1",
    "K10",
    "B1",
]


async def start_two(core, rounds: int = 1) -> None:
    """Ayse opens a 101 table (Turkish words), Mehmet joins, the match begins."""
    out = await core.handle(cmd("ayse", f"/okey başlat 101 {rounds} 10"))
    assert "101 Okey" in public_text(out), errors(out)
    await core.handle(cmd("mehmet", "/okey katıl"))
    out = await core.handle(cmd("mehmet", "/okey begin"))
    assert not errors(out)


async def test_a_scripted_round_by_presses_and_commands(store):
    core = make_core(store, seed="r101")
    await start_two(core)
    ayse = await store.player("test", "ayse", "Ayse")
    mehmet = await store.player("test", "mehmet", "Mehmet")
    table = live(core).id
    assert await store.balance(escrow(table)) == 20
    rig(core, [list(OPENING_RACK), P1], "K1", ["K9", "K11"])  # the okey is K2: nobody holds a wild
    out = await core.handle(cmd("ayse", "/okey rack"))
    mine = buttons_for(out, "ayse")
    assert "ob" in mine and "op" not in mine  # 134 by series, no five pairs
    assert mine["ob"].label == "Open with the best melds (134)"

    # 1. Ayse opens with one press, then discards K8
    out = await core.press(press("ayse", mine["ob"]))
    assert not errors(out), errors(out)
    assert "Ayse opens with melds worth 134" in public_text(out)
    assert "opened with melds (134)" in public_text(out)
    mine = buttons_for(out, "ayse")
    out = await core.press(press("ayse", mine["d.K8"]))
    assert not errors(out), errors(out)

    # 2. Mehmet takes K8 and opens with it in one move, then discards Y1
    his = buttons_for(out, "mehmet")
    assert his["tb"].label.startswith("Take K8 and open")
    assert "ts" in buttons_for(out, None)  # the table's only public button draws
    out = await core.press(press("mehmet", his["tb"]))
    assert not errors(out), errors(out)
    text = public_text(out)
    assert "Mehmet takes K8 from the discards." in text
    assert "Mehmet opens with melds worth 154" in text
    out = await core.press(press("mehmet", buttons_for(out, "mehmet")["d.Y1"]))
    assert not errors(out), errors(out)

    # 3. Ayse draws K9 and adds it to Mehmet's run with the picker (tile, then meld)
    out = await core.press(press("ayse", buttons_for(out, None)["ts"]))
    assert "You drew K9." in private(out, "ayse")[-1].text
    out = await core.press(press("ayse", buttons_for(out, "ayse")["a"]))
    [picked] = [o for o in private(out, "ayse") if o.picker is not None]
    assert picked.picker.kind == TILES and "K9" in picked.picker.codes
    out = await core.press(press("ayse", buttons_for(out, "ayse")["a.K9"]))
    [picked] = [o for o in private(out, "ayse") if o.picker is not None]
    assert picked.picker.kind == MELDS and picked.picker.codes == ("6",)
    out = await core.press(press("ayse", buttons_for(out, "ayse")["a.K9.6"]))
    assert not errors(out), errors(out)
    assert "Ayse adds K9 to meld 7: K6 K7 K8 K9" in public_text(out)

    # the +101 warning: R1 fits Mehmet's R2 R3 R4; nothing is played until confirmed
    mine = buttons_for(out, "ayse")
    assert mine["d.R1"].label == "R1 ⚠"
    out = await core.press(press("ayse", mine["d.R1"]))
    assert not errors(out)
    warning = private(out, "ayse")[-1]
    assert "discarding R1 costs +101" in warning.text
    assert live(core).session.match.round.to_act() == 0  # still Ayse's turn
    out = await core.press(press("ayse", buttons_for(out, "ayse")["dd.R1"]))
    assert not errors(out), errors(out)
    assert "Ayse is charged +101 for discarding R1" in public_text(out)
    assert "Penalties this round: Ayse +101" in public_text(out)

    # 4. Mehmet draws K11 (a front end's own move: `x`), adds K10 and K11 by typed commands,
    # finishes with B1
    view = await core.table_view(str(table), "test", "mehmet")
    # the discard R1 fits R2 R3 R4: the laying kinds (made with source="discard") are offered
    # the engine's moves, then the chat's one-press ones (the web page's buttons)
    assert [a.kind for a in view.actions] == ["take", "lay", "add", "swap", "take_use"]
    assert view.actions[0].sources == ("stock",)
    draw = buttons_for(out, None)["ts"]
    out = await core.press(press("mehmet", draw, "stock"))
    assert "takes no" in errors(out)[0] or errors(out)  # `ts` takes no words
    x = replace(draw, action="x")
    out = await core.press(press("mehmet", x, "take", "stock", "-"))
    assert not errors(out), errors(out)
    assert "You drew K11." in private(out, "mehmet")[-1].text
    out = await core.handle(cmd("mehmet", "/okey işle k10 7"))
    assert not errors(out), errors(out)
    out = await core.handle(cmd("mehmet", "/okey add K11 7"))
    assert not errors(out), errors(out)
    out = await core.press(press("mehmet", buttons_for(out, "mehmet")["f.B1"]))
    assert not errors(out), errors(out)
    text = public_text(out)
    assert "Mehmet finishes with B1!" in text
    assert "Round scores: Ayse +136, Mehmet -101" in text  # 35 on the rack + 101
    assert "The match is over. Winner: Mehmet." in text
    assert await store.balance(escrow(table)) == 0
    assert await store.balance(wallet(mehmet.id)) - await store.balance(wallet(ayse.id)) == 20
    assert await store.audit() == []

    # history and stats
    out = await core.handle(cmd("mehmet", "/history 101"))
    assert "101 round · you finished (-101 points)" in out[0].text
    assert "101 match · +10 chips · -101 points" in out[0].text
    out = await core.handle(cmd("mehmet", "/stats 101"))
    assert "opened with melds 1 times, with pairs 0 times" in out[0].text
    assert "finished 1 rounds (100%)" in out[0].text
    out = await core.handle(cmd("ayse", "/stats yüzbir"))
    assert "+101 discards 1" in out[0].text


async def test_open_with_pairs_and_refusals_say_why(store):
    core = make_core(store, seed="p101")
    await start_two(core)
    pairs = [
        "R3",
        "R3",
        "Y5",
        "Y5",
        "B7",
        "B7",
        "K9",
        "K9",
        "R11",
        "R11",
        "Y2",
        "B4",
        "K6",
        "R8",
        "Y10",
        "B12",
        "K1",
        "R13",
        "Y7",
        "B9",
        "K11",
        "R5",
    ]
    other = [
        "R1",
        "R2",
        "R4",
        "R6",
        "R7",
        "R9",
        "R10",
        "R12",
        "Y1",
        "Y3",
        "Y4",
        "Y6",
        "Y8",
        "Y9",
        "Y11",
        "Y12",
        "Y13",
        "B1",
        "B2",
        "B3",
        "B5",
    ]
    rig(core, [pairs, other], "K12", [])  # the okey is K13
    # out of turn, and moves before opening, each refused with the reason
    out = await core.handle(cmd("mehmet", "/okey lay"))
    assert (
        errors(out) == ["It is not your turn (Ayse is to act)."]
        or "not your turn" in errors(out)[0]
    )
    out = await core.handle(cmd("ayse", "/okey add R3 1"))
    assert "Open first" in errors(out)[0]
    out = await core.handle(cmd("ayse", "/okey lay"))
    assert "opening needs 101" in errors(out)[0]
    out = await core.handle(cmd("ayse", "/okey aç"))  # `open` is the move here, not a new table
    assert "opening needs 101" in errors(out)[0]
    out = await core.handle(cmd("ayse", "/okey add R3 x"))
    assert "not a meld number" in errors(out)[0]
    out = await core.handle(
        cmd("ayse", "/okey show"),
    )
    assert "no indicator" in errors(out)[0]
    out = await core.handle(cmd("ayse", "/okey rack", locale="tr"))
    mine = buttons_for(out, "ayse")
    assert mine["op"].label == "Çiftten aç (5)" and "ob" not in mine
    out = await core.press(press("ayse", mine["op"]))
    assert not errors(out), errors(out)
    assert "Ayse opens with 5 pairs" in public_text(out)
    assert "opened with pairs (5)" in public_text(out)
    # a pairs opener lays pairs, never melds
    out = await core.handle(cmd("ayse", "/okey lay Y2 Y3 Y4"))
    assert errors(out)
    view = await core.table_view(str(live(core).id), "test", "zed")
    assert view is not None and view.seats[0].opened == "pairs" and view.seats[0].opening == 5
    assert len(view.melds) == 5 and view.melds[0].kind == "pair" and view.mine == ()


async def test_refusals_in_turkish(store):
    core = make_core(store, seed="tr101")
    await core.handle(cmd("ayse", "/okey başlat 101 4", locale="tr"))
    out = await core.handle(cmd("ayse", "/okey başlat 101 4", locale="tr"))
    assert errors(out)
    out = await core.handle(cmd("can", "/okey başlat yüzbir 4", channel="c2", locale="tr"))
    assert "101 maçı 1, 3, 5, 7, 9 ya da 11 el sürer." in errors(out)
    out = await core.handle(cmd("can", "/okey başlat 101 açış=90", channel="c2", locale="tr"))
    assert "101 ile 999" in errors(out)[0]
    out = await core.handle(cmd("can", "/okey başlat 101 eşli=açık", channel="c2", locale="tr"))
    assert not errors(out)
    await core.handle(cmd("deniz", "/okey katıl", channel="c2", locale="tr"))
    out = await core.handle(cmd("deniz", "/okey başla", channel="c2", locale="tr"))
    assert "Eşli oyun tam dört oyuncu ister." in errors(out)
