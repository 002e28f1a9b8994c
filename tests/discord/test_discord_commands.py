"""The Discord command tree: every command and option exists, is localized to Turkish, has valid
names, choices and limits, and maps to the words the core routes; custom ids fit Discord."""

from __future__ import annotations

import re

import discord
import pytest
from discord import app_commands

from bot.adapters.discord.commands import Translator, install_commands
from bot.adapters.discord.components import (
    DYNAMIC_ITEMS,
    MAX_CUSTOM_ID,
    DrawSelect,
    HandButton,
    TurnButton,
    TurnRef,
    table_view,
)
from bot.core.commands import route
from bot.core.messages import MAX_CUSTOM_ID as CORE_MAX_ID
from bot.core.messages import NEEDS_AMOUNT, NEEDS_CARDS, Button
from testkit.fakes.cards import cards_in, tiles_in

NAME = re.compile(r"^[-_\w]{1,32}$")

EXPECTED = {
    "poker": {"open", "join", "leave", "start", "hand", "table", "rules", "addbot", "back"},
    "okey": {
        "start",
        "join",
        "begin",
        "take",
        "discard",
        "arrange",
        "show",
        "finish",
        "rack",
        "addbot",
        "leave",
        "table",
        "rules",
        "back",
        "lay",  # 101 Okey
        "add",
        "swap",
    },
    "table": {"reset", "kick", "web", "invite", "uninvite", "watchers", "join"},
    "tournament": {"okey", "poker", "join", "leave", "start", "standings", "cancel"},
    "balance": None,
    "daily": None,
    "leaderboard": None,
    "verify": None,
    "lang": None,
    "tiles": None,
    "season": None,
    "help": None,
    "history": None,
    "stats": None,
    "rating": None,
    "replay": None,
    "export": None,
}


