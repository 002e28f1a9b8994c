"""Reactions at the table (issue 37 item 3): the fixed set, who may send one, the budget, and
how a reaction is folded into the table message's last moves without a message of its own."""

from __future__ import annotations

import pytest

from bot.core.codec import codec
from bot.core.errors import Refusal
from bot.core.i18n import t
from bot.core.messages import OutKind, Press, Sender
from bot.core.moves import BadMove, React, move_json, move_of_json
from bot.core.reactions import REACTIONS, Reaction, reaction_of
from storage import Store
from testkit.helpers import Clock, cmd, errors, last_buttons, make_core, press

TABLE = [
    ("ayse", "/poker open turkish 10"),
    ("ayse", "/poker join 300"),
    ("mehmet", "/poker join 300"),
    ("can", "/poker join 300"),
]
WORDS = {
    "gg": ("İyi oyun", "Good game"),
    "nice": ("Güzel el", "Nice hand"),
    "hurry": ("Acele et", "Hurry up"),
    "wp": ("Tebrikler", "Well played"),
    "laugh": ("😂", "😂"),
    "clap": ("👏", "👏"),
    "wow": ("😮", "😮"),
    "fire": ("🔥", "🔥"),
}


@pytest.fixture
async def store(tmp_path):
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path}/bot.db")
    yield store
    await store.close()


async def started(core, lines=TABLE):
    """Open the table, start it; the start's answer."""
    for user, line in lines:
        await core.handle(cmd(user, line))
    return await core.handle(cmd("ayse", "/poker start"))


def sender(user: str, locale: str = "en") -> Sender:
    return Sender("test", "c1", user, user.capitalize(), locale)


def live_of(core):
    return core.tables.in_channel("test", "c1")


def test_the_set_is_fixed_and_every_reaction_has_words_in_both_languages():
    assert [r.value for r in REACTIONS] == list(WORDS)
    for value, (tr, en) in WORDS.items():
        assert t("tr", f"reaction.{value}") == tr and t("en", f"reaction.{value}") == en
    assert reaction_of("clap") is Reaction.CLAP
    for forged in ("Clap", "hello", "", " gg", "gg ", None, 3, ["gg"]):
        assert reaction_of(forged) is None


def test_buttons_and_frames_carry_only_the_set():
    for reaction in REACTIONS:
        code = codec.code(React(reaction))
        assert code == f"r.{reaction.value}"
        decoded = codec.decode(f"7:{code}:ab12cd")
        assert not isinstance(decoded, Refusal) and decoded.move == React(reaction)
        assert move_of_json(move_json(React(reaction))) == React(reaction)
    picker = codec.decode("7:r:ab12cd")
    assert not isinstance(picker, Refusal) and picker.move == React(None)
    for forged in ("r.hello", "r.gg.x", "r.", "r.GG", "r.güzel", "r.gg/x"):
        refused = codec.decode(f"7:{forged}:ab12cd")
        assert isinstance(refused, Refusal) and refused.key == "err.bad_button", forged
    for frame in (
        {"kind": "react"},
        {"kind": "react", "reaction": "Güzel el!"},
        {"kind": "react", "reaction": 1},
    ):
        with pytest.raises(BadMove):
            move_of_json(frame)


async def test_the_picker_opens_privately_for_a_seated_player_only(store):
    core = make_core(store)
    out = await started(core)
    smile = last_buttons(out)["r"]
    assert smile.label == "😀"
    picked = await core.press(press("mehmet", smile))
    assert [o.kind for o in picked] == [OutKind.PRIVATE] and picked[0].user_id == "mehmet"
    labels = [b.label for row in picked[0].buttons for b in row]
    assert labels == [en for _, en in WORDS.values()]
    assert [len(row) for row in picked[0].buttons] == [4, 4]
    refused = await core.press(press("zeynep", smile))
    assert [o.kind for o in refused] == [OutKind.ERROR] and refused[0].user_id == "zeynep"
    assert "Only the players sitting at this table" in refused[0].text


async def test_a_reaction_changes_nothing_stored_and_makes_no_channel_message(store):
    core = make_core(store)
    await started(core)
    live = live_of(core)
    version, nonce = live.version, live.session.nonce
    heard: list[tuple[str, int, str]] = []
    stop = core.watch_reactions(lambda *told: heard.append(told))
    out = await core.act(str(live.id), sender("mehmet"), "stale-or-any", React(Reaction.CLAP))
    assert out == []  # no channel message, no table edit: the page and the next edit show it
    assert (live.version, live.session.nonce) == (version, nonce)  # nobody's buttons go stale
    record = await store.get_table(live.id)
    assert record.version == version
    assert heard == [(str(live.id), live.session.find_name("Mehmet"), "clap")]
    stop()
    await core.act(str(live.id), sender("mehmet"), "x", React(Reaction.FIRE))
    assert len(heard) == 1


