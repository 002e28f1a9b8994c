"""House rule options on Discord (issue 16): the slash options of `/poker open`, `/okey start` and
`/poker|okey rules`, localized and within Discord's limits, and the `name=value` words they hand
the core, checked at the seam (the `Command` the adapter passes to `core.handle`) through the real
command tree."""

from __future__ import annotations

from itertools import permutations

import discord
import pytest
from discord import app_commands

from bot.adapters.discord import DiscordAdapter
from bot.adapters.discord.commands import Translator, install_commands
from bot.adapters.discord.texts import TEXTS
from bot.core.messages import Outgoing, OutKind
from bot.core.table import house
from testkit.fakes.core import NarrowCore
from testkit.fakes.discord_fakes import DiscordHarness, quick_boards

# 101's own options: those both Okeys have (`speed`) come with classic Okey's
OKEY101_OWN = [o for o in house.options_for("okey101") if o not in house.options_for("okey")]
CHANNEL = 500_000_000_000_000_016
AYSE = 401
MAX_COMMAND_CHARS = 4000  # Discord: names, descriptions, choices of one command, longest locale


class RecordingCore(NarrowCore):
    """Answers every command with one private line and records the command."""

    def __init__(self) -> None:
        self.commands: list = []

    async def handle(self, command):
        self.commands.append(command)
        return [Outgoing(OutKind.PRIVATE, "ok", user_id=command.user_id)]

    async def press(self, press):
        return []

    async def locale_of(self, platform, user_id):
        return None


class NoRunner:
    """The tree needs a runner; the payload tests only read the tree."""

    async def run_command(self, interaction, name, args):
        raise AssertionError("not called")

    async def command_failed(self, interaction, error):
        raise AssertionError("not called")


@pytest.fixture
def harness() -> DiscordHarness:
    core = RecordingCore()
    adapter = DiscordAdapter(core, default_locale="en", boards=quick_boards(), retry_pause=0)
    return DiscordHarness(adapter)


async def payloads() -> dict[str, dict]:
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    install_commands(tree, NoRunner())
    translator = Translator()
    return {c.name: await c.get_translated_payload(tree, translator) for c in tree.get_commands()}


def sub(payload: dict, name: str) -> dict:
    return next(o for o in payload["options"] if o["name"] == name)


def options_of(command: dict) -> dict[str, dict]:
    return {o["name"]: o for o in command.get("options", [])}


def longest(item: dict, key: str) -> int:
    texts = [str(item.get(key, "")), *(item.get(f"{key}_localizations") or {}).values()]
    return max(len(t) for t in texts)


def size(item: dict) -> int:
    """Characters Discord counts against a command: every name, description and choice (name
    and value), the longest of each field's localizations."""
    total = longest(item, "name") + longest(item, "description")
    total += sum(longest(c, "name") + len(str(c["value"])) for c in item.get("choices", []))
    return total + sum(size(o) for o in item.get("options", []))


async def test_poker_open_offers_every_house_rule_after_the_old_options():
    poker = (await payloads())["poker"]
    opened = options_of(sub(poker, "open"))
    assert list(opened) == [
        "game",
        "ante",
        "limit",
        "deck",
        "suits",
        "twopair",
        "flushfour",
        "void",
        "peek",
        "odds",
        "speed",
        "away",
        "private",  # a private table (not a house rule: `bot.core.table.private`)
    ]
    turkish = {name: o["name_localizations"]["tr"] for name, o in opened.items()}
    assert turkish["deck"] == "deste" and turkish["twopair"] == "ikiçift"
    assert turkish["flushfour"] == "floş" and turkish["peek"] == "bakış"
    assert turkish["suits"] == "renk" and turkish["void"] == "ölübahis"
    values = {name: [c["value"] for c in o.get("choices", [])] for name, o in opened.items()}
    assert values["deck"] == ["52", "32"]
    assert values["twopair"] == ["kicker", "heart"]
    assert values["flushfour"] == values["void"] == values["odds"] == ["on", "off"]
    assert turkish["odds"] == "şans"
    assert values["peek"] == ["once", "free"]
    assert values["suits"] == ["".join(p) for p in permutations("hsdc")]
    assert values["suits"][0] == "hsdc"  # the default first
    shown = {c["value"]: c["name"] for c in opened["suits"]["choices"]}
    assert shown["hsdc"] == "♥♠♦♣ (hsdc)" and shown["cdsh"] == "♣♦♠♥ (cdsh)"
    assert all(not o["required"] for o in opened.values())


