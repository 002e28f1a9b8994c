"""The house rule options (issue 16) as Discord slash-command options and choices.

The core reads table options as `name=value` words after the existing words of `/poker open`
and `/okey start`, and after `rules set`. Which options each command offers, their names, their
Turkish names (one of the core's aliases), their values and defaults all come from the core's
catalogue (`bot.core.table.house.OPTIONS`), so the two cannot drift; this module only adds
Discord's words (`WORDS`: each option's description and label, each value's label, in English
and Turkish). Discord offers them as optional options with choices; each given option becomes
the word `name=value` with the canonical English name and value, so the core sees the same words
as from Telegram or the console. Names and descriptions are `locale_str`s whose `tr` extra is
the Turkish text.
"""

from __future__ import annotations

from typing import NamedTuple

from discord.app_commands import Choice, locale_str

from bot.adapters.discord.l10n import L
from bot.core.commands import fold
from bot.core.table import house

SUIT_SYMBOLS = {"h": "♥", "s": "♠", "d": "♦", "c": "♣"}
MAX_CHOICES = 25  # Discord's limit on choices (and autocomplete results) of one option
# Okey options `/okey start` offers under its own older options (`rounds`, `scoring`)
OKEY_START_OWN = ("rounds", "preset")


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


class Words(NamedTuple):
    """Discord's words for one core option: its description, its label in `rules option:`, the
    label of each value (a value without one, e.g. a suit order, is labelled by `_label`) and,
    when it is not the core's first alias, its Turkish option name."""

    description: locale_str
    label: locale_str
    values: dict[str, locale_str]
    turkish: str | None = None