async def test_someone_not_at_the_table_is_refused_in_their_language_and_nothing_changes(store):
    core = make_core(store)
    await started(core)
    live = live_of(core)
    heard: list[object] = []
    core.watch_reactions(lambda *told: heard.append(told))
    out = await core.act(str(live.id), sender("zeynep", "tr"), "x", React(Reaction.GOOD_GAME))
    assert errors(out) == ["Tepkileri yalnızca bu masada oturan oyuncular gönderebilir."]
    assert out[0].user_id == "zeynep" and heard == [] and live.reactions == {}
    other = await core.act("999", sender("ayse"), "x", React(Reaction.GOOD_GAME))
    assert errors(other) == [t("en", "err.no_such_table")]
    forged = await core.press(
        Press("test", "c1", "ayse", "Ayse", str(live.id), "r.hello", live.session.nonce, (), "en")
    )
    assert errors(forged) == [t("en", "err.bad_button")] and live.reactions == {}


async def test_a_flood_is_refused_privately_by_the_budget_and_refills(store):
    clock = Clock()
    core = make_core(store, clock=clock)
    await started(core)
    table = str(live_of(core).id)
    heard: list[object] = []
    core.watch_reactions(lambda *told: heard.append(told))
    for _ in range(3):
        assert await core.act(table, sender("can"), "x", React(Reaction.LAUGH)) == []
    for _ in range(5):  # every press gets its answer: a refusal only Can sees
        out = await core.act(table, sender("can", "tr"), "x", React(Reaction.LAUGH))
        assert [o.kind for o in out] == [OutKind.ERROR] and out[0].user_id == "can"
        assert "çok fazla tepki" in out[0].text
    assert len(heard) == 3
    assert await core.act(table, sender("ayse"), "x", React(Reaction.LAUGH)) == []  # her own
    clock.advance(2.0)
    assert await core.act(table, sender("can"), "x", React(Reaction.WOW)) == []
    assert len(heard) == 5


async def test_reactions_are_folded_into_the_next_steps_last_moves(store):
    core = make_core(store)
    out = await started(core)
    live = live_of(core)
    table = str(live.id)
    await core.act(table, sender("mehmet"), "x", React(Reaction.LAUGH))
    await core.act(table, sender("ayse"), "x", React(Reaction.NICE_HAND))
    await core.act(table, sender("mehmet"), "x", React(Reaction.CLAP))  # his newest, and last
    actor = live.session.seats[live.session.actor()]
    moved = await core.press(press(actor.user_id, last_buttons(out)["pass"]))
    edit = [o for o in moved if o.kind is OutKind.EDIT_TABLE][-1]
    lines = edit.text.splitlines()
    folded = lines.index("Ayse: Nice hand · Mehmet: 👏")
    assert lines[folded + 1] == f"{actor.name} passes."
    assert "😂" not in edit.text and live.reactions == {}
    assert not [o for o in moved if o.kind is OutKind.PUBLIC]  # never a message of its own
    record = await store.get_table(live.id)  # kept in the snapshot's move log
    assert "reaction.by" in str(record.snapshot["moves"])
    # the next step does not fold them again
    again = last_buttons(moved)
    actor = live.session.seats[live.session.actor()]
    moved = await core.press(press(actor.user_id, again["pass"]))
    edit = [o for o in moved if o.kind is OutKind.EDIT_TABLE][-1]
    assert edit.text.count("Nice hand") == 1


async def test_a_turkish_table_folds_them_in_turkish(store):
    core = make_core(store)
    for user, line in TABLE:
        await core.handle(cmd(user, line, locale="tr"))
    out = await core.handle(cmd("ayse", "/poker start", locale="tr"))
    live = live_of(core)
    await core.act(str(live.id), sender("can"), "x", React(Reaction.GOOD_GAME))
    actor = live.session.seats[live.session.actor()]
    buttons = last_buttons(out)
    moved = await core.press(press(actor.user_id, buttons[next(a for a in buttons if a != "r")]))
    edit = [o for o in moved if o.kind is OutKind.EDIT_TABLE][-1]
    assert "Can: İyi oyun" in edit.text


async def test_a_closed_table_takes_none(store):
    core = make_core(store)
    await started(core)
    live = live_of(core)
    await core.handle(cmd("ayse", "/table reset done", mod=True))
    out = await core.act(str(live.id), sender("ayse"), "x", React(Reaction.GOOD_GAME))
    assert errors(out) == [t("en", "err.no_such_table")] and live.reactions == {}


async def test_no_reaction_button_without_turn_buttons(store):
    core = make_core(store)
    for user, line in TABLE:
        out = await core.handle(cmd(user, line))
    waiting = [o for o in out if o.kind is OutKind.EDIT_TABLE]
    assert waiting and all(not o.buttons for o in waiting)
