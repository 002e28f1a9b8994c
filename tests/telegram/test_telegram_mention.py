"""A relaxed table's call (issue 37) on Telegram: the core's PUBLIC item with a `Mention` is a
message of its own whose leading name links to the user (HTML, the rest escaped), so that they
are notified; other announcements stay plain text."""

from __future__ import annotations

from bot.adapters.telegram.delivery import mention_html
from bot.core.messages import Mention, Outgoing, OutKind
from testkit.fakes.telegram_harness import ScriptedCore, telegram_bot

GROUP = -100501
AYSE, MEHMET = 11, 22


def test_mention_html_links_the_name_and_escapes_the_rest():
    mention = Mention("22", "Me<h>met")
    html = mention_html("Me<h>met, your turn at table 3 (a & b).", mention)
    assert html == '<a href="tg://user?id=22">Me&lt;h&gt;met</a>, your turn at table 3 (a &amp; b).'
    assert mention_html("Your turn.", mention).endswith("</a> Your turn.")


async def test_a_call_is_its_own_message_mentioning_the_player():
    core = ScriptedCore()
    core.on_command["poker"] = lambda c: [
        Outgoing(OutKind.PUBLIC, "Hand 7 starts.", channel_id=c.channel_id, table_id="t1"),
        Outgoing(
            OutKind.PUBLIC,
            "Mehmet, your turn at table 1 (relaxed play: about 12 h to move).",
            channel_id=c.channel_id,
            table_id="t1",
            mention=Mention(str(MEHMET), "Mehmet"),
        ),
    ]
    async with telegram_bot(core) as (server, bot):
        ayse = server.user(AYSE, "Ayşe", "en")
        await bot.feed(server.message_update(server.group(GROUP), ayse, "/poker start"))
        sent = server.sent_to(GROUP)
        [call] = [s for s in sent if "tg://user?id=22" in s.params["text"]]
        assert call.params["parse_mode"] == "HTML"
        assert call.params["text"].startswith('<a href="tg://user?id=22">Mehmet</a>, your turn')
        [plain] = [s for s in sent if s is not call]
        assert plain.params["text"] == "Hand 7 starts." and "parse_mode" not in plain.params
