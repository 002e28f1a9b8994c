"""House rules at the table (issue 16): Okey's options, `rules` and `rules set`, refusals, the
header within the table message's limit, restarts, tables stored before the options existed,
`/verify` after a change, and the same words through the console."""

from __future__ import annotations

import io
import re

import pytest

from bot.adapters.console import run_console
from bot.core.messages import OutKind
from bot.core.table.deliver import MAX_TABLE_TEXT, table_text
from games.okey import auto_action
from storage import ActionEntry, Store
from testkit.drive import live_session
from testkit.helpers import START, cmd, errors, private_to, public_text
from testkit.house_play import FixedSeeds, core_on, open_table, play_hand
from testkit.sealing import close_and_reveal

PLAYERS = [f"p{i}" for i in range(10)]


def announced(out) -> str:
    return "\n".join(o.text for o in out if o.kind is OutKind.PUBLIC)


async def stored_options(store, core) -> dict:
    return (await store.get_table(live_session(core).table_id)).snapshot["options"]


# --- Okey ----------------------------------------------------------------------------------------


async def play_okey(core, rounds_wanted: int | None = None) -> list:
    """Play the running Okey match by commands (the engine's own choices) until it ends, or
    until `rounds_wanted` rounds have been dealt and the last of them is over."""
    out: list = []
    for _ in range(5000):
        session = live_session(core)
        if not session.running():
            return out
        if rounds_wanted is not None and session.hand_no > rounds_wanted:
            return out
        index = session.match.round.to_act()
        action = auto_action(session.match.round, index)
        if action.kind == "take":
            line = f"/okey take {action.source}"
        else:
            line = f"/okey {action.kind} {action.cards[0].lower()}"
        step = await core.handle(cmd(session.seat_of(index).user_id, line))
        assert not errors(step), errors(step)
        out += step
    raise AssertionError("the match did not end")


async def okey_table(core, line: str) -> list:
    out = await core.handle(cmd("ayse", line))
    out += await core.handle(cmd("mehmet", "/okey join"))
    out += await core.handle(cmd("ayse", "/okey addbot"))
    assert not errors(out), errors(out)
    return out


async def test_okey_rounds_by_name_plays_three_rounds(store):
    core = core_on(store, FixedSeeds(master="rounds"))
    await okey_table(core, "/okey start 1 10 rounds=3")  # the name=value word wins
    assert live_session(core).options["rounds"] == 3
    await core.handle(cmd("ayse", "/okey begin"))
    out = await play_okey(core)
    assert live_session(core).hand_no == 3
    assert "Round" in announced(out) and not live_session(core).running()


async def test_okey_preset_by_name_scores_classic(store):
    core = core_on(store, FixedSeeds(master="classic"))
    await okey_table(core, "/okey start puanlama=klasik")
    await core.handle(cmd("ayse", "/okey begin"))
    match = live_session(core).match
    assert match.options["preset"] == "classic"
    assert match.totals == [20, 20, 20]  # classic starts everyone at 20 (penalty points at 0)
    await play_okey(core, rounds_wanted=1)
    totals = live_session(core).match.totals
    assert live_session(core).hand_no == 2  # a classic match goes on after one round
    assert all(0 < total <= 30 for total in totals)  # a finish moves a few points, not 20


async def test_okey_takeback_is_stored_shown_listed_and_changed(store):
    core = core_on(store, FixedSeeds())
    out = await okey_table(core, "/okey start 3 20 takeback=on")
    session = live_session(core)
    assert session.options == {
        "rounds": 3,
        "stake": 20,
        "preset": "penalty",
        "takeback": "on",
        "speed": "normal",
        "away": 3,
    }
    assert (await stored_options(store, core))["takeback"] == "on"
    assert "House rules: takeback=on" in public_text(out)
    listed = await core.handle(cmd("mehmet", "/okey rules"))
    assert (
        "• takeback (geriat) = on: a tile taken from the discard pile may be"
        in (private_to(listed, "mehmet")[0])
    )
    changed = await core.handle(cmd("mod", "/okey kurallar ayarla geriat=hayır", mod=True))
    assert "Mod changed the house rules: takeback=off" in announced(changed)
    assert live_session(core).options["takeback"] == "off"
    assert "House rules:" not in public_text(changed)  # back to the defaults: no summary line
    begun = await core.handle(cmd("ayse", "/okey begin"))
    assert not errors(begun)
    mid = await core.handle(cmd("mod", "/okey rules set takeback=on", mod=True))
    assert announced(mid) == "Mod changed the house rules from the next match: takeback=on"
    session = live_session(core)
    assert session.options["takeback"] == "off" and session.match.options["takeback"] is False


