"""The slash command tree: groups, options, choices, autocomplete, and their Turkish names.

Every command is data (`slash.Slash`: its options and how they become the words of a core
`Command`, English canonical words as `/help` shows them) and each group one `slash.SlashGroup`;
`slash.command` builds the callbacks, which hand the words to the adapter: the core decides
everything else. Names and descriptions are `locale_str`s whose `tr` extra is the Turkish text;
`Translator` gives Discord those for the `tr` locale (English is the default).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, Range, locale_str

from bot.adapters.discord import house_options as house
from bot.adapters.discord.l10n import L
from bot.adapters.discord.season_command import SEASON
from bot.adapters.discord.slash import (
    REQUIRED,
    Opt,
    Runner,
    Slash,
    SlashGroup,
    Values,
    group,
    picks,
    words,
)
from bot.adapters.discord.slash import command as slash_command
from bot.adapters.discord.top_commands import TOP_COMMANDS

MAX_CHIPS = 1_000_000_000


class Translator(app_commands.Translator):
    """Turkish names and descriptions from each `locale_str`'s `tr` extra."""

    async def translate(
        self,
        string: locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The Turkish text for `tr`; None (the English default) for every other locale."""
        if locale is discord.Locale.turkish:
            return string.extras.get("tr")
        return None


GAMES = picks(("Türk pokeri", "Türk pokeri", "turkish"), ("Açık poker", "Açık poker", "acik"))
STRUCTURES = picks(
    ("Pot limit", "Pot limit", "pot"),
    ("Fixed limit", "Sabit limit", "fixed"),
    ("No limit", "Limitsiz", "nolimit"),
)
ROUNDS = picks(("1 round", "1 el", 1), ("3 rounds", "3 el", 3))
OKEYS = picks(("Okey (classic)", "Okey (klasik)", "okey"), ("101 Okey", "101 Okey", "101"))
OKEY_GAME = Opt(
    "game",
    L("game", "oyun"),
    L("Classic Okey or 101 Okey", "Klasik okey ya da 101 okey"),
    choices=OKEYS,
)
SOURCES = picks(
    ("Stock (face down)", "Deste (kapalı)", "stock"),
    ("Discard (the tile passed to me)", "Yerdeki taş (bana atılan)", "discard"),
)
PRESETS = picks(
    ("Penalty points", "Ceza puanı", "penalty"),
    ("Classic (count down from 20)", "Klasik (20'den geriye)", "classic"),
)
LEVELS = picks(
    ("Easy", "Kolay", "easy"),
    ("Normal (default)", "Orta (varsayılan)", "normal"),
    ("Hard", "Zor", "hard"),
)
LEVEL_NAME = L("level", "seviye")
LEVEL_HELP = L("How well the computer plays", "Bilgisayarın ne kadar iyi oynadığı")
MODES = picks(("Runs and sets", "Seri ve per", "runs"), ("Pairs", "Çiftler", "pairs"))
ROUNDS101 = house.BY_NAME["rounds101"]


def rules_command(runner: Runner, group: str) -> app_commands.Command[Any, ..., Any]:
    """`/poker rules` (or `/okey rules`): the table's rules, or with an option and a value the
    moderator's `rules set name=value`. One of the two without the other is refused privately."""

    @app_commands.command(
        name=L("rules", "kurallar"),
        description=L(
            "The rules of this table; moderators change one (during play: from the next)",
            "Bu masanın kuralları; moderatörler birini değiştirir (oyun sürerken bir sonrakinden)",
        ),
    )
    @app_commands.rename(option=L("option", "seçenek"), value=L("value", "değer"))
    @app_commands.describe(
        option=L("Moderators: the house rule to change", "Moderatörler: değişecek masa kuralı"),
        value=L("Its new value (give the option too)", "Yeni değeri (seçeneği de ver)"),
    )
    @app_commands.choices(option=house.rule_choices(group))
    async def rules(
        interaction: discord.Interaction,
        option: str | None = None,
        value: Range[str, 1, 40] | None = None,
    ) -> None:
        """/poker rules, /okey rules."""
        typed = house.rules_value(value)
        if option and typed:
            await runner.run_command(interaction, group, ("rules", "set", f"{option}={typed}"))
        elif option or value is not None:
            await runner.refuse(interaction, "rules_pair")
        else:
            await runner.run_command(interaction, group, ("rules",))

    @rules.autocomplete("value")
    async def values(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        chosen = getattr(getattr(interaction, "namespace", None), "option", None)
        return house.value_choices(chosen, current)

    return rules


def house_opts(options: tuple[house.HouseOption, ...]) -> tuple[Opt, ...]:
    """The house rule options as optional options with their choices (`house_options`)."""
    return tuple(
        Opt(o.name, L(o.name, o.turkish), o.description, choices=o.choices) for o in options
    )


PRIVACY = picks(
    ("Private, spectators welcome", "Özel, izleyiciler serbest", "private"),
    ("Private, no spectators", "Özel, izleyici yok", "closed"),
)
PRIVATE = Opt(
    "private",
    L("private", "özel"),
    L("Only you and those you invite may sit", "Yalnızca sen ve davet ettiklerin oturabilir"),
    choices=PRIVACY,
)


def private_words(choice: str | None) -> tuple[str, ...]:
    """The core's words of the `private` option (`bot.core.table.private`)."""
    return {"private": ("private",), "closed": ("private", "watchers=off")}.get(choice or "", ())


def poker_open(v: Values) -> tuple[str, ...]:
    """/poker open, each house rule given as a `name=value` word after the others."""
    rules = house.option_words({o.name: v[o.name] for o in house.POKER_OPEN})
    return (*words(v["game"], v["ante"], v["structure"], *rules), *private_words(v["private"]))


def okey_start(v: Values) -> tuple[str, ...]:
    """/okey start (`okey_table`) and its `private` option."""
    return (*okey_table(v), *private_words(v["private"]))


def invitee(v: Values) -> tuple[str, ...]:
    """/table invite, /table uninvite: the user as a mention (`<@id>`) and their name; a bot
    account as a computer (`<@bot-id>`: the core refuses it, as it refuses its own)."""
    user = v["player"]
    prefix = "bot-" if getattr(user, "bot", False) else ""
    return (f"<@{prefix}{user.id}>", *str(getattr(user, "display_name", "") or user.id).split())


def okey_table(v: Values) -> tuple[str, ...]:
    """/okey start, the house rules given as `name=value` words after the others; with `game`
    101 (or any 101 option) it opens a 101 Okey table (`/okey start 101 ...`)."""
    rounds, stake, scoring = v["rounds"], v["stake"], v["scoring"]
    okey101 = {o.name: v[o.name] for o in house.OKEY101_START}
    if v["game"] == "101" or (v["game"] is None and any(x is not None for x in okey101.values())):
        if rounds is not None and okey101["rounds101"] is None:
            okey101["rounds101"] = str(rounds)
        shared = {"takeback": v["takeback"], "speed": v["speed"], "away": v["away"]}
        rules = house.option_words({**okey101, **shared})
        extra = ("scoring=" + scoring,) if scoring else ()  # refused by the core: not 101's
        return words("101", stake, *extra, *rules)
    if stake is not None and rounds is None:
        rounds = 1  # the stake is the second number
    own = {"takeback": v["takeback"], "speed": v["speed"], "away": v["away"]}
    return words(rounds, stake, scoring, *house.option_words(own))


def tournament_okey(v: Values) -> tuple[str, ...]:
    """/tournament okey: every setting as a `name=value` word (`scoring` is the core's
    `preset`); with `game` 101 (or 101's rounds) 101 Okey matches (`/tournament okey 101 ...`),
    their rounds from `rounds101` before `rounds`."""
    game, rounds, rounds101 = v["game"], v["rounds"], v["rounds101"]
    okey101 = game == "101" or (game is None and rounds101 is not None)
    if rounds101 is not None and (okey101 or rounds is None):
        rounds = int(rounds101)  # (the core says why classic Okey refuses 5 rounds and up)
    variant = ("101",) if okey101 else ()
    names = ("tables", "bots", "split", "start")
    settings = {"fee": v["fee"], "rounds": rounds, **{n: v[n] for n in names}}
    return (*variant, *house.option_words({**settings, "preset": v["scoring"]}))


def tournament_poker(v: Values) -> tuple[str, ...]:
    """/tournament poker: the variant, the settings as `name=value` words, then the house
    rules as typed."""
    settings = house.option_words({n: v[n] for n in ("fee", "chips", "minutes")})
    return (v["variant"], *settings, *(v["rules"] or "").split())


Chips = Range[int, 1, MAX_CHIPS]
Fee = Range[int, 0, MAX_CHIPS]
ADDBOT_NAME = L("addbot", "botekle")
ADDBOT_HELP = L("Seat a computer player", "Bilgisayar oyuncu ekle")
LEVEL = Opt("level", LEVEL_NAME, LEVEL_HELP, choices=LEVELS)
TILE = Opt("tile", L("tile", "taş"), L("A tile of my rack, e.g. R5", "Istakamdaki bir taş, ör. R5"))
MELD = Opt(
    "meld",
    L("meld", "per"),
    L("The meld's number on the table message", "Perin masa mesajındaki numarası"),
    Range[int, 1, 99],
    REQUIRED,
)
SHOW_TABLE = Slash("table", L("table", "masa"), L("Show the table again", "Masayı yeniden göster"))
BACK = Slash(
    "back",
    L("back", "geldim"),
    L("I am back: play my own turns again", "Geldim: sıramı yine ben oynayayım"),
)
SCORING = Opt(
    "scoring",
    L("scoring", "puanlama"),
    L("How rounds are scored", "Ellerin nasıl puanlanacağı"),
    choices=PRESETS,
)

POKER = SlashGroup(
    "poker",
    L("poker", "poker"),
    L("Türk pokeri and Açık poker tables", "Türk pokeri ve açık poker masaları"),
    (
        Slash(
            "open",
            L("open", "aç"),
            L("Open a poker table in this channel", "Bu kanalda poker masası aç"),
            (
                Opt(
                    "game",
                    L("game", "oyun"),
                    L("Which poker", "Hangi poker"),
                    str,
                    "turkish",
                    GAMES,
                ),
                Opt(
                    "ante",
                    L("ante", "ante"),
                    L("Ante in chips", "Fiş olarak ante"),
                    Range[int, 1, 1_000_000],
                ),
                Opt(
                    "structure",
                    L("limit", "limit"),
                    L("Betting limit", "Bahis limiti"),
                    choices=STRUCTURES,
                ),
                *house_opts(house.POKER_OPEN),
                PRIVATE,
            ),
            poker_open,
        ),
        Slash(
            "join",
            L("join", "katıl"),
            L("Sit down with a buy-in", "Masaya otur (alış miktarı)"),
            (
                Opt(
                    "buy_in",
                    L("buy-in", "alış"),
                    L("Chips to bring to the table", "Masaya getireceğin fiş"),
                    Chips,
                ),
            ),
        ),
        Slash(
            "addbot",
            ADDBOT_NAME,
            ADDBOT_HELP,
            (
                LEVEL,
                Opt(
                    "buy_in",
                    L("buy-in", "alış"),
                    L("Chips the computer brings", "Bilgisayarın getireceği fiş"),
                    Chips,
                ),
            ),
        ),
        Slash(
            "leave",
            L("leave", "ayrıl"),
            L("Leave the table (after the hand)", "Masadan kalk (el bitince)"),
        ),
        Slash("start", L("start", "başla"), L("Deal a hand", "Eli dağıt")),
        Slash(
            "hand",
            L("hand", "el"),
            L("Show my cards (only to me)", "Kartlarımı göster (yalnız bana)"),
        ),
        SHOW_TABLE,
        BACK,
    ),
)

OKEY = SlashGroup(
    "okey",
    L("okey", "okey"),
    L("Okey tables", "Okey masaları"),
    (
        Slash(
            "start",
            L("start", "başlat"),
            L("Open an Okey table in this channel", "Bu kanalda okey masası aç"),
            (
                Opt(
                    "rounds", L("rounds", "el"), L("How many rounds", "Kaç el"), int, choices=ROUNDS
                ),
                Opt(
                    "stake",
                    L("stake", "bahis"),
                    L("Chips each player puts in", "Her oyuncunun koyacağı fiş"),
                    Chips,
                ),
                SCORING,
                *house_opts(house.OKEY_START),
                OKEY_GAME,
                *house_opts(house.OKEY101_START),
                PRIVATE,
            ),
            okey_start,
        ),
        Slash(
            "take",
            L("take", "çek"),
            L("Take a tile", "Taş çek"),
            (
                Opt(
                    "source",
                    L("from", "nereden"),
                    L("The stock or the tile passed to me", "Desteden ya da bana atılan taşı"),
                    str,
                    REQUIRED,
                    SOURCES,
                ),
            ),
        ),
        Slash(
            "discard",
            L("discard", "at"),
            L("Discard a tile from my rack", "Istakamdan taş at"),
            (TILE._replace(default=REQUIRED, rack=True),),
        ),
        Slash(
            "finish",
            L("finish", "bitir"),
            L("Finish with this tile", "Bu taşla bitir"),
            (
                TILE._replace(
                    description=L("The tile to finish with", "Bitireceğin taş"),
                    default=REQUIRED,
                    rack=True,
                ),
            ),
        ),
        Slash(
            "lay",
            L("lay", "indir"),
            L(
                "101 Okey: open or lay down melds (my best ones unless I name them)",
                "101 Okey: el aç ya da per indir (taş yazmazsam en iyileri)",
            ),
            (
                Opt(
                    "melds",
                    L("melds", "perler"),
                    L(
                        "pairs, or tiles with / between melds, e.g. R9 R10 R11 / K7 B7 Y7",
                        "çift ya da perler arasında / ile taşlar, ör. R9 R10 R11 / K7 B7 Y7",
                    ),
                ),
            ),
            lambda v: words(*(v["melds"] or "").split()),
        ),
        Slash(
            "add",
            L("add", "işle"),
            L("101 Okey: add a tile to a meld on the table", "101 Okey: masadaki pere taş işle"),
            (TILE._replace(default=REQUIRED, rack=True), MELD),
        ),
        Slash(
            "swap",
            L("swap", "takas"),
            L(
                "101 Okey: put a tile in the place of a meld's okey and take the okey",
                "101 Okey: perdeki okeyin yerine taşını koy, okeyi al",
            ),
            (
                TILE._replace(
                    description=L("The tile the okey stands for", "Okeyin yerine geçtiği taş"),
                    default=REQUIRED,
                    rack=True,
                ),
                MELD,
            ),
        ),
        Slash("addbot", ADDBOT_NAME, ADDBOT_HELP, (LEVEL,)),
        Slash(
            "arrange",
            L("arrange", "diz"),
            L("Arrange my rack", "Istakamı diz"),
            (
                Opt(
                    "mode",
                    L("mode", "düzen"),
                    L("Runs and sets, or pairs", "Seri ve per ya da çiftler"),
                    str,
                    "runs",
                    MODES,
                ),
            ),
        ),
        Slash("join", L("join", "katıl"), L("Sit down at the Okey table", "Okey masasına otur")),
        Slash("begin", L("begin", "başla"), L("Deal the tiles", "Taşları dağıt")),
        Slash("show", L("show", "göster"), L("Show the indicator tile", "Gösterge taşını göster")),
        Slash(
            "rack",
            L("rack", "ıstaka"),
            L("Show my rack (only to me)", "Istakamı göster (yalnız bana)"),
        ),
        Slash("leave", L("leave", "ayrıl"), L("Leave the table", "Masadan kalk")),
        SHOW_TABLE,
        BACK,
    ),
)

SWITCH = picks(("on", "açık", "on"), ("off", "kapalı", "off"))
PLAYER = Opt("player", L("player", "oyuncu"), L("Who", "Kim"), discord.User, REQUIRED)

# `/table ...`: moderators' tools, a private table's invitations; the core checks the
# moderator flag the adapter sets
TABLE = SlashGroup(
    "table",
    L("table", "masa"),
    L(
        "Web link, private table invitations; moderators: reset, remove a player",
        "Web bağlantısı, özel masa davetleri; moderatörler: sıfırla, oyuncu çıkar",
    ),
    (
        Slash(
            "reset",
            L("reset", "sıfırla"),
            L("End the table and refund everyone", "Masayı kapat, fişleri geri ver"),
            (
                Opt(
                    "reason",
                    L("reason", "sebep"),
                    L("Why (goes into the log)", "Neden (kayda geçer)"),
                    Range[str, 1, 200],
                ),
            ),
            lambda v: words(*(v["reason"] or "").split()),
        ),
        Slash(
            "kick",
            L("kick", "çıkar"),
            L("Remove a player from the table", "Bir oyuncuyu masadan çıkar"),
            (
                Opt(
                    "player",
                    L("player", "oyuncu"),
                    L("The player's name at the table", "Oyuncunun masadaki adı"),
                    Range[str, 1, 100],
                    REQUIRED,
                ),
            ),
            lambda v: tuple(v["player"].split()),
        ),
        Slash(  # anyone's own link (no moderator needed)
            "web",
            L("web", "canlı"),
            L("Your own link to this table on the web", "Bu masanın sana özel web bağlantısı"),
        ),
        # a private table's opener (`bot.core.table.invites`)
        Slash(
            "invite",
            L("invite", "davet"),
            L("Invite someone to your private table", "Özel masana birini davet et"),
            (PLAYER,),
            invitee,
        ),
        Slash(
            "uninvite",
            L("uninvite", "davetsil"),
            L("Withdraw an invitation", "Bir daveti geri al"),
            (PLAYER,),
            invitee,
        ),
        Slash(
            "watchers",
            L("watchers", "izleyici"),
            L("Let spectators watch your private table", "Özel masanı izleyiciler izlesin mi"),
            (
                Opt(
                    "watch",
                    L("watch", "izlesin"),
                    L("On or off", "Açık ya da kapalı"),
                    str,
                    REQUIRED,
                    SWITCH,
                ),
            ),
        ),
        Slash(
            "join",
            L("join", "katıl"),
            L("Sit down with an invitation", "Bir davetle masaya otur"),
            (
                Opt(
                    "invitation",
                    L("invitation", "davet"),
                    L("The invitation you were sent", "Sana gönderilen davet"),
                    Range[str, 1, 100],
                    REQUIRED,
                ),
            ),
        ),
    ),
)

FEE = Opt("fee", L("fee", "ücret"), L("Entry fee in chips", "Fiş olarak giriş ücreti"), Fee)

# `/tournament ...`: an Okey tournament (or a poker sit-and-go) in this channel
TOURNAMENT = SlashGroup(
    "tournament",
    L("tournament", "turnuva"),
    L("Tournaments in this channel", "Bu kanaldaki turnuvalar"),
    (
        Slash(
            "okey",
            L("okey", "okey"),
            L(
                "Open an Okey (or 101 Okey) tournament here",
                "Burada bir okey (ya da 101 okey) turnuvası aç",
            ),
            (
                FEE,
                Opt(
                    "rounds",
                    L("rounds", "el"),
                    L("Rounds per match", "Maç başına el"),
                    int,
                    choices=ROUNDS,
                ),
                Opt(
                    "tables",
                    L("tables", "masa"),
                    L("Most tables in the first stage", "İlk aşamada en çok masa"),
                    Range[int, 1, 64],
                ),
                Opt(
                    "bots",
                    L("bots", "botlar"),
                    L("Computers fill the tables", "Boş yerleri bilgisayar doldurur"),
                    choices=SWITCH,
                ),
                Opt(
                    "split",
                    L("split", "ödül"),
                    L("Prize shares, e.g. 50/30/20", "Ödül payları, örn. 50/30/20"),
                    Range[str, 1, 40],
                ),
                Opt(
                    "start",
                    L("start", "başlangıç"),
                    L(
                        "Starts by itself at 21:30, or in 15m / 2h",
                        "Saat 21:30'da ya da 15m / 2h sonra kendiliğinden başlar",
                    ),
                    Range[str, 1, 16],
                ),
                SCORING,
                OKEY_GAME,
                *house_opts((ROUNDS101,)),
            ),
            tournament_okey,
        ),
        Slash(
            "poker",
            L("poker", "poker"),
            L("Open a poker sit-and-go here", "Burada tek masalık bir poker turnuvası aç"),
            (
                Opt(
                    "variant",
                    L("variant", "tür"),
                    L("Which poker", "Hangi poker"),
                    str,
                    REQUIRED,
                    GAMES,
                ),
                FEE,
                Opt(
                    "chips",
                    L("chips", "fiş"),
                    L("Starting tournament chips", "Başlangıç turnuva fişi"),
                    Chips,
                ),
                Opt(
                    "minutes",
                    L("minutes", "dakika"),
                    L("Minutes per ante level", "Ante seviyesi başına dakika"),
                    Range[int, 1, 120],
                ),
                Opt(
                    "rules",
                    L("rules", "kurallar"),
                    L(
                        "House rules as at /poker open, e.g. deck=32 odds=off",
                        "/poker aç'taki gibi ev kuralları, örn. deste=32 şans=kapalı",
                    ),
                    Range[str, 1, 200],
                ),
            ),
            tournament_poker,
        ),
        Slash("join", L("join", "katıl"), L("Register for the tournament", "Turnuvaya kaydol")),
        Slash("leave", L("leave", "ayrıl"), L("Leave the tournament", "Turnuvadan ayrıl")),
        Slash(
            "start",
            L("start", "başlat"),
            L("Organiser: start the tournament", "Düzenleyen: turnuvayı başlat"),
        ),
        Slash(
            "standings",
            L("standings", "sıralama"),
            L("The tournament's standings", "Turnuva sıralaması"),
        ),
        Slash(
            "cancel",
            L("cancel", "iptal"),
            L(
                "Organiser or moderator: cancel and refund",
                "Düzenleyen ya da moderatör: iptal et, ücretleri iade et",
            ),
        ),
    ),
)


def install_commands(tree: app_commands.CommandTree[Any], runner: Runner) -> None:
    """Add every command to the tree (global commands; sync them to a guild or everywhere) and
    let the runner answer the tree's errors (e.g. a command Discord still has but this build
    lacks), so no interaction is ever left unanswered."""
    tree.error(runner.command_failed)
    tree.add_command(group(runner, POKER, rules_command(runner, "poker")))
    tree.add_command(group(runner, OKEY, rules_command(runner, "okey")))
    tree.add_command(group(runner, TABLE))
    tree.add_command(group(runner, TOURNAMENT))
    for spec in (*TOP_COMMANDS, SEASON):
        tree.add_command(slash_command(runner, spec.word, spec))