async def test_okey_start_offers_takeback_after_the_old_options():
    okey = (await payloads())["okey"]
    started = options_of(sub(okey, "start"))
    assert list(started)[:6] == ["rounds", "stake", "scoring", "takeback", "speed", "away"]
    assert list(started)[6:] == ["game", *(o.name for o in OKEY101_OWN), "private"]
    takeback = started["takeback"]
    assert takeback["name_localizations"]["tr"] == "geriat"
    assert [c["value"] for c in takeback["choices"]] == ["on", "off"]


@pytest.mark.parametrize(
    ("group", "names"),
    [
        (
            "poker",
            ["deck", "suits", "twopair", "flushfour", "void", "peek", "odds", "speed", "away"],
        ),
        ("okey", ["preset", "rounds", "takeback", "speed", "away", *(o.name for o in OKEY101_OWN)]),
    ],
)
async def test_rules_take_an_option_of_the_game_and_an_autocompleted_value(group, names):
    rules = options_of(sub((await payloads())[group], "rules"))
    assert list(rules) == ["option", "value"]
    assert [c["value"] for c in rules["option"]["choices"]] == names
    assert all("tr" in c["name_localizations"] for c in rules["option"]["choices"])
    assert rules["option"]["name_localizations"]["tr"] == "seçenek"
    assert rules["value"]["name_localizations"]["tr"] == "değer"
    assert rules["value"]["autocomplete"] is True
    assert not rules["option"]["required"] and not rules["value"]["required"]


async def test_every_command_stays_within_discords_limits():
    for name, payload in (await payloads()).items():
        assert size(payload) <= MAX_COMMAND_CHARS, name
        commands = [payload, *(o for o in payload.get("options", []) if o["type"] == 1)]
        for command in commands:
            options = [o for o in command.get("options", []) if o["type"] != 1]
            assert len(options) <= 25, command["name"]
            assert all(len(o.get("choices", [])) <= 25 for o in options), command["name"]


def command_data(group: str, name: str, **options: object) -> dict:
    """An application-command interaction's data as Discord sends it (option names are always
    the default, English ones, whatever the user's language)."""
    given = [
        {"name": k, "type": 4 if isinstance(v, int) else 3, "value": v} for k, v in options.items()
    ]
    return {
        "name": group,
        "type": 1,
        "options": [{"name": name, "type": 1, "options": given}],
    }


