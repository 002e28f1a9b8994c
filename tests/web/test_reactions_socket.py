"""Reactions over the socket (issue 37): a seated player's `react` move reaches every page of
the table as a `reaction` frame that says the seat and the reaction and nothing else; a
spectator, a reaction outside the set, free text and a flood are refused to the sender alone,
in their language, and change nothing (no frame to the others, nothing said in the chat)."""

from __future__ import annotations

from bot.core.i18n import t
from testkit.helpers import make_core
from testkit.web import open_poker, receive, receive_until, serve_web


def react(ref: int, reaction: object) -> dict[str, object]:
    return {"type": "act", "ref": ref, "kind": "react", "reaction": reaction, "nonce": "-"}


async def test_a_reaction_frame_to_every_page_and_refusals_to_the_sender_alone(memory_store):
    core = make_core(memory_store)
    table = await open_poker(core)
    seat = core.tables.get(table).session.find_name("Ayse")
    async with serve_web(core) as web:
        ayse, _ = await web.viewer("ayse", table)
        mehmet, _ = await web.viewer("mehmet", table, locale="tr")
        zed, _ = await web.viewer("zed", table)  # a spectator

        await ayse.send_json(react(1, "clap"))
        frame = {"type": "reaction", "seat": seat, "reaction": "clap"}
        assert await receive_until(mehmet, "reaction") == frame
        assert await receive_until(zed, "reaction") == frame
        assert await receive_until(ayse, "ack") == {"type": "ack", "ref": 1}
        assert await receive_until(ayse, "reaction") == frame  # her own page shows it too
        assert web.delivered == []  # nothing for the chat until the next edit

        # refused to the sender alone, in their language
        await zed.send_json(react(2, "clap"))
        assert await receive_until(zed, "refused") == {
            "type": "refused",
            "ref": 2,
            "text": t("en", "err.react_not_seated"),
        }
        for ref, bad in enumerate(("hello", "Güzel el, aferin!", None, 7, ["gg"]), start=3):
            await mehmet.send_json(react(ref, bad))
            assert await receive(mehmet) == {
                "type": "refused",
                "ref": ref,
                "text": t("tr", "err.web_frame"),
            }
        # a flood: the budget's three, then a refusal
        for ref in range(20, 22):
            await mehmet.send_json(react(ref, "fire"))
            assert await receive_until(mehmet, "ack") == {"type": "ack", "ref": ref}
        await mehmet.send_json(react(22, "fire"))
        await mehmet.send_json(react(23, "fire"))
        assert await receive_until(mehmet, "refused") == {
            "type": "refused",
            "ref": 23,
            "text": t("tr", "err.react_slow_down"),
        }
        # the others heard the accepted ones only: Mehmet's three fires
        seen = [await receive_until(zed, "reaction") for _ in range(3)]
        assert [f["reaction"] for f in seen] == ["fire", "fire", "fire"]
        assert web.delivered == []
        assert core.tables.get(table).session.moves == []
