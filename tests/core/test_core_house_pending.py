"""House rule changes asked while a hand or match runs (issue 16 follow-up): they wait for the
next hand (poker) or match (Okey), announced when asked and again in the next start's
announcement; the running hand keeps its rules. Whole hands are played through the core."""

from __future__ import annotations

from bot.core.messages import OutKind
from testkit.drive import live_session
from testkit.helpers import cmd, errors, private_to, public_text
from testkit.house_play import FixedSeeds, core_on, open_table
from tests.core.test_core_house_tables import okey_table, play_okey

PLAYERS = [f"p{i}" for i in range(10)]
PASSIVE = ("call", "check", "pass", "draw")
LOW_RANKS = set("23456")  # the ranks a 32-card deck leaves out


def announced(out) -> str:
    return "\n".join(o.text for o in out if o.kind is OutKind.PUBLIC)


def dealt(session) -> set[str]:
    """Every card dealt so far in the running Açık hand (down and up cards)."""
    engine = session.engine
    cards = {str(c) for c in engine.down if c is not None}
    return cards | {str(c) for up in engine.up for c in up}


async def play_acik_hand(core) -> tuple[list, set[str]]:
    """Play the running Açık hand passively to its end; the output and every card it dealt."""
    session = live_session(core)
    hand = session.hand_no
    out: list = []
    cards: set[str] = set()
    for _ in range(400):
        session = live_session(core)
        if session.hand_no != hand or not session.running():
            return out, cards
        cards |= dealt(session)
        index = session.engine.to_act()
        kinds = {s.kind for s in session.engine.legal_actions(index)}
        kind = next(k for k in PASSIVE if k in kinds)
        step = await core.handle(cmd(session.seat_of_engine(index).user_id, f"/poker {kind}"))
        assert not errors(step), errors(step)
        out += step
    raise AssertionError("the hand did not end")


async def rules_of(core, user: str, locale: str = "en") -> str:
    [listing] = private_to(await core.handle(cmd(user, "/poker rules", locale=locale)), user)
    return listing


async def test_a_change_during_a_hand_applies_from_the_next_hand(store):
    core = core_on(store, FixedSeeds(master="pending"))
    await open_table(core, "/poker open acik 10", PLAYERS[:4])
    await core.handle(cmd("p0", "/poker start"))
    asked = await core.handle(cmd("mod", "/poker rules set deste=32", mod=True))
    assert not errors(asked)
    assert announced(asked) == "Mod changed the house rules from the next hand: deck=32"
    [table] = [o for o in asked if o.kind is OutKind.EDIT_TABLE]
    assert "House rules" not in table.text  # the header shows the rules in force
    session = live_session(core)
    assert session.pending == {"deck": "32"} and session.options["deck"] == "52"
    snapshot = (await store.get_table(session.table_id)).snapshot
    assert snapshot["pending"] == {"deck": "32"} and snapshot["options"]["deck"] == "52"
    listing = await rules_of(core, "p1")
    assert "• deck (deste) = 52: the full 52-card deck, up to 10 players" in listing
    assert (
        "⤷ deck (deste): 52 → 32 from the next hand (a 32-card deck (7 to ace), up to 6 players)"
        in (listing)
    )
    turkish = await rules_of(core, "p1", locale="tr")
    assert "⤷ deste (deck): 52 → 32, bir sonraki elden itibaren" in turkish

    out, first = await play_acik_hand(core)
    assert {card[0] for card in first} & LOW_RANKS  # the running hand kept the 52-card deck
    assert "— Hand 1-2 — dealer: " in announced(out)
    assert "New house rules in force: deck=32" in announced(out)
    session = live_session(core)
    assert session.options["deck"] == "32" and session.pending == {}
    assert session.engine.rules.deck_size == 32 and session.max_seats == 6
    assert "House rules: deck=32" in public_text(out)
    _, second = await play_acik_hand(core)
    assert second and not {card[0] for card in second} & LOW_RANKS  # every card 7 or higher
    assert "⤷" not in await rules_of(core, "p1")


