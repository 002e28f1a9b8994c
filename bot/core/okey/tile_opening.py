"""How a tile table opens (`TileSession.create`, `for_tournament`): each game describes its
`/okey start` words once as an `Opening` (its rounds option, the rounds a match may have, its
refusals, its defaults from the config, a word of its own such as classic Okey's scoring
preset), and these functions turn the words into the table's options."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.core.commands import parse_int
from bot.core.config import CoreConfig
from bot.core.errors import Refusal
from bot.core.table import house


def no_defaults(config: CoreConfig) -> dict[str, Any]:
    """No option taken from the config (the house defaults stand)."""
    return {}


def no_words(word: str, options: dict[str, Any]) -> bool:
    """No word of the game's own: every other word is refused."""
    return False


def no_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    """No tournament setting of the game's own."""
    return {}


@dataclass(frozen=True)
class Opening:
    """A tile game's `/okey start` words: `rounds_option` names the option holding the match's
    rounds, `round_counts` the rounds a match may have, `usage` and `rounds_refusal` the
    refusals of a bad word and bad rounds; `defaults` gives the options taken from the config
    over the house defaults, `word` reads a word of the game's own into the options (False:
    the word means nothing to the game), and `settings` gives the options a tournament's
    table takes from the tournament's settings beyond the shared ones."""

    rounds_option: str
    round_counts: tuple[int, ...]
    usage: str
    rounds_refusal: str
    defaults: Callable[[CoreConfig], dict[str, Any]] = no_defaults
    word: Callable[[str, dict[str, Any]], bool] = no_words
    settings: Callable[[Mapping[str, Any]], dict[str, Any]] = no_settings


def start_options(
    game: str, opening: Opening, args: tuple[str, ...], config: CoreConfig
) -> dict[str, Any]:
    """A new table's options from `/okey start [rounds] [stake] [word ...] [name=value ...]`:
    the numbers are the rounds and the stake, other words the game's own; the `name=value`
    words are house rules (`bot.core.table.house`) and win over the positional words."""
    chosen = house.stored(house.parse(game, [w for w in args if house.is_setting(w)]))
    options = {**house.defaults(game), **opening.defaults(config), "stake": config.okey_stake}
    numbers = []
    for word in args:
        if house.is_setting(word):
            continue
        number = parse_int(word)
        if number is not None:
            numbers.append(number)
        elif not opening.word(word, options):
            raise Refusal(opening.usage)
    if len(numbers) > 2:
        raise Refusal(opening.usage)
    if numbers:
        options[opening.rounds_option] = numbers[0]
    if len(numbers) == 2:
        options["stake"] = numbers[1]
    options.update(chosen)
    if options[opening.rounds_option] not in opening.round_counts:
        raise Refusal(opening.rounds_refusal)
    if not 1 <= options["stake"] <= config.max_ante:
        raise Refusal("err.okey_stake", max=config.max_ante)
    return options


def tournament_options(game: str, opening: Opening, settings: Mapping[str, Any]) -> dict[str, Any]:
    """A tournament table's options from the tournament's `settings`: `rounds` a match, stake
    0 (the entry fee is the stake), `tournament` naming the tournament, `tiebreak` its fair
    draw (player ids, best first), `slot` the table's place in the draw, and the game's own
    (`Opening.settings`)."""
    return {
        **house.defaults(game),
        opening.rounds_option: settings["rounds"],
        "stake": 0,
        **opening.settings(settings),
        "tournament": settings["tournament"],
        "tiebreak": list(settings["tiebreak"]),
        "slot": settings["slot"],
    }