@pytest.mark.parametrize(
    ("group", "name", "options", "words"),
    [
        (
            "poker",
            "open",
            {"game": "acik", "ante": 20, "deck": "32", "peek": "once"},
            ("open", "acik", "20", "deck=32", "peek=once"),
        ),
        (
            "poker",
            "open",
            {"suits": "shdc", "twopair": "heart"},
            ("open", "turkish", "suits=shdc", "twopair=heart"),
        ),
        (
            "poker",
            "open",
            {"game": "acik", "limit": "fixed", "flushfour": "off", "void": "off"},
            ("open", "acik", "fixed", "flushfour=off", "void=off"),
        ),
        ("okey", "start", {"takeback": "on"}, ("start", "takeback=on")),
        (
            "okey",
            "start",
            {"stake": 50, "scoring": "classic", "takeback": "off"},
            ("start", "1", "50", "classic", "takeback=off"),
        ),
        ("poker", "rules", {"option": "deck", "value": "32"}, ("rules", "set", "deck=32")),
        ("poker", "rules", {"option": "suits", "value": "♥ ♦ ♠ ♣"}, ("rules", "set", "suits=♥♦♠♣")),
        (
            "okey",
            "rules",
            {"option": "takeback", "value": "açık"},
            ("rules", "set", "takeback=açık"),
        ),
        ("okey", "rules", {}, ("rules",)),
        (
            "tournament",
            "okey",
            {"fee": 0, "rounds": 3, "scoring": "classic"},
            ("okey", "fee=0", "rounds=3", "preset=classic"),
        ),
        (
            "tournament",
            "poker",
            {"variant": "acik", "chips": 500, "rules": "deck=32  odds=off"},
            ("poker", "acik", "chips=500", "deck=32", "odds=off"),
        ),
    ],
)
async def test_slash_options_reach_the_core_as_name_value_words(
    harness, group, name, options, words
):
    ayse = harness.user(AYSE, "Ayşe")
    data = command_data(group, name, **options)
    asked = await harness.dispatch_command(ayse, data, CHANNEL, locale="tr")
    [command] = harness.adapter.core.commands
    assert (command.name, command.args) == (group, words)
    assert harness.log.seen_by(AYSE) == ["ok"] and harness.unanswered() == []
    assert asked.response.is_done()


@pytest.mark.parametrize(
    ("options", "locale"),
    [
        ({"option": "deck"}, "tr"),
        ({"value": "32"}, "en-US"),
        ({"option": "peek", "value": " "}, "tr"),
    ],
)
async def test_rules_with_only_an_option_or_a_value_is_refused_privately(harness, options, locale):
    ayse = harness.user(AYSE, "Ayşe")
    data = command_data("poker", "rules", **options)
    await harness.dispatch_command(ayse, data, CHANNEL, locale=locale)
    assert harness.adapter.core.commands == []  # the core is not asked; nothing changes
    language = "tr" if locale == "tr" else "en"
    [refusal] = harness.log.deliveries
    assert (refusal.audience, refusal.target) == ("ephemeral", AYSE)
    assert refusal.text == TEXTS[language]["rules_pair"]
    assert harness.log.channel_texts(CHANNEL) == [] and harness.unanswered() == []


class Namespace:
    def __init__(self, **given: str) -> None:
        self.__dict__.update(given)


@pytest.mark.parametrize(
    ("group", "option", "typed", "values"),
    [
        ("poker", "deck", "", ["52", "32"]),
        ("poker", "deck", "3", ["32"]),
        ("poker", "peek", "ON", ["once"]),
        ("poker", "suits", "cd", ["cdhs", "cdsh"]),
        ("poker", "suits", "♣♦", ["cdhs", "cdsh"]),
        ("okey", "takeback", "", ["on", "off"]),
        ("okey", "rounds", "", ["1", "3"]),
        ("poker", None, "", []),
    ],
)
async def test_the_value_is_autocompleted_from_the_chosen_option(
    harness, group, option, typed, values
):
    command = harness.command(f"{group} rules")
    interaction = harness.interaction(harness.user(AYSE, "Ayşe"), CHANNEL)
    interaction.namespace = Namespace(option=option) if option else Namespace()
    callback = command._params["value"].autocomplete
    assert callback is not None
    offered = await callback(interaction, typed)
    assert [c.value for c in offered] == values


async def test_autocompleted_values_are_shown_in_the_users_language(harness):
    command = harness.command("okey rules")
    interaction = harness.interaction(harness.user(AYSE, "Ayşe"), CHANNEL)
    interaction.namespace = Namespace(option="takeback")
    offered = await command._params["value"].autocomplete(interaction, "")
    translator = Translator()
    shown = {
        locale: [
            (await c.get_translated_payload_for_locale(translator, locale))["name"] for c in offered
        ]
        for locale in (discord.Locale.turkish, discord.Locale.american_english)
    }
    assert shown[discord.Locale.turkish] == ["Atılabilir", "Atılamaz (varsayılan)"]
    assert shown[discord.Locale.american_english] == ["Allowed", "Not allowed (default)"]