async def test_pending_changes_merge_and_setting_the_value_in_force_cancels(store):
    core = core_on(store, FixedSeeds(master="merge"))
    await open_table(core, "/poker open acik 10", PLAYERS[:2])
    await core.handle(cmd("p0", "/poker start"))
    for line in ("/poker rules set suits=shdc deck=32", "/poker rules set suits=cdsh peek=once"):
        assert not errors(await core.handle(cmd("mod", line, mod=True)))
    session = live_session(core)
    assert session.pending == {"deck": "32", "suits": "cdsh", "peek": "once"}  # the later wins
    out = await core.handle(cmd("mod", "/poker rules set deck=52 bakış=serbest", mod=True))
    assert announced(out) == (
        "Mod cancelled a pending house rule change; these stay as they are: deck=52, peek=free"
    )
    assert live_session(core).pending == {"suits": "cdsh"}
    listing = await rules_of(core, "p0")
    assert "⤷ suits (renk): hsdc → cdsh from the next hand" in listing and "⤷ deck" not in listing
    out = await core.handle(cmd("mod", "/poker rules set peek=free", mod=True))
    assert errors(out) == [
        "These house rules are already in force and no change of them is pending: peek=free."
    ]
    out = await core.handle(cmd("mod", "/poker rules set suits=hsdc void=off", mod=True))
    assert announced(out) == (
        "Mod changed the house rules from the next hand: void=off\n"
        "Mod cancelled a pending house rule change; these stay as they are: suits=hsdc"
    )
    assert live_session(core).pending == {"void": "off"}


async def test_refusals_during_a_hand_change_nothing(store):
    core = core_on(store, FixedSeeds(master="refuse"))
    await open_table(core, "/poker open turkish 10", PLAYERS[:2])
    await core.handle(cmd("p0", "/poker start"))
    for user, line, mod, error in (
        ("p0", "/poker rules set twopair=heart", False, "Only a moderator may do that."),
        (
            "mod",
            "/poker rules set deck=32",
            True,
            "“deck” is not a house rule of Türk pokeri. House rules here: suits (renk), "
            "twopair (ikiçift), speed (hız), away (uzakta).",
        ),
        (
            "mod",
            "/poker rules set twopair=ace",
            True,
            "“ace” is not a value of twopair. Values: kicker (yankart), heart (kupa).",
        ),
    ):
        out = await core.handle(cmd(user, line, mod=mod))
        assert errors(out) == [error]
    session = live_session(core)
    assert session.pending == {} and session.options["twopair"] == "kicker"
    assert (await store.get_table(session.table_id)).snapshot["pending"] == {}


async def test_a_pending_32_card_deck_that_cannot_apply_is_dropped_with_the_reason(store):
    core = core_on(store, FixedSeeds(master="drop"))
    await open_table(core, "/poker open acik 10", PLAYERS[:7])
    await core.handle(cmd("p0", "/poker start"))
    asked = await core.handle(cmd("mod", "/poker rules set deck=32", mod=True))
    assert announced(asked) == "Mod changed the house rules from the next hand: deck=32"
    late = await core.handle(cmd("p7", "/poker join 200"))
    assert errors(late) == ["The table is full: a 32-card deck deals to at most 6 players."]
    assert len(live_session(core).seats) == 7
    out, _ = await play_acik_hand(core)
    assert (
        "The pending house rules (deck=32) were not applied: A 32-card deck deals to at most 6 "
        "players, and 7 are seated." in announced(out)
    )
    session = live_session(core)
    assert session.running() and session.engine.rules.deck_size == 52
    assert session.pending == {} and session.options["deck"] == "52" and session.max_seats == 10
    assert not errors(await core.handle(cmd("p7", "/poker join 200")))  # seated for the next hand


async def test_a_pending_32_card_deck_applies_once_the_seventh_player_left(store):
    core = core_on(store, FixedSeeds(master="leave"))
    await open_table(core, "/poker open acik 10", PLAYERS[:7])
    await core.handle(cmd("p0", "/poker start"))
    await core.handle(cmd("mod", "/poker rules set deck=32", mod=True))
    assert not errors(await core.handle(cmd("p6", "/poker leave")))  # goes when the hand ends
    out, _ = await play_acik_hand(core)
    assert "New house rules in force: deck=32" in announced(out)
    session = live_session(core)
    assert len(session.seats) == 6 and session.engine.rules.deck_size == 32


async def test_the_start_announcement_is_in_the_tables_language(store):
    core = core_on(store, FixedSeeds(master="turkish"))
    await open_table(core, "/poker open acik 10", PLAYERS[:2])
    live_session(core).locale = "tr"
    await core.handle(cmd("p0", "/poker start"))
    asked = await core.handle(cmd("mod", "/poker rules set peek=once", mod=True))
    assert announced(asked) == "Mod ev kurallarını bir sonraki elden itibaren değiştirdi: peek=once"
    out, _ = await play_acik_hand(core)
    assert "Yeni ev kuralları geçerli: peek=once" in announced(out)


