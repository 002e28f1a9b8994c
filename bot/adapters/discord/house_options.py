"""The house rule options (issue 16) as Discord slash-command options and choices.

The core reads table options as `name=value` words after the existing words of `/poker open`
and `/okey start`, and after `rules set` (the catalogue is `bot.core.table.house`; the shared spec lists
every name and value). Discord offers them as optional options with choices; each given option
becomes the word `name=value` with the canonical English name and value, so the core sees the
same words as from Telegram or the console. Names and descriptions are `locale_str`s whose `tr`
extra is the Turkish text (Turkish option names are the spec's aliases, without spaces).
"""

from __future__ import annotations

from itertools import permutations
from typing import NamedTuple

from discord.app_commands import Choice, locale_str

from bot.adapters.discord.l10n import L
from bot.core.commands import fold

SUIT_SYMBOLS = {"h": "♥", "s": "♠", "d": "♦", "c": "♣"}
MAX_CHOICES = 25  # Discord's limit on choices (and autocomplete results) of one option


class HouseOption(NamedTuple):
    """One house rule as a slash option: its canonical name (also the Python parameter name),
    its Turkish option name, its description and its choices (canonical string values)."""

    name: str
    turkish: str
    description: locale_str
    choices: tuple[Choice[str], ...]
    label: locale_str  # how `/poker rules option:` lists it

    @property
    def values(self) -> tuple[str, ...]:
        """The canonical values, in the order offered."""
        return tuple(c.value for c in self.choices)


def _suit_choices() -> tuple[Choice[str], ...]:
    """The 24 orders of h s d c, high to low, the default `hsdc` first: "♥♠♦♣ (hsdc)"."""
    orders = ("".join(p) for p in permutations("hsdc"))
    out = []
    for order in orders:
        shown = f"{''.join(SUIT_SYMBOLS[s] for s in order)} ({order})"
        out.append(Choice(name=L(shown, shown), value=order))
    return tuple(out)


DECK = HouseOption(
    "deck",
    "deste",
    L(
        "Açık poker: 52 cards, or 32 (7 and up, at most 6 players)",
        "Açık poker: 52 kart ya da 32 (7 ve üstü, en çok 6 oyuncu)",
    ),
    (
        Choice(name=L("52 cards (default)", "52 kart (varsayılan)"), value="52"),
        Choice(
            name=L("32 cards (7 to ace, at most 6 players)", "32 kart (7'den asa, en çok 6 kişi)"),
            value="32",
        ),
    ),
    L("deck (Açık poker)", "deste (Açık poker)"),
)
SUITS = HouseOption(
    "suits",
    "renk",
    L(
        "Suit order, high to low (default ♥♠♦♣)",
        "Renklerin sırası, büyükten küçüğe (varsayılan ♥♠♦♣)",
    ),
    _suit_choices(),
    L("suits (suit order)", "renk (renklerin sırası)"),
)
TWOPAIR = HouseOption(
    "twopair",
    "ikiçift",
    L(
        "Türk pokeri: equal two pairs, the kicker or the heart decides",
        "Türk pokeri: eşit iki çiftte yan kart mı, kupa mı belirler",
    ),
    (
        Choice(name=L("The kicker first (default)", "Önce yan kart (varsayılan)"), value="kicker"),
        Choice(
            name=L("The heart in the higher pair first", "Önce büyük çiftteki kupa"),
            value="heart",
        ),
    ),
    L("twopair (Türk pokeri)", "ikiçift (Türk pokeri)"),
)
FLUSHFOUR = HouseOption(
    "flushfour",
    "floş",
    L("Açık poker: does a flush beat four of a kind", "Açık poker: floş (renk) kareyi yener mi"),
    (
        Choice(name=L("Flush beats four (default)", "Floş kareyi yener (varsayılan)"), value="on"),
        Choice(name=L("Four beats flush", "Kare floşu yener"), value="off"),
    ),
    L("flushfour (Açık poker)", "floş (Açık poker)"),
)
VOID = HouseOption(
    "void",
    "ölübahis",
    L(
        "Açık poker: no bets between a hand that cannot win and its better",
        "Açık poker: kazanamayacak elle ondan iyisi arasında bahis yok",
    ),
    (
        Choice(name=L("Void bets on (default)", "Ölü bahis var (varsayılan)"), value="on"),
        Choice(name=L("Void bets off", "Ölü bahis yok"), value="off"),
    ),
    L("void (Açık poker: void bets)", "ölübahis (Açık poker)"),
)
PEEK = HouseOption(
    "peek",
    "bakış",
    L(
        "Açık poker: see my hidden card once or freely",
        "Açık poker: kapalı kartıma bir kez mi, serbest mi bakarım",
    ),
    (
        Choice(name=L("Once per hand", "Elde bir kez"), value="once"),
        Choice(name=L("Freely (default)", "Serbest (varsayılan)"), value="free"),
    ),
    L("peek (Açık poker)", "bakış (Açık poker)"),
)
ODDS = HouseOption(
    "odds",
    "şans",
    L(
        "Açık poker: show each player's chance of winning from the up cards",
        "Açık poker: her oyuncunun açık kartlara göre kazanma şansı gösterilsin mi",
    ),
    (
        Choice(name=L("Live odds on (default)", "Şans gösterilir (varsayılan)"), value="on"),
        Choice(name=L("Live odds off", "Şans gösterilmez"), value="off"),
    ),
    L("odds (Açık poker: live odds)", "şans (Açık poker)"),
)
PRESET = HouseOption(
    "preset",
    "puanlama",
    L("How rounds are scored", "Ellerin nasıl puanlanacağı"),
    (
        Choice(name=L("Penalty points (default)", "Ceza puanı (varsayılan)"), value="penalty"),
        Choice(name=L("Classic (count down from 20)", "Klasik (20'den geriye)"), value="classic"),
    ),
    L("preset (scoring)", "puanlama"),
)
ROUNDS = HouseOption(
    "rounds",
    "el",
    L("How many rounds", "Kaç el"),
    (
        Choice(name=L("1 round", "1 el"), value="1"),
        Choice(name=L("3 rounds", "3 el"), value="3"),
    ),
    L("rounds", "el (kaç el)"),
)
TAKEBACK = HouseOption(
    "takeback",
    "geriat",
    L(
        "May the tile just taken from the discard be discarded again",
        "Yandan alınan taş aynı turda geri atılabilir mi",
    ),
    (
        Choice(name=L("Allowed", "Atılabilir"), value="on"),
        Choice(name=L("Not allowed (default)", "Atılamaz (varsayılan)"), value="off"),
    ),
    L("takeback (discard the tile just taken)", "geriat (alınan taşı geri atmak)"),
)