WORDS = {
    "deck": Words(
        L(
            "Açık poker: 52 cards, or 32 (7 and up, at most 6 players)",
            "Açık poker: 52 kart ya da 32 (7 ve üstü, en çok 6 oyuncu)",
        ),
        L("deck (Açık poker)", "deste (Açık poker)"),
        {
            "52": L("52 cards (default)", "52 kart (varsayılan)"),
            "32": L("32 cards (7 to ace, at most 6 players)", "32 kart (7'den asa, en çok 6 kişi)"),
        },
    ),
    "suits": Words(
        L(
            "Suit order, high to low (default ♥♠♦♣)",
            "Renklerin sırası, büyükten küçüğe (varsayılan ♥♠♦♣)",
        ),
        L("suits (suit order)", "renk (renklerin sırası)"),
        {},
    ),
    "twopair": Words(
        L(
            "Türk pokeri: equal two pairs, the kicker or the heart decides",
            "Türk pokeri: eşit iki çiftte yan kart mı, kupa mı belirler",
        ),
        L("twopair (Türk pokeri)", "ikiçift (Türk pokeri)"),
        {
            "kicker": L("The kicker first (default)", "Önce yan kart (varsayılan)"),
            "heart": L("The heart in the higher pair first", "Önce büyük çiftteki kupa"),
        },
    ),
    "flushfour": Words(
        L(
            "Açık poker: does a flush beat four of a kind",
            "Açık poker: floş (renk) kareyi yener mi",
        ),
        L("flushfour (Açık poker)", "floş (Açık poker)"),
        {
            "on": L("Flush beats four (default)", "Floş kareyi yener (varsayılan)"),
            "off": L("Four beats flush", "Kare floşu yener"),
        },
    ),
    "void": Words(
        L(
            "Açık poker: no bets between a hand that cannot win and its better",
            "Açık poker: kazanamayacak elle ondan iyisi arasında bahis yok",
        ),
        L("void (Açık poker: void bets)", "ölübahis (Açık poker)"),
        {
            "on": L("Void bets on (default)", "Ölü bahis var (varsayılan)"),
            "off": L("Void bets off", "Ölü bahis yok"),
        },
        turkish="ölübahis",  # "ölü" alone says little in a list of options
    ),
    "peek": Words(
        L(
            "Açık poker: see my hidden card once or freely",
            "Açık poker: kapalı kartıma bir kez mi, serbest mi bakarım",
        ),
        L("peek (Açık poker)", "bakış (Açık poker)"),
        {
            "once": L("Once per hand", "Elde bir kez"),
            "free": L("Freely (default)", "Serbest (varsayılan)"),
        },
    ),
    "odds": Words(
        L(
            "Açık poker: show each player's chance of winning from the up cards",
            "Açık poker: her oyuncunun açık kartlara göre kazanma şansı gösterilsin mi",
        ),
        L("odds (Açık poker: live odds)", "şans (Açık poker)"),
        {
            "on": L("Live odds on (default)", "Şans gösterilir (varsayılan)"),
            "off": L("Live odds off", "Şans gösterilmez"),
        },
    ),
    "preset": Words(
        L("How rounds are scored", "Ellerin nasıl puanlanacağı"),
        L("preset (scoring)", "puanlama"),
        {
            "penalty": L("Penalty points (default)", "Ceza puanı (varsayılan)"),
            "classic": L("Classic (count down from 20)", "Klasik (20'den geriye)"),
        },
    ),
    "rounds": Words(
        L("How many rounds", "Kaç el"),
        L("rounds", "el (kaç el)"),
        {"1": L("1 round", "1 el"), "3": L("3 rounds", "3 el")},
    ),
    "takeback": Words(
        L(
            "May the tile just taken from the discard be discarded again",
            "Yandan alınan taş aynı turda geri atılabilir mi",
        ),
        L("takeback (discard the tile just taken)", "geriat (alınan taşı geri atmak)"),
        {
            "on": L("Allowed", "Atılabilir"),
            "off": L("Not allowed (default)", "Atılamaz (varsayılan)"),
        },
    ),
    # 101 Okey
    "open": Words(
        L(
            "101 Okey: what an opening with melds must be worth (default 101)",
            "101 Okey: seriden açışın en az değeri (varsayılan 101)",
        ),
        L("open (101 Okey: opening threshold)", "açış (101 Okey)"),
        {},
    ),
    "rounds101": Words(
        L("101 Okey: how many rounds (default 5)", "101 Okey: kaç el (varsayılan 5)"),
        L("rounds101 (101 Okey: rounds)", "elsayısı (101 Okey)"),
        {
            n: L(
                f"{n} round" + ("" if n == "1" else "s") + (" (default)" if n == "5" else ""),
                f"{n} el" + (" (varsayılan)" if n == "5" else ""),
            )
            for n in ("1", "3", "5", "7", "9", "11")
        },
        turkish="elsayısı",  # "el" is classic Okey's rounds, beside it on /okey start
    ),
    "partners": Words(
        L("101 Okey: partners sit opposite (4 players)", "101 Okey: eşli, karşılıklı (4 kişi)"),
        L("partners (101 Okey)", "eşli (101 Okey)"),
        {
            "on": L("Partners", "Eşli"),
            "off": L("Everyone alone (default)", "Herkes tek (varsayılan)"),
        },
    ),
    "doubling": Words(
        L(
            "101 Okey: okey finishes, finishing in the opening turn and pairs double",
            "101 Okey: okeyle ve elden bitmek, çiftten açmak katlar",
        ),
        L("doubling (101 Okey)", "katlama (101 Okey)"),
        {
            "on": L("Doublings (default)", "Katlamalı (varsayılan)"),
            "off": L("No doublings", "Katlamasız"),
        },
    ),
    "swap_okey": Words(
        L(
            "101 Okey: take an okey back from a meld by putting its tile in its place",
            "101 Okey: perdeki okeyi, yerine geçtiği taşı koyarak almak",
        ),
        L("swap_okey (101 Okey)", "okeyal (101 Okey)"),
        {
            "on": L("Allowed (default)", "Alınabilir (varsayılan)"),
            "off": L("Not allowed", "Alınamaz"),
        },
    ),
    "pairs_max": Words(
        L(
            "101 Okey: how many players may open with pairs (default 3)",
            "101 Okey: kaç oyuncu çiftten açabilir (varsayılan 3)",
        ),
        L("pairs_max (101 Okey)", "çiftsınırı (101 Okey)"),
        {
            n: L(
                f"{n} player(s)" + (" (default)" if n == "3" else ""),
                f"{n} oyuncu" + (" (varsayılan)" if n == "3" else ""),
            )
            for n in ("0", "1", "2", "3", "4")
        },
    ),
    "speed": Words(
        L(
            "Turn time: fast 20 s, normal, slow 5 min, relaxed 12 h (not in tournaments)",
            "Hamle süresi: hızlı 20 sn, normal, yavaş 5 dk, rahat 12 saat (turnuvada yok)",
        ),
        L("speed (turn time)", "hız (hamle süresi)"),
        {
            "fast": L("Fast: 20 seconds a turn", "Hızlı: hamle başına 20 saniye"),
            "normal": L(
                "Normal: the bot's turn time (default)", "Normal: botun süresi (varsayılan)"
            ),
            "slow": L("Slow: 5 minutes a turn", "Yavaş: hamle başına 5 dakika"),
            "relaxed": L(
                "Relaxed: 12 hours, the player to act is mentioned",
                "Rahat: 12 saat, sırası gelen oyuncu anılır",
            ),
        },
    ),
    "away": Words(
        L(
            "Hands or rounds the computer plays for an away player before they leave",
            "Masada olmayanın yerine bilgisayar kaç el oynasın, sonra kalksın",
        ),
        L("away (kept seat)", "uzakta (tutulan yer)"),
        {
            n: L(
                f"{n} hand(s) or round(s)" + (" (default)" if n == "3" else ""),
                f"{n} el" + (" (varsayılan)" if n == "3" else ""),
            )
            for n in house.AWAY_LIMITS
        },
    ),
    "payout": Words(
        L("101 Okey: how the pool is paid out", "101 Okey: havuz nasıl dağıtılır"),
        L("payout (101 Okey)", "ödeme (101 Okey)"),
        {
            "penalty": L(
                "75% to the lowest, 25% shared (default)",
                "%75 en düşüğe, %25 paylaşılır (varsayılan)",
            ),
            "winner": L("All to the lowest total", "Hepsi en düşük toplama"),
        },
    ),
}