async def test_new_okey_tables_store_takeback_off(store):
    core = core_on(store, FixedSeeds())
    await okey_table(core, "/okey start")
    assert live_session(core).options["takeback"] == "off"
    assert (await stored_options(store, core))["takeback"] == "off"


# --- rules and rules set -------------------------------------------------------------------------


async def test_rules_lists_every_option_in_the_askers_language(store):
    core = core_on(store, FixedSeeds())
    await open_table(core, "/poker open acik 10 deck=32 suits=shdc", PLAYERS[:2])
    [english] = private_to(await core.handle(cmd("p1", "/poker rules")), "p1")
    assert "up to 6 players" in english
    for line in (
        "• deck (deste) = 32: a 32-card deck (7 to ace), up to 6 players",
        "• suits (renk) = shdc: suits break ties in this order: ♠ > ♥ > ♦ > ♣",
        "• flushfour (floş) = on: a flush beats four of a kind",
        "• void (ölü) = on:",
        "• peek (bakış) = free:",
        "• odds (şans) = on: everyone sees each live player's chance of winning",
    ):
        assert line in english
    assert "twopair" not in english and "takeback" not in english
    out = await core.handle(cmd("p1", "/poker kurallar", locale="tr"))
    [turkish] = private_to(out, "p1")
    assert "• deste (deck) = 32: 32 kartlık deste (7'den asa), en çok 6 oyuncu" in turkish
    assert not [o for o in out if o.kind in (OutKind.PUBLIC, OutKind.EDIT_TABLE)]


async def test_a_moderator_changes_the_rules_between_hands(store):
    core = core_on(store, FixedSeeds(master="change"))
    await open_table(core, "/poker open acik 10", PLAYERS[:2])
    out = await core.handle(cmd("mod", "/poker rules set deck=32 bakış=tek", mod=True))
    assert not errors(out)
    assert announced(out) == "Mod changed the house rules: deck=32, peek=once"
    [table] = [o for o in out if o.kind is OutKind.EDIT_TABLE]
    assert "House rules: deck=32 · peek=once" in table.text
    stored = await stored_options(store, core)
    assert (stored["deck"], stored["peek"]) == ("32", "once")
    log = await store.actions(live_session(core).table_id)
    assert log[-1].action == {"kind": "rules", "set": {"deck": "32", "peek": "once"}}
    out = await core.handle(cmd("p0", "/poker start"))
    assert live_session(core).engine.rules.deck_size == 32
    mid = await core.handle(cmd("mod", "/poker rules set deck=52", mod=True))
    assert announced(mid) == "Mod changed the house rules from the next hand: deck=52"
    session = live_session(core)
    assert session.options["deck"] == "32" and session.engine.rules.deck_size == 32


async def test_only_moderators_change_the_rules(store):
    core = core_on(store, FixedSeeds())
    await open_table(core, "/poker open turkish 10", PLAYERS[:2])
    out = await core.handle(cmd("p0", "/poker rules set twopair=heart"))
    assert errors(out) == ["Only a moderator may do that."]
    assert "twopair" in live_session(core).options
    assert live_session(core).options["twopair"] == "kicker"