POKER_OPEN = (DECK, SUITS, TWOPAIR, FLUSHFOUR, VOID, PEEK, ODDS)
OKEY_START = (TAKEBACK,)
RULES = {"poker": POKER_OPEN, "okey": (PRESET, ROUNDS, TAKEBACK)}
BY_NAME = {o.name: o for group in RULES.values() for o in group}


def renames(options: tuple[HouseOption, ...]) -> dict[str, locale_str]:
    """`app_commands.rename` arguments: each option's English and Turkish name."""
    return {o.name: L(o.name, o.turkish) for o in options}


def descriptions(options: tuple[HouseOption, ...]) -> dict[str, locale_str]:
    """`app_commands.describe` arguments."""
    return {o.name: o.description for o in options}


def choices(options: tuple[HouseOption, ...]) -> dict[str, list[Choice[str]]]:
    """`app_commands.choices` arguments."""
    return {o.name: list(o.choices) for o in options}


def rule_choices(group: str) -> list[Choice[str]]:
    """The choices of `/poker rules option:` (or `/okey rules`): that game group's options."""
    return [Choice(name=o.label, value=o.name) for o in RULES[group]]


def option_words(given: dict[str, object]) -> tuple[str, ...]:
    """The `name=value` words of the given options, in the order given, leaving out the ones not
    given (None or empty; a number 0 is given)."""
    return tuple(
        f"{name}={value}" for name, value in given.items() if value is not None and value != ""
    )


def value_choices(option: str | None, current: str) -> list[Choice[str]]:
    """Autocomplete for `rules value:`: the values of the chosen option that start with what was
    typed (compared after `fold`; a suit order also by its symbols); none before an option is
    chosen."""
    chosen = BY_NAME.get(option or "")
    if chosen is None:
        return []
    typed = fold("".join(current.split()))
    hits = [
        c
        for c in chosen.choices
        if fold(c.value).startswith(typed) or fold(str(c.name)).startswith(typed)
    ]
    return hits[:MAX_CHOICES]


def rules_value(value: str | None) -> str | None:
    """A typed value as one word (spaces dropped: `♥ ♠ ♦ ♣` is `♥♠♦♣`), None when empty."""
    if value is None:
        return None
    joined = "".join(value.split())
    return joined or None
