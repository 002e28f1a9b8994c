"""The Discord house-rule options cannot drift from the core's catalogue (`bot.core.table.house`): every
core option of the poker games is offered on `/poker open` with exactly the core's values, Okey's
on `/okey start`, and `/poker rules` / `/okey rules` offer exactly the core's names of their games.
Read from the real command tree's payload, as Discord receives it."""

from __future__ import annotations

from itertools import permutations

import pytest

from bot.adapters.discord import house_options
from bot.core.commands import fold
from bot.core.table import house
from tests.discord.test_discord_house import options_of, payloads, sub

POKER_OPTIONS = [o for o in house.OPTIONS if set(o.games) & set(house.POKER)]
OKEY_OPTIONS = house.options_for("okey")
OKEY101_OPTIONS = house.options_for("okey101")


def core_values(option: house.HouseOption) -> list[str]:
    """The core's canonical values of an option; a free-form one (suits) every value it takes,
    a free-form number (101's `open`) its usual values."""
    if option.read is None or option.values:
        return list(option.values)
    orders = ["".join(p) for p in permutations(house.SUIT_LETTERS)]
    assert all(option.value(order) == order for order in orders)
    return orders


def values_of(slash: dict) -> list[str]:
    return [str(c["value"]) for c in slash.get("choices", [])]


def default_of(slash: dict) -> str | None:
    """The value whose English label says it is the default."""
    marked = [str(c["value"]) for c in slash["choices"] if "(default)" in c["name"]]
    return marked[0] if marked else None


@pytest.mark.parametrize("option", POKER_OPTIONS, ids=lambda o: o.name)
async def test_poker_open_offers_each_core_option_with_exactly_its_values(option):
    opened = options_of(sub((await payloads())["poker"], "open"))
    assert option.name in opened
    slash = opened[option.name]
    assert sorted(values_of(slash)) == sorted(core_values(option))
    assert fold(slash["name_localizations"]["tr"]) in {fold(a) for a in option.aliases}
    assert default_of(slash) in (None, option.default)
    if option.read is not None:
        assert values_of(slash)[0] == option.default  # a long list starts with the default


async def test_poker_open_offers_no_option_the_core_does_not_know():
    opened = options_of(sub((await payloads())["poker"], "open"))
    extra = set(opened) - {"game", "ante", "limit", "private"}  # private: no house rule
    assert extra == {o.name for o in POKER_OPTIONS}


async def test_okey_start_offers_takeback_and_the_positional_options_with_the_core_values():
    started = options_of(sub((await payloads())["okey"], "start"))
    takeback = house.BY_NAME["takeback"]
    assert values_of(started["takeback"]) == list(takeback.values)
    assert default_of(started["takeback"]) == takeback.default
    assert fold(started["takeback"]["name_localizations"]["tr"]) in map(fold, takeback.aliases)
    assert values_of(started["rounds"]) == list(house.BY_NAME["rounds"].values)
    assert values_of(started["scoring"]) == list(house.BY_NAME["preset"].values)
    # every Okey option is offered: takeback by name, rounds and preset by their old options
    assert {o.name for o in OKEY_OPTIONS} == {"takeback", "rounds", "preset", "speed", "away"}
    assert values_of(started["speed"]) == list(house.BY_NAME["speed"].values)
    # and every 101 option by name, with exactly the core's values
    for option in OKEY101_OPTIONS:
        assert values_of(started[option.name]) == list(option.values)
    assert values_of(started["game"]) == ["okey", "101"]


@pytest.mark.parametrize(
    ("group", "options"), [("poker", POKER_OPTIONS), ("okey", OKEY_OPTIONS + OKEY101_OPTIONS)]
)
async def test_rules_offers_exactly_the_core_names_of_the_group(group, options):
    rules = options_of(sub((await payloads())[group], "rules"))
    assert values_of(rules["option"]) == list(dict.fromkeys(o.name for o in options))


@pytest.mark.parametrize("option", house.OPTIONS, ids=lambda o: o.name)
def test_rules_value_autocomplete_offers_exactly_the_core_values(option):
    offered = house_options.BY_NAME[option.name]
    assert sorted(offered.values) == sorted(core_values(option))
    autocompleted = house_options.value_choices(option.name, "")
    assert sorted(c.value for c in autocompleted) == sorted(core_values(option))


def test_every_core_option_and_value_has_discord_words():
    for option in house.OPTIONS:
        words = house_options.WORDS[option.name]
        assert set(words.values) == (set() if option.read else set(option.values))
        assert fold(house_options.BY_NAME[option.name].turkish) in map(fold, option.aliases)


def test_an_option_the_core_adds_is_offered_under_its_own_names_and_values():
    added = house.HouseOption(
        "newrule", ("yenikural",), ("okey",), house.ON_OFF, "off", "match", "newrule"
    )
    offered = house_options.slash_option(added)
    assert (offered.name, offered.turkish) == ("newrule", "yenikural")
    assert offered.values == ("on", "off")
    assert [str(c.name) for c in offered.choices] == ["on", "off"]