@pytest.mark.parametrize(
    ("line", "error"),
    [
        (
            "/poker rules set colour=red",
            "“colour” is not a house rule of Türk pokeri. House rules here: suits (renk), "
            "twopair (ikiçift), speed (hız), away (uzakta).",
        ),
        (
            "/poker rules set deck=32",
            "“deck” is not a house rule of Türk pokeri. House rules here: suits (renk), "
            "twopair (ikiçift), speed (hız), away (uzakta).",
        ),
        (
            "/poker rules set twopair=ace",
            "“ace” is not a value of twopair. Values: kicker (yankart), heart (kupa).",
        ),
        (
            "/poker rules set twopair",
            "Write a house rule as name=value, e.g. deck=32 (not “twopair”).",
        ),
        (
            "/poker rules set",
            "Usage: /poker rules (every rule, privately) or, for moderators, "
            "/poker rules set name=value …",
        ),
        (
            "/poker rules reset",
            "Usage: /poker rules (every rule, privately) or, for moderators, "
            "/poker rules set name=value …",
        ),
    ],
)
async def test_bad_rule_changes_are_refused_and_change_nothing(store, line, error):
    core = core_on(store, FixedSeeds())
    await open_table(core, "/poker open turkish 10", PLAYERS[:2])
    before = dict(live_session(core).options)
    out = await core.handle(cmd("mod", line, mod=True))
    assert errors(out) == [error]
    assert live_session(core).options == before == await stored_options(store, core)


async def test_open_refusals_name_the_valid_words(store):
    core = core_on(store, FixedSeeds())
    out = await core.handle(cmd("ayse", "/poker open acik 10 colour=red"))
    assert errors(out) == [
        "“colour” is not a house rule of Açık poker. House rules here: deck (deste), "
        "suits (renk), flushfour (floş), void (ölü), peek (bakış), odds (şans), speed (hız), "
        "away (uzakta)."
    ]
    out = await core.handle(cmd("ayse", "/poker open acik suits=hhsc", locale="tr"))
    assert errors(out) == [
        "«hhsc», suits için geçerli bir değer değil. Değerler: dört renk harfi h s d c, her "
        "biri bir kez, en yüksekten başlayarak (örn. hsdc ya da shdc; ♥♠♦♣ de olur)."
    ]
    out = await core.handle(cmd("ayse", "/okey start preset=fast"))
    assert errors(out) == [
        "“fast” is not a value of preset. Values: penalty (ceza), classic (klasik)."
    ]
    out = await core.handle(cmd("ayse", "/okey start deck=32"))
    here = (
        "House rules here: preset (puanlama), rounds (el), takeback (geriat), speed (hız), "
        "away (uzakta)."
    )
    assert here in errors(out)[0]
    assert live_session(core) is None


async def test_deck_32_needs_six_or_fewer_seated(store):
    core = core_on(store, FixedSeeds())
    await open_table(core, "/poker open acik 10", PLAYERS[:7])
    out = await core.handle(cmd("mod", "/poker rules set deck=32", mod=True))
    assert errors(out) == ["A 32-card deck deals to at most 6 players, and 7 are seated."]
    assert live_session(core).max_seats == 10
    await core.handle(cmd("p6", "/poker leave"))
    out = await core.handle(cmd("mod", "/poker rules set deck=32", mod=True))
    assert not errors(out) and live_session(core).max_seats == 6


# --- /verify, restarts and old tables -----------------------------------------------------------


async def test_verify_deals_with_the_rules_the_hand_used(store):
    core = core_on(store, FixedSeeds(master="verify"))
    await open_table(core, "/poker open acik 10 deck=32", PLAYERS[:2])
    await core.handle(cmd("p0", "/poker start"))
    table = live_session(core).table_id
    await core.handle(cmd("p1", "/poker leave"))  # the table stops after this hand
    await play_hand(core)
    assert not live_session(core).running()
    out = await core.handle(cmd("mod", "/poker rules set deck=52", mod=True))
    assert not errors(out)
    await close_and_reveal(core, table)  # the deal is shown only from then on
    [verify] = await core.handle(cmd("p0", f"/verify {table}-1"))
    deck = re.search(r"Deck order: (.*)", verify.text).group(1)
    assert len(deck.split()) == 32 and "2♥" not in deck.split()


async def test_options_survive_a_restart(store):
    clock_seeds = FixedSeeds(master="restart")
    core = core_on(store, clock_seeds)
    await open_table(core, "/poker open acik 10 deck=32 peek=once", PLAYERS[:2])
    again = core_on(store, FixedSeeds(master="restart"))
    out = await again.start()
    assert "House rules: deck=32 · peek=once" in public_text(out)
    session = live_session(again)
    assert session.max_seats == 6
    await again.handle(cmd("p0", "/poker start"))
    assert live_session(again).engine.rules.deck_size == 32
    look = await again.handle(cmd("p1", "/poker hand"))
    assert errors(look) == ["At this table you may look at your down card only once per hand."]


