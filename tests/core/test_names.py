"""Display names (issue 25): control, bidi and zero-width characters are stripped where names
enter the core (one function for every adapter), Discord shows markdown in names literally, and
`/table kick <name>` and `/stats <name>` refuse a name several players answer to, listing them."""

from __future__ import annotations

import re

from bot.core.messages import Command, OutKind
from bot.core.names import clean_name
from testkit.fakes.telegram_harness import telegram_bot
from testkit.helpers import errors, make_core, public_text
from tests.discord.test_discord_play import CHANNEL, build


def cmd(user: str, line: str, name: str, locale: str = "en", moderator: bool = False) -> Command:
    """A command typed by `user` called `name` at table channel c1."""
    words = line.split()
    return Command("test", "c1", user, name, words[0], tuple(words[1:]), locale, moderator)


RLO, ZWSP, ZWJ, LRI, PDI, FILLER = "\u202e", "\u200b", "\u200d", "\u2066", "\u2069", "\u3164"


def test_clean_name_strips_control_bidi_and_zero_width_characters():
    assert clean_name(f"Ali{RLO}kcip") == "Alikcip"
    assert clean_name(f"Ay{ZWSP}şe{ZWJ}") == "Ayşe"
    assert clean_name(f"{LRI}Mehmet{PDI}") == "Mehmet"
    assert clean_name("Zey\nnep\t \x00 K.") == "Zey nep K."
    assert clean_name(f"{FILLER}{ZWSP} ", "12345") == "12345"  # nothing visible: the fallback
    assert clean_name("Ayşe 🎲 Öztürk") == "Ayşe 🎲 Öztürk"  # letters and symbols stay
    assert len(clean_name("x" * 500)) == 64


async def test_telegram_names_reach_the_table_clean(memory_store):
    core = make_core(memory_store, seed="names")
    async with telegram_bot(core) as (server, bot):
        group = server.group(-100777)
        sly = server.user(11, f"Ali{RLO}{ZWSP}", "en")
        server.started_users.add(11)
        await bot.feed(server.message_update(group, sly, "/poker open"))
        await bot.feed(server.message_update(group, sly, "/poker join"))
        texts = "\n".join(c.visible_text() for c in server.sent_to(-100777))
    assert "Ali" in texts and RLO not in texts and ZWSP not in texts
    player = await memory_store.find_player("telegram", "11")
    assert player is not None and player.name == "Ali"


async def test_discord_shows_markdown_in_names_literally(memory_store):
    core = make_core(memory_store, seed="markdown")
    harness, _spy = build(core)
    linker = harness.user(201, "[free chips](https://evil.example)")
    shouter = harness.user(202, "# WINNER")
    fencer = harness.user(203, "```x")
    for user in (linker, shouter, fencer):
        verb = "poker open" if user is linker else "poker join"
        await harness.slash(user, verb, CHANNEL)
        if user is linker:
            await harness.slash(user, "poker join", CHANNEL)
    await harness.settle()
    shown = "\n".join(harness.log.channel_texts(CHANNEL))
    table = harness.channel(CHANNEL).table_message()
    if table is not None:
        shown += "\n" + str(table.content)
    assert re.search(r"(?<!\\)\[free chips\]\(", shown) is None  # no masked link
    assert "\\[free chips](https://evil.example)" in shown
    assert not any(line.startswith("# WINNER") for line in shown.splitlines())
    assert "\\# WINNER" in shown
    assert re.search(r"(?<!\\)`", shown) is None  # no code span or fence


async def seated(memory_store, names: dict[str, str]):
    core = make_core(memory_store, seed="kick")
    first = next(iter(names))
    await core.handle(cmd(first, "poker open", names[first]))
    for user, name in names.items():
        assert not errors(await core.handle(cmd(user, "poker join", name)))
    return core


async def test_kick_refuses_a_name_two_seats_answer_to(memory_store):
    core = await seated(memory_store, {"1": "Ali", "2": f"AL{ZWSP}I", "3": "Zeynep"})
    refused = await core.handle(cmd("3", "table kick ali", "Zeynep", moderator=True))
    [why] = errors(refused)
    assert "Ali (1)" in why and f"AL{ZWSP}I (2)" in why  # each with the id that tells them apart
    kicked = await core.handle(cmd("3", "table kick 2", "Zeynep", moderator=True))
    assert not errors(kicked) and "leaves" in public_text(kicked).lower()


async def test_kick_by_a_unique_name_still_works(memory_store):
    core = await seated(memory_store, {"1": "Ali", "2": "Mehmet"})
    out = await core.handle(cmd("1", "table kick @mehmet", "Ali", moderator=True))
    assert not errors(out)


async def test_stats_refuses_an_ambiguous_name_listing_the_players(memory_store):
    core = make_core(memory_store, seed="stats")
    for user in ("7", "8"):
        await core.handle(cmd(user, "balance", "Deniz"))
    out = await core.handle(cmd("9", "stats deniz", "Ece", locale="tr"))
    [why] = errors(out)
    assert "Deniz (7)" in why and "Deniz (8)" in why and "birden çok" in why
    out = await core.handle(cmd("9", "stats 8", "Ece"))
    assert not errors(out) and any(o.kind is OutKind.PRIVATE for o in out)
