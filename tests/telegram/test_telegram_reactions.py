"""Reactions through Telegram (issue 37): one `😀` button under the table message's turn
buttons opens the reactions in the presser's private chat; a reaction pressed there is answered
at once and makes no group call of its own, and the table message shows it on its next edit.
A forged reaction, or a press by someone not seated, is refused privately; nothing changes."""

from __future__ import annotations

from bot.core.reactions import REACTIONS
from storage import Store
from testkit.fakes.telegram_harness import telegram_bot
from testkit.telegram_play import AYSE, GROUP, MEHMET, ZEYNEP, Table, make_core, seat_and_start


def group_calls(server) -> int:
    return len([c for c in server.calls if c.chat_id == GROUP])


async def test_the_picker_in_the_private_chat_and_a_reaction_folded_into_the_next_edit(
    store: Store,
):
    core = make_core(store, "telegram-reactions")
    async with telegram_bot(core) as (server, bot):
        ayse, mehmet = server.user(AYSE, "Ayşe", "en"), server.user(MEHMET, "Mehmet", "en")
        zeynep = server.user(ZEYNEP, "Zeynep", "en")
        server.started_users |= {AYSE, MEHMET, ZEYNEP}
        table = Table(server, bot, core, {str(AYSE): ayse, str(MEHMET): mehmet})
        await seat_and_start(table, ayse, mehmet)
        buttons = table.buttons()
        smile = buttons["r"]
        assert smile["text"] == "😀"
        keyboard = server.last_keyboard(GROUP, table.message_id())
        assert keyboard[-1] == [smile]  # a row of its own, under the turn buttons
        version, before = table.live().version, group_calls(server)

        await table.press(ayse, GROUP, table.message_id(), smile["callback_data"])
        picker_id = server.messages_sent_ids(AYSE)[-1]
        rows = server.last_keyboard(AYSE, picker_id)
        assert [len(row) for row in rows] == [4, 4]
        codes = [b["callback_data"].split(":")[1] for row in rows for b in row]
        assert codes == [f"r.{r.value}" for r in REACTIONS]
        assert [b["text"] for b in rows[0]] == ["Good game", "Nice hand", "Hurry up", "Well played"]
        clap = next(b for row in rows for b in row if b["callback_data"].split(":")[1] == "r.clap")
        answered = len(server.answered_callbacks)
        await table.press(ayse, AYSE, picker_id, clap["callback_data"])
        answers = list(server.answered_callbacks.values())
        assert len(answers) == answered + 1 and not answers[-1].get("show_alert")
        assert not server.open_callbacks
        assert group_calls(server) == before  # no message, no edit: the next edit shows it
        assert table.live().version == version

        # refused privately: someone not seated, a forged reaction
        table_id, _, nonce = smile["callback_data"].split(":")
        await table.press(zeynep, GROUP, table.message_id(), smile["callback_data"])
        await table.press(zeynep, AYSE, picker_id, clap["callback_data"])
        await table.press(ayse, GROUP, table.message_id(), f"{table_id}:r.hello:{nonce}")
        refusals = list(server.answered_callbacks.values())[-3:]
        assert all(a["show_alert"] and a["text"] for a in refusals)
        assert "Only the players sitting at this table" in refusals[0]["text"]
        assert group_calls(server) == before and table.live().version == version

        # the next move's edit carries it, in the table message's last moves
        session = table.live().session
        actor = ayse if session.seats[session.actor()].user_id == str(AYSE) else mehmet
        move = next(a for a in ("pass", "check", "call", "open") if a in buttons)
        await table.press(actor, GROUP, table.message_id(), buttons[move]["callback_data"])
        texts = [c.visible_text() for c in server.calls if c.chat_id == GROUP][before:]
        assert any("Ayşe: 👏" in text for text in texts)