async def test_tables_stored_before_the_options_read_the_defaults(store):
    core = core_on(store, FixedSeeds(master="old"))
    await open_table(core, "/poker open acik 10", PLAYERS[:2])
    live = core.tables.in_channel("test", "c1")
    snapshot = live.session.to_dict()
    for name in ("deck", "suits", "flushfour", "void", "peek"):
        del snapshot["options"][name]
    entry = ActionEntry(seat=None, player_id=None, action={"kind": "update"}, at=START)
    await store.commit(live.id, live.version, snapshot, action=entry)
    again = core_on(store, FixedSeeds(master="old"))
    out = await again.start()
    assert "House rules" not in public_text(out)
    [listing] = private_to(await again.handle(cmd("p0", "/poker rules")), "p0")
    assert "• deck (deste) = 52:" in listing and "• void (ölü) = on:" in listing
    await again.handle(cmd("p0", "/poker start"))
    hand = live_session(again).engine
    assert hand.rules.deck_size == 52 and hand.options["void_bets"] is True


async def test_okey_tables_stored_before_takeback_read_off(store):
    core = core_on(store, FixedSeeds())
    await okey_table(core, "/okey start")
    live = core.tables.in_channel("test", "c1")
    snapshot = live.session.to_dict()
    del snapshot["options"]["takeback"]
    entry = ActionEntry(seat=None, player_id=None, action={"kind": "update"}, at=START)
    await store.commit(live.id, live.version, snapshot, action=entry)
    again = core_on(store, FixedSeeds())
    await again.start()
    [listing] = private_to(await again.handle(cmd("ayse", "/okey rules")), "ayse")
    assert "• takeback (geriat) = off:" in listing
    assert not errors(await again.handle(cmd("ayse", "/okey begin")))


# --- the header ---------------------------------------------------------------------------------

OFF_DEFAULT = {
    "acik": "suits=cdsh flushfour=off void=off peek=once",
    "turkish": "suits=cdsh twopair=heart",
}


@pytest.mark.parametrize(
    ("variant", "words", "players"),
    [
        ("acik", OFF_DEFAULT["acik"], 10),
        ("acik", "deck=32 " + OFF_DEFAULT["acik"], 6),
        ("turkish", OFF_DEFAULT["turkish"], 5),
    ],
)
async def test_the_header_fits_a_full_table_with_every_option_changed(
    store, variant, words, players
):
    core = core_on(store, FixedSeeds(master="header"))
    users = [f"player_with_a_long_name_{i}" for i in range(players)]
    await open_table(core, f"/poker open {variant} 50 nolimit {words}", users, buy_in=1000)
    await core.handle(cmd(users[0], "/poker start"))
    session = live_session(core)
    while variant == "acik" and session.engine.view(None)["street"] < 4:  # every up card out
        actor = session.seat_of_engine(session.engine.to_act()).user_id
        assert not errors(await core.handle(cmd(actor, "/poker check")))
        session = live_session(core)
    text = table_text(session)
    assert len(text) <= MAX_TABLE_TEXT and not text.endswith("…")
    summary = "House rules: " + " · ".join(words.split())
    assert summary in text
    assert all(user.capitalize() in text for user in users)
    assert "To act: " in text  # the whole state is there, the move log after it


# --- the console --------------------------------------------------------------------------------


async def test_house_rules_through_the_console(tmp_path):
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path}/bot.db")
    lines = [
        "ayse: /poker open acik 10 deste=32 bakış=tek",
        "ayse: /poker join 200",
        "mehmet: /poker join 200",
        "mehmet: /poker rules set void=off",
        "mod: /poker rules set void=off",
        "ayse: /poker rules",
    ]
    out = io.StringIO()
    try:
        core = core_on(store, FixedSeeds(master="console"))
        await run_console(core, lines, out, moderators=("mod",))
        session = core.tables.in_channel("console", "table").session
    finally:
        await store.close()
    text = out.getvalue()
    assert "House rules: deck=32 · peek=once" in text
    assert "Only a moderator may do that." in text
    assert "mod changed the house rules: void=off" in text
    assert "House rules: deck=32 · void=off · peek=once" in text
    assert "• void (ölü) = off:" in text
    assert session.options["void"] == "off" and session.max_seats == 6