async def test_pending_changes_survive_a_restart(store):
    core = core_on(store, FixedSeeds(master="restart"))
    await open_table(core, "/poker open acik 10", PLAYERS[:2])
    await core.handle(cmd("p0", "/poker start"))
    await core.handle(cmd("mod", "/poker rules set deck=32 peek=once", mod=True))
    again = core_on(store, FixedSeeds(master="restart"))
    await again.start()
    session = live_session(again)
    assert session.pending == {"deck": "32", "peek": "once"} and session.max_seats == 6
    assert "⤷ peek (bakış): free → once from the next hand" in await rules_of(again, "p0")
    out, first = await play_acik_hand(again)
    assert {card[0] for card in first} & LOW_RANKS
    assert "New house rules in force: deck=32, peek=once" in announced(out)
    assert live_session(again).engine.rules.deck_size == 32


async def test_a_waiting_table_keeps_its_pending_change_until_a_change_in_force(store):
    core = core_on(store, FixedSeeds(master="waiting"))
    await open_table(core, "/poker open acik 10", PLAYERS[:2])
    await core.handle(cmd("p0", "/poker start"))
    await core.handle(cmd("mod", "/poker rules set deck=32 void=off", mod=True))
    await core.handle(cmd("p1", "/poker leave"))
    await play_acik_hand(core)
    session = live_session(core)
    assert not session.running() and session.pending == {"deck": "32", "void": "off"}
    out = await core.handle(cmd("mod", "/poker rules set deck=52", mod=True))
    assert announced(out) == "Mod changed the house rules: deck=52"  # no hand: at once
    assert live_session(core).pending == {"void": "off"}
    await core.handle(cmd("p1", "/poker join 200"))
    out = await core.handle(cmd("p0", "/poker start"))
    assert "New house rules in force: void=off" in announced(out)
    assert live_session(core).engine.options["void_bets"] is False


async def test_an_okey_change_waits_for_the_next_match(store):
    core = core_on(store, FixedSeeds(master="okey-pending"))
    await okey_table(core, "/okey start 1 10")
    await core.handle(cmd("ayse", "/okey begin"))
    asked = await core.handle(cmd("mod", "/okey kurallar ayarla geriat=evet el=3", mod=True))
    assert announced(asked) == (
        "Mod changed the house rules from the next match: takeback=on, rounds=3"
    )
    session = live_session(core)
    assert session.match.options["takeback"] is False and session.match.options["rounds"] == 1
    [listing] = private_to(await core.handle(cmd("mehmet", "/okey rules")), "mehmet")
    assert "⤷ rounds (el): 1 → 3 from the next match (a match is three rounds)" in listing
    await play_okey(core)
    session = live_session(core)
    assert not session.running() and session.hand_no == 1  # the running match kept one round
    assert session.pending == {"rounds": 3, "takeback": "on"}
    assert session.options["takeback"] == "off"
    begun = await core.handle(cmd("ayse", "/okey begin"))
    assert not errors(begun)
    text = announced(begun)
    assert "The match begins!" in text and "New house rules in force: rounds=3, takeback=on" in text
    session = live_session(core)
    assert session.match.options["takeback"] is True and session.match.options["rounds"] == 3
    assert session.options["rounds"] == 3 and session.pending == {}


async def test_an_acik_option_when_opening_turkish_shows_the_right_command(store):
    core = core_on(store, FixedSeeds())
    out = await core.handle(cmd("ayse", "/poker open deck=32"))
    assert errors(out) == [
        "“deck” is an Açık poker house rule: open an Açık poker table with /poker open acik deck=32"
    ]
    out = await core.handle(cmd("ayse", "/poker aç 20 deste=32", locale="tr"))
    assert errors(out) == [
        "«deste» bir Açık poker ev kuralı: Açık poker masası açmak için /poker aç açık deste=32"
    ]
    out = await core.handle(cmd("ayse", "/poker open acik ikiçift=kupa"))
    assert errors(out) == [
        "“ikiçift” is a Türk pokeri house rule: open a Türk pokeri table with "
        "/poker open turkish ikiçift=kupa"
    ]
    assert live_session(core) is None