class Recorder:
    """Records what each command hands to the adapter."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[str, ...]]] = []

    async def run_command(self, interaction, name: str, args: tuple[str, ...]) -> None:
        self.calls.append((name, args))

    async def rack_choices(self, interaction, current: str):
        return []

    async def command_failed(self, interaction, error) -> None:
        self.calls.append(("error", (type(error).__name__,)))


@pytest.fixture
def tree_and_runner():
    runner = Recorder()
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    install_commands(tree, runner)
    return tree, runner


async def payloads(tree) -> list[dict]:
    translator = Translator()
    return [await c.get_translated_payload(tree, translator) for c in tree.get_commands()]


def walk(payload: dict, path: str = ""):
    """Every (path, command-or-option dict) of a payload."""
    here = f"{path} {payload['name']}".strip()
    yield here, payload
    for option in payload.get("options", []):
        yield from walk(option, here)


async def test_every_command_and_subcommand_exists(tree_and_runner):
    tree, _ = tree_and_runner
    found = {p["name"]: p for p in await payloads(tree)}
    assert set(found) == set(EXPECTED)
    for name, subs in EXPECTED.items():
        options = found[name].get("options", [])
        if subs is None:
            assert all(o["type"] != 1 for o in options)
        else:
            assert {o["name"] for o in options if o["type"] == 1} == subs


async def test_names_descriptions_and_choices_are_localized_and_valid(tree_and_runner):
    tree, _ = tree_and_runner
    seen_tr_top: set[str] = set()
    for payload in await payloads(tree):
        assert payload["name_localizations"]["tr"] not in seen_tr_top
        seen_tr_top.add(payload["name_localizations"]["tr"])
        for path, item in walk(payload):
            tr_name = item["name_localizations"]["tr"]
            for name in (item["name"], tr_name):
                assert NAME.match(name) and name == name.lower(), (path, name)
            tr_desc = item["description_localizations"]["tr"]
            for description in (item["description"], tr_desc):
                assert 1 <= len(description) <= 100, path
            assert tr_desc != item["description"], path
            for choice in item.get("choices", []):
                assert 1 <= len(choice["name"]) <= 100
                assert "tr" in choice["name_localizations"], (path, choice)
            siblings = [o["name_localizations"]["tr"] for o in item.get("options", [])]
            assert len(siblings) == len(set(siblings)), path


async def test_games_and_tables_are_guild_only(tree_and_runner):
    tree, _ = tree_and_runner
    by_name = {p["name"]: p for p in await payloads(tree)}
    for name in ("poker", "okey", "table"):
        assert by_name[name]["dm_permission"] is False
    for name in ("balance", "daily", "help", "lang"):
        assert by_name[name]["dm_permission"] is True


async def test_choices_and_ranges(tree_and_runner):
    tree, _ = tree_and_runner
    options = {path: item for p in await payloads(tree) for path, item in walk(p)}
    assert [c["value"] for c in options["poker open game"]["choices"]] == ["turkish", "acik"]
    assert [c["value"] for c in options["poker open limit"]["choices"]] == [
        "pot",
        "fixed",
        "nolimit",
    ]
    assert options["poker open ante"]["min_value"] == 1
    assert [c["value"] for c in options["okey start rounds"]["choices"]] == [1, 3]
    assert [c["value"] for c in options["okey take from"]["choices"]] == ["stock", "discard"]
    assert [c["value"] for c in options["okey start scoring"]["choices"]] == [
        "penalty",
        "classic",
    ]
    assert options["okey discard tile"]["autocomplete"] is True
    assert options["okey finish tile"]["autocomplete"] is True
    assert [c["value"] for c in options["lang language"]["choices"]] == ["tr", "en"]
    assert options["verify hand"]["required"] is True
    assert [c["value"] for c in options["leaderboard board"]["choices"]] == [
        "chips",
        "okey",
        "101",
        "wins",
        "rating",
    ]
    for path in ("stats game", "history game"):
        assert "101" in [c["value"] for c in options[path]["choices"]]
    assert [c["value"] for c in options["tournament okey game"]["choices"]] == ["okey", "101"]
    assert [c["value"] for c in options["tournament okey rounds101"]["choices"]] == [
        "1",
        "3",
        "5",
        "7",
        "9",
        "11",
    ]


def find(tree, path: str):
    names = path.split()
    found = tree.get_command(names[0])
    for name in names[1:]:
        found = found.get_command(name)
    return found


async def call(tree, path: str, **options):
    command = find(tree, path)
    if command.binding is not None:
        await command.callback(command.binding, None, **options)
    else:
        await command.callback(None, **options)


@pytest.mark.parametrize(
    ("path", "options", "expected"),
    [
        (
            "poker open",
            {"game": "acik", "ante": 20, "structure": "fixed"},
            ("poker", ("open", "acik", "20", "fixed")),
        ),
        ("poker open", {}, ("poker", ("open", "turkish"))),
        ("poker join", {"buy_in": 300}, ("poker", ("join", "300"))),
        ("poker join", {}, ("poker", ("join",))),
        ("poker hand", {}, ("poker", ("hand",))),
        ("poker addbot", {}, ("poker", ("addbot",))),
        ("poker addbot", {"level": "hard", "buy_in": 150}, ("poker", ("addbot", "hard", "150"))),
        ("okey addbot", {"level": "easy"}, ("okey", ("addbot", "easy"))),
        ("poker back", {}, ("poker", ("back",))),
        ("okey back", {}, ("okey", ("back",))),
        ("okey start", {"stake": 50}, ("okey", ("start", "1", "50"))),
        ("okey start", {"rounds": 3}, ("okey", ("start", "3"))),
        ("okey start", {"scoring": "classic"}, ("okey", ("start", "classic"))),
        ("okey take", {"source": "discard"}, ("okey", ("take", "discard"))),
        ("okey discard", {"tile": "R5"}, ("okey", ("discard", "R5"))),
        ("okey arrange", {}, ("okey", ("arrange", "runs"))),
        ("table reset", {"reason": "spam bot"}, ("table", ("reset", "spam", "bot"))),
        ("table kick", {"player": "Ayşe K"}, ("table", ("kick", "Ayşe", "K"))),
        ("table web", {}, ("table", ("web",))),
        ("table watchers", {"watch": "off"}, ("table", ("watchers", "off"))),
        ("table join", {"invitation": "abc"}, ("table", ("join", "abc"))),
        ("poker open", {"private": "private"}, ("poker", ("open", "turkish", "private"))),
        (
            "okey start",
            {"private": "closed", "stake": 50},
            ("okey", ("start", "1", "50", "private", "watchers=off")),
        ),
        ("leaderboard", {}, ("leaderboard", ("chips",))),
        ("leaderboard", {"board": "wins"}, ("leaderboard", ("wins",))),
        ("leaderboard", {"scope": "global"}, ("leaderboard", ("chips", "global"))),
        ("leaderboard", {"board": "okey", "scope": "community"}, ("leaderboard", ("okey",))),
        ("leaderboard", {"board": "101"}, ("leaderboard", ("101",))),
        ("leaderboard", {"board": "101", "scope": "global"}, ("leaderboard", ("101", "global"))),
        ("stats", {"game": "101"}, ("stats", ("101",))),
        ("history", {"game": "101"}, ("history", ("101",))),
        ("tournament okey", {"rounds": 3}, ("tournament", ("okey", "rounds=3"))),
        (
            "tournament okey",
            {"game": "101", "fee": 50, "rounds101": "7"},
            ("tournament", ("okey", "101", "fee=50", "rounds=7")),
        ),
        ("tournament okey", {"rounds101": "9"}, ("tournament", ("okey", "101", "rounds=9"))),
        ("tournament okey", {"game": "101"}, ("tournament", ("okey", "101"))),
        ("verify", {"hand": " 12-3 "}, ("verify", ("12-3",))),
        ("lang", {"language": "tr"}, ("lang", ("tr",))),
        ("tiles", {"style": "symbols"}, ("tiles", ("symbols",))),
        ("help", {}, ("help", ())),
        ("season", {}, ("season", ())),
        ("season", {"number": 3}, ("season", ("3",))),
        ("season", {"length": " weekly "}, ("season", ("length", "weekly"))),
        ("season", {"number": 3, "length": "14"}, ("season", ("length", "14"))),
    ],
)
async def test_commands_hand_the_core_its_words(tree_and_runner, path, options, expected):
    tree, runner = tree_and_runner
    await call(tree, path, **options)
    assert runner.calls == [expected]
    name, args = expected
    routed = route(name, args)
    assert routed.group == name
    if name in ("poker", "okey", "table"):
        assert routed.sub == args[0]


def test_custom_ids_fit_and_round_trip():
    longest = Button("x" * 80, "9" * 20, "raise", "f" * 30, needs=NEEDS_AMOUNT, min_amount=1)
    assert len(longest.custom_id) <= CORE_MAX_ID
    view = table_view(((longest,),), "9" * 20, "okey", "Show my hand")
    ids = [item.custom_id for item in view.children]
    assert all(len(cid) <= MAX_CUSTOM_ID for cid in ids)
    assert ids == [f"t:{longest.custom_id}:a", f"h:{'9' * 20}:okey"]
    assert all(len(item.item.label) <= 80 for item in view.children)
    draw = TurnRef("12", "draw", "abc123", NEEDS_CARDS, 3)
    select = DrawSelect(draw, [("Ah", "A♥"), ("Td", "10♦")])
    assert select.custom_id == "d:12:draw:abc123" and select.item.max_values == 2
    for item, factory in ((view.children[0], TurnButton), (view.children[1], HandButton)):
        assert re.fullmatch(factory.__discord_ui_compiled_template__, item.custom_id)


def test_turn_ref_keeps_needs_in_the_id():
    for ref in (
        TurnRef("7", "check", "a1b2c3"),
        TurnRef("7", "raise", "a1b2c3", NEEDS_AMOUNT),
        TurnRef("7", "draw", "a1b2c3", NEEDS_CARDS, 3),
        TurnRef("7", "draw", "a1b2c3", NEEDS_CARDS),
    ):
        item = TurnButton(ref, "label")
        match = re.fullmatch(TurnButton.__discord_ui_compiled_template__, item.custom_id)
        assert match is not None and TurnRef.from_match(match) == ref


def test_only_our_ids_match_a_template():
    foreign = ["12:check:abc", "t:12:check", "x:1:2:3", "t:1:check:abc:z", "h:1:chess", ""]
    for custom_id in foreign:
        assert not any(
            re.fullmatch(f.__discord_ui_compiled_template__, custom_id) for f in DYNAMIC_ITEMS
        ), custom_id


def test_rows_are_capped_at_five():
    buttons = tuple(
        tuple(Button(f"b{r}{c}", "1", f"a{r}{c}", "n") for c in range(5)) for r in range(6)
    )
    view = table_view(buttons, "1", "poker", "Show my hand")
    rows = {item.row for item in view.children}
    assert max(rows) <= 4 and len(view.children) <= 25
    assert view.children[-1].custom_id == "h:1:poker"


def test_cards_and_tiles_are_read_from_core_text():
    assert cards_in("Your cards: A♥ 10♦ 7c K♠ Q♣") == ["Ah", "Td", "7c", "Ks", "Qc"]
    assert cards_in("Pot 120, hand 3-1") == []
    assert tiles_in("Rack: [R1 R2 R3] K13 Y7 F B10") == ["R1", "R2", "R3", "K13", "Y7", "F", "B10"]
    assert tiles_in("R14 KK FF") == []


class Member:
    """What Discord hands a user option (`discord.User`): an id, a display name, a bot flag."""

    def __init__(self, user_id: int, name: str, bot: bool = False) -> None:
        self.id, self.display_name, self.bot = user_id, name, bot


async def test_the_invite_user_option_is_a_mention_the_core_reads(tree_and_runner):
    tree, runner = tree_and_runner
    options = {path: item for p in await payloads(tree) for path, item in walk(p)}
    for path in ("table invite player", "table uninvite player"):
        assert options[path]["type"] == 6 and options[path]["required"] is True  # a user
    await call(tree, "table invite", player=Member(42, "Ayşe K"))
    await call(tree, "table uninvite", player=Member(42, "Ayşe K"))
    await call(tree, "table invite", player=Member(7, "Other Bot", bot=True))
    assert runner.calls == [
        ("table", ("invite", "<@42>", "Ayşe", "K")),
        ("table", ("uninvite", "<@42>", "Ayşe", "K")),
        ("table", ("invite", "<@bot-7>", "Other", "Bot")),
    ]
    assert [route(*call).sub for call in runner.calls] == ["invite", "uninvite", "invite"]