def _label(option: house.HouseOption, value: str) -> locale_str:
    """A value's choice label: Discord's words for it, else a suit order shown with its
    symbols ("♥♠♦♣ (hsdc)"), else the canonical value itself."""
    words = WORDS.get(option.name)
    if words is not None and value in words.values:
        return words.values[value]
    if option.name == "suits":
        shown = f"{''.join(SUIT_SYMBOLS[s] for s in value)} ({value})"
        return L(shown, shown)
    return L(value, value)


def slash_option(option: house.HouseOption) -> HouseOption:
    """A core option as a slash option, its values in the core's order (`house.every_value`);
    an option without Discord words yet is offered under its canonical name and values."""
    words = WORDS.get(option.name)
    turkish = (words and words.turkish) or option.aliases[0]
    fallback = L(option.name, turkish)
    return HouseOption(
        option.name,
        turkish,
        words.description if words else fallback,
        tuple(Choice(name=_label(option, v), value=v) for v in house.every_value(option)),
        words.label if words else fallback,
    )


BY_NAME = {o.name: slash_option(o) for o in house.OPTIONS}
POKER_OPEN = tuple(BY_NAME[o.name] for o in house.OPTIONS if set(o.games) & set(house.POKER))
OKEY_START = tuple(
    BY_NAME[o.name] for o in house.options_for("okey") if o.name not in OKEY_START_OWN
)
# 101's own options (the ones both Okeys have, e.g. `speed`, come with `OKEY_START`)
OKEY101_START = tuple(
    BY_NAME[o.name]
    for o in house.options_for("okey101")
    if o.name not in {c.name for c in house.options_for("okey")}
)
# `/okey rules` serves both Okeys: classic Okey's options, then 101's
RULES = {
    "poker": POKER_OPEN,
    "okey": tuple(BY_NAME[o.name] for o in house.options_for("okey")) + OKEY101_START,
}


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
