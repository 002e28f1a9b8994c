"""Okey's `takeback` rule through the core: with it off, a player who takes the previous discard
gets no button to throw that tile straight back, is told why (privately, in their language) when
they try by command, and the refusal changes nothing; the round plays to its end."""

from __future__ import annotations

from bot.core.i18n import t
from bot.core.messages import OutKind
from games.okey import auto_action
from storage import Store
from testkit.drive import live_session
from testkit.helpers import cmd, errors, make_core, press, private_to
from testkit.hidden import logged

LOCALES = {"ayse": "en", "mehmet": "tr"}


def buttons_for_user(out: list, user: str) -> dict:
    """The buttons of the newest private message to `user` that has any, by action."""
    for item in reversed(out):
        if item.kind is OutKind.PRIVATE and item.user_id == user and item.buttons:
            return {b.action: b for row in item.buttons for b in row}
    return {}


async def takeback_off(store: Store) -> None:
    """The fixture standing in for `/okey start takeback=off`: the open table's stored snapshot
    gets the option in the table's, the match's and the round's options (a core started after
    this loads it as after a restart)."""
    (record,) = await store.load_open_tables()
    snapshot = record.snapshot
    snapshot["options"]["takeback"] = False
    snapshot["match"]["options"]["takeback"] = False
    snapshot["match"]["round"]["options"]["takeback"] = False
    await store.commit(record.id, record.version, snapshot)


async def test_a_taken_discard_cannot_go_straight_back(store):
    first = make_core(store, seed="okey-takeback")
    await first.handle(cmd("ayse", "/okey start"))
    await first.handle(cmd("mehmet", "/okey join", locale="tr"))
    await first.handle(cmd("ayse", "/okey begin"))
    await takeback_off(store)
    core = make_core(store, seed="okey-takeback")
    await core.start()
    session = live_session(core)
    table = session.table_id
    assert session.match.round.options["takeback"] is False

    tried: dict[str, int] = {"ayse": 0, "mehmet": 0}
    takes = steps = 0
    out: list = []
    with logged("bot.core") as log_lines:
        while (session := live_session(core)) is not None and session.running():
            steps += 1
            assert steps < 400, "the round did not end"
            game = session.match.round
            index = game.to_act()
            user = session.seat_of(index).user_id
            locale = LOCALES[user]
            top = game.piles[game.previous(index)][-1:] if game.phase == "take" else []
            # a few times each, while the other copy is not in the rack; then the computer's
            # moves (always from the stock) so the round ends
            if top and top[0] not in game.racks[index] and tried[user] < 3:
                tile = top[0]
                out = await core.handle(cmd(user, "/okey take discard", locale=locale))
                assert not errors(out)
                takes += 1
                # the rack that comes with the take: no button throws the tile back, and a line
                # says why
                buttons = buttons_for_user(out, user)
                assert buttons and f"d.{tile}" not in buttons and f"f.{tile}" not in buttons
                assert any(
                    t(locale, "okey.no_takeback", tile=tile) in x for x in private_to(out, user)
                )
                # trying it by command: refused, privately, in the player's language
                version = (await store.get_table(table)).version
                before = live_session(core).to_dict()
                word = "discard" if tried[user] % 2 == 0 else "finish"
                refused = await core.handle(cmd(user, f"/okey {word} {tile}", locale=locale))
                assert [(o.kind, o.user_id) for o in refused] == [(OutKind.ERROR, user)]
                if word == "discard":
                    assert refused[0].text == t(locale, "illegal.takeback", tile=tile)
                assert (await store.get_table(table)).version == version
                assert live_session(core).to_dict() == before
                tried[user] += 1
                # then a discard the computer would make, by the rack's button
                action = auto_action(live_session(core).match.round, index)
                assert action.cards[0] != tile
                kind = "d" if action.kind == "discard" else "f"
                out = await core.press(press(user, buttons[f"{kind}.{action.cards[0]}"]))
                assert not errors(out), errors(out)
                continue
            action = auto_action(game, index)
            line = f"/okey {action.kind} " + (
                action.source if action.kind == "take" else action.cards[0]
            )
            out = await core.handle(cmd(user, line, locale=locale))
            assert not errors(out), (line, errors(out))
    assert tried["ayse"] and tried["mehmet"], tried
    assert takes == sum(tried.values())
    assert live_session(core).match is None  # the match was paid out
    assert await store.audit() == []
    # an INFO line says only `refused`: whether it was refused tells whether a copy is held
    assert not [x for x in log_lines if "takeback" in x]
    assert [x for x in log_lines if "outcome=refused" in x]
