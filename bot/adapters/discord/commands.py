"""The slash command tree: groups, options, choices, autocomplete, and their Turkish names.

Every callback only turns its options into the words of a core `Command` (English canonical
words, as `/help` shows them) and hands them to the adapter; the core decides everything else.
Names and descriptions are `locale_str`s whose `tr` extra is the Turkish text; `Translator`
gives Discord those for the `tr` locale (English is the default).
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

import discord
from discord import app_commands
from discord.app_commands import Choice, Range, locale_str

from bot.adapters.discord import house_options as house
from bot.adapters.discord.l10n import L

MAX_CHIPS = 1_000_000_000


class Runner(Protocol):
    """What the commands call on the adapter."""

    async def run_command(self, interaction: Any, name: str, args: tuple[str, ...]) -> None: ...

    async def rack_choices(self, interaction: Any, current: str) -> list[Choice[str]]: ...

    async def command_failed(self, interaction: Any, error: Exception) -> None: ...

    async def refuse(self, interaction: Any, key: str) -> None: ...


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


def words(*parts: object) -> tuple[str, ...]:
    """The given options as command words, leaving out the ones not given."""
    return tuple(str(p) for p in parts if p is not None and str(p) != "")


class Plain(NamedTuple):
    """A command without options: its core word, its name and its description."""

    word: str
    name: locale_str
    description: locale_str


def plain_command(runner: Runner, group: str, spec: Plain) -> app_commands.Command[Any, ..., Any]:
    """The command for `spec`: hands the core `group` with `spec.word` (nothing more for a
    top-level command, whose group is its word)."""
    args = () if spec.word == group else (spec.word,)

    async def callback(interaction: discord.Interaction) -> None:
        await runner.run_command(interaction, group, args)

    return app_commands.Command(name=spec.name, description=spec.description, callback=callback)


ADDBOT = Plain(
    "addbot", L("addbot", "botekle"), L("Seat a computer player", "Bilgisayar oyuncu ekle")
)
SHOW_TABLE = Plain("table", L("table", "masa"), L("Show the table again", "Masayı yeniden göster"))
BACK = Plain(
    "back",
    L("back", "geldim"),
    L("I am back: play my own turns again", "Geldim: sıramı yine ben oynayayım"),
)
POKER_PLAIN = (
    Plain(
        "leave",
        L("leave", "ayrıl"),
        L("Leave the table (after the hand)", "Masadan kalk (el bitince)"),
    ),
    Plain("start", L("start", "başla"), L("Deal a hand", "Eli dağıt")),
    Plain(
        "hand", L("hand", "el"), L("Show my cards (only to me)", "Kartlarımı göster (yalnız bana)")
    ),
    SHOW_TABLE,
    BACK,
)
OKEY_PLAIN = (
    Plain("join", L("join", "katıl"), L("Sit down at the Okey table", "Okey masasına otur")),
    Plain("begin", L("begin", "başla"), L("Deal the tiles", "Taşları dağıt")),
    Plain("show", L("show", "göster"), L("Show the indicator tile", "Gösterge taşını göster")),
    Plain(
        "rack", L("rack", "ıstaka"), L("Show my rack (only to me)", "Istakamı göster (yalnız bana)")
    ),
    Plain("leave", L("leave", "ayrıl"), L("Leave the table", "Masadan kalk")),
    SHOW_TABLE,
    BACK,
)
TOP_PLAIN = (
    Plain("balance", L("balance", "bakiye"), L("My chips (only to me)", "Fişlerim (yalnız bana)")),
    Plain("daily", L("daily", "günlük"), L("Today's free chips", "Günün bedava fişleri")),
    Plain("help", L("help", "yardım"), L("The bot's commands", "Botun komutları")),
)


GAMES = [
    Choice(name=L("Türk pokeri", "Türk pokeri"), value="turkish"),
    Choice(name=L("Açık poker", "Açık poker"), value="acik"),
]
STRUCTURES = [
    Choice(name=L("Pot limit", "Pot limit"), value="pot"),
    Choice(name=L("Fixed limit", "Sabit limit"), value="fixed"),
    Choice(name=L("No limit", "Limitsiz"), value="nolimit"),
]
ROUNDS = [Choice(name=L("1 round", "1 el"), value=1), Choice(name=L("3 rounds", "3 el"), value=3)]
OKEYS = [
    Choice(name=L("Okey (classic)", "Okey (klasik)"), value="okey"),
    Choice(name=L("101 Okey", "101 Okey"), value="101"),
]
SOURCES = [
    Choice(name=L("Stock (face down)", "Deste (kapalı)"), value="stock"),
    Choice(name=L("Discard (the tile passed to me)", "Yerdeki taş (bana atılan)"), value="discard"),
]
PRESETS = [
    Choice(name=L("Penalty points", "Ceza puanı"), value="penalty"),
    Choice(name=L("Classic (count down from 20)", "Klasik (20'den geriye)"), value="classic"),
]
LEVELS = [
    Choice(name=L("Easy", "Kolay"), value="easy"),
    Choice(name=L("Normal (default)", "Orta (varsayılan)"), value="normal"),
    Choice(name=L("Hard", "Zor"), value="hard"),
]
LEVEL_NAME = L("level", "seviye")
LEVEL_HELP = L("How well the computer plays", "Bilgisayarın ne kadar iyi oynadığı")
MODES = [
    Choice(name=L("Runs and sets", "Seri ve per"), value="runs"),
    Choice(name=L("Pairs", "Çiftler"), value="pairs"),
]
BOARDS = [
    Choice(name=L("Chips", "Fiş"), value="chips"),
    Choice(name=L("Okey", "Okey"), value="okey"),
    Choice(name=L("101 Okey (average per round)", "101 Okey (el başına ortalama)"), value="101"),
    Choice(name=L("Wins", "Galibiyet"), value="wins"),
]
SCOPES = [
    Choice(name=L("This community", "Bu topluluk"), value="community"),
    Choice(name=L("Everyone (global)", "Herkes (genel)"), value="global"),
]
PLAYED_GAMES = [
    *GAMES,
    Choice(name=L("Okey", "Okey"), value="okey"),
    Choice(name=L("101 Okey", "101 Okey"), value="101"),
]
ROUNDS101 = house.BY_NAME["rounds101"]
LANGUAGES = [
    Choice(name=L("Türkçe", "Türkçe"), value="tr"),
    Choice(name=L("English", "English"), value="en"),
]


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


class PokerCommands(app_commands.Group):
    """`/poker ...`: Türk pokeri and Açık poker tables."""

    def __init__(self, runner: Runner) -> None:
        super().__init__(
            name=L("poker", "poker"),
            description=L(
                "Türk pokeri and Açık poker tables", "Türk pokeri ve açık poker masaları"
            ),
            guild_only=True,
        )
        self.runner = runner
        for spec in POKER_PLAIN:
            self.add_command(plain_command(runner, "poker", spec))
        self.add_command(rules_command(runner, "poker"))

    async def _run(self, interaction: discord.Interaction, *args: object) -> None:
        await self.runner.run_command(interaction, "poker", words(*args))

    @app_commands.command(
        name=L("open", "aç"),
        description=L("Open a poker table in this channel", "Bu kanalda poker masası aç"),
    )
    @app_commands.rename(
        game=L("game", "oyun"),
        ante=L("ante", "ante"),
        structure=L("limit", "limit"),
        **house.renames(house.POKER_OPEN),
    )
    @app_commands.describe(
        game=L("Which poker", "Hangi poker"),
        ante=L("Ante in chips", "Fiş olarak ante"),
        structure=L("Betting limit", "Bahis limiti"),
        **house.descriptions(house.POKER_OPEN),
    )
    @app_commands.choices(game=GAMES, structure=STRUCTURES, **house.choices(house.POKER_OPEN))
    async def cmd_open(
        self,
        interaction: discord.Interaction,
        game: str = "turkish",
        ante: Range[int, 1, 1_000_000] | None = None,
        structure: str | None = None,
        deck: str | None = None,
        suits: str | None = None,
        twopair: str | None = None,
        flushfour: str | None = None,
        void: str | None = None,
        peek: str | None = None,
        odds: str | None = None,
    ) -> None:
        """/poker open, each house rule given as a `name=value` word after the others."""
        rules = house.option_words(
            {
                "deck": deck,
                "suits": suits,
                "twopair": twopair,
                "flushfour": flushfour,
                "void": void,
                "peek": peek,
                "odds": odds,
            }
        )
        await self._run(interaction, "open", game, ante, structure, *rules)

    @app_commands.command(
        name=L("join", "katıl"),
        description=L("Sit down with a buy-in", "Masaya otur (alış miktarı)"),
    )
    @app_commands.rename(buy_in=L("buy-in", "alış"))
    @app_commands.describe(buy_in=L("Chips to bring to the table", "Masaya getireceğin fiş"))
    async def cmd_join(
        self, interaction: discord.Interaction, buy_in: Range[int, 1, MAX_CHIPS] | None = None
    ) -> None:
        """/poker join."""
        await self._run(interaction, "join", buy_in)

    @app_commands.command(name=ADDBOT.name, description=ADDBOT.description)
    @app_commands.rename(level=LEVEL_NAME, buy_in=L("buy-in", "alış"))
    @app_commands.describe(
        level=LEVEL_HELP, buy_in=L("Chips the computer brings", "Bilgisayarın getireceği fiş")
    )
    @app_commands.choices(level=LEVELS)
    async def cmd_addbot(
        self,
        interaction: discord.Interaction,
        level: str | None = None,
        buy_in: Range[int, 1, MAX_CHIPS] | None = None,
    ) -> None:
        """/poker addbot."""
        await self._run(interaction, "addbot", level, buy_in)


class OkeyCommands(app_commands.Group):
    """`/okey ...`: Okey tables."""

    def __init__(self, runner: Runner) -> None:
        super().__init__(
            name=L("okey", "okey"),
            description=L("Okey tables", "Okey masaları"),
            guild_only=True,
        )
        self.runner = runner
        for spec in OKEY_PLAIN:
            self.add_command(plain_command(runner, "okey", spec))
        self.add_command(rules_command(runner, "okey"))

    async def _run(self, interaction: discord.Interaction, *args: object) -> None:
        await self.runner.run_command(interaction, "okey", words(*args))

    @app_commands.command(
        name=L("start", "başlat"),
        description=L("Open an Okey table in this channel", "Bu kanalda okey masası aç"),
    )
    @app_commands.rename(
        rounds=L("rounds", "el"),
        stake=L("stake", "bahis"),
        scoring=L("scoring", "puanlama"),
        game=L("game", "oyun"),
        **house.renames(house.OKEY_START),
        **house.renames(house.OKEY101_START),
    )
    @app_commands.describe(
        rounds=L("How many rounds", "Kaç el"),
        stake=L("Chips each player puts in", "Her oyuncunun koyacağı fiş"),
        scoring=L("How rounds are scored", "Ellerin nasıl puanlanacağı"),
        game=L("Classic Okey or 101 Okey", "Klasik okey ya da 101 okey"),
        **house.descriptions(house.OKEY_START),
        **house.descriptions(house.OKEY101_START),
    )
    # int and str choices side by side; discord.py's stubs infer one choice type
    @app_commands.choices(  # type: ignore[misc]
        rounds=ROUNDS,
        scoring=PRESETS,
        game=OKEYS,
        **house.choices(house.OKEY_START),
        **house.choices(house.OKEY101_START),
    )
    async def cmd_start(
        self,
        interaction: discord.Interaction,
        rounds: int | None = None,
        stake: Range[int, 1, MAX_CHIPS] | None = None,
        scoring: str | None = None,
        takeback: str | None = None,
        game: str | None = None,
        open: str | None = None,
        rounds101: str | None = None,
        partners: str | None = None,
        doubling: str | None = None,
        swap_okey: str | None = None,
        pairs_max: str | None = None,
        payout: str | None = None,
    ) -> None:
        """/okey start, the house rules given as `name=value` words after the others; with
        `game` 101 (or any 101 option) it opens a 101 Okey table (`/okey start 101 ...`)."""
        okey101 = {
            "open": open,
            "rounds101": rounds101,
            "partners": partners,
            "doubling": doubling,
            "swap_okey": swap_okey,
            "pairs_max": pairs_max,
            "payout": payout,
        }
        if game == "101" or (game is None and any(v is not None for v in okey101.values())):
            if rounds is not None and rounds101 is None:
                okey101["rounds101"] = str(rounds)
            rules = house.option_words({**okey101, "takeback": takeback})
            extra = ("scoring=" + scoring,) if scoring else ()  # refused by the core: not 101's
            await self._run(interaction, "start", "101", stake, *extra, *rules)
            return
        if stake is not None and rounds is None:
            rounds = 1  # the stake is the second number
        rules = house.option_words({"takeback": takeback})
        await self._run(interaction, "start", rounds, stake, scoring, *rules)

    @app_commands.command(name=L("take", "çek"), description=L("Take a tile", "Taş çek"))
    @app_commands.rename(source=L("from", "nereden"))
    @app_commands.describe(
        source=L("The stock or the tile passed to me", "Desteden ya da bana atılan taşı")
    )
    @app_commands.choices(source=SOURCES)
    async def cmd_take(self, interaction: discord.Interaction, source: str) -> None:
        """/okey take."""
        await self._run(interaction, "take", source)

    @app_commands.command(
        name=L("discard", "at"), description=L("Discard a tile from my rack", "Istakamdan taş at")
    )
    @app_commands.rename(tile=L("tile", "taş"))
    @app_commands.describe(tile=L("A tile of my rack, e.g. R5", "Istakamdaki bir taş, ör. R5"))
    async def cmd_discard(self, interaction: discord.Interaction, tile: str) -> None:
        """/okey discard."""
        await self._run(interaction, "discard", tile)

    @app_commands.command(
        name=L("finish", "bitir"), description=L("Finish with this tile", "Bu taşla bitir")
    )
    @app_commands.rename(tile=L("tile", "taş"))
    @app_commands.describe(tile=L("The tile to finish with", "Bitireceğin taş"))
    async def cmd_finish(self, interaction: discord.Interaction, tile: str) -> None:
        """/okey finish."""
        await self._run(interaction, "finish", tile)

    @app_commands.command(
        name=L("lay", "indir"),
        description=L(
            "101 Okey: open or lay down melds (my best ones unless I name them)",
            "101 Okey: el aç ya da per indir (taş yazmazsam en iyileri)",
        ),
    )
    @app_commands.rename(melds=L("melds", "perler"))
    @app_commands.describe(
        melds=L(
            "pairs, or tiles with / between melds, e.g. R9 R10 R11 / K7 B7 Y7",
            "çift ya da perler arasında / ile taşlar, ör. R9 R10 R11 / K7 B7 Y7",
        )
    )
    async def cmd_lay(self, interaction: discord.Interaction, melds: str | None = None) -> None:
        """/okey lay (101)."""
        await self._run(interaction, "lay", *(melds or "").split())

    @app_commands.command(
        name=L("add", "işle"),
        description=L(
            "101 Okey: add a tile to a meld on the table", "101 Okey: masadaki pere taş işle"
        ),
    )
    @app_commands.rename(tile=L("tile", "taş"), meld=L("meld", "per"))
    @app_commands.describe(
        tile=L("A tile of my rack, e.g. R5", "Istakamdaki bir taş, ör. R5"),
        meld=L("The meld's number on the table message", "Perin masa mesajındaki numarası"),
    )
    async def cmd_add(
        self, interaction: discord.Interaction, tile: str, meld: Range[int, 1, 99]
    ) -> None:
        """/okey add (101)."""
        await self._run(interaction, "add", tile, meld)

    @app_commands.command(
        name=L("swap", "takas"),
        description=L(
            "101 Okey: put a tile in the place of a meld's okey and take the okey",
            "101 Okey: perdeki okeyin yerine taşını koy, okeyi al",
        ),
    )
    @app_commands.rename(tile=L("tile", "taş"), meld=L("meld", "per"))
    @app_commands.describe(
        tile=L("The tile the okey stands for", "Okeyin yerine geçtiği taş"),
        meld=L("The meld's number on the table message", "Perin masa mesajındaki numarası"),
    )
    async def cmd_swap(
        self, interaction: discord.Interaction, tile: str, meld: Range[int, 1, 99]
    ) -> None:
        """/okey swap (101)."""
        await self._run(interaction, "swap", tile, meld)

    @app_commands.command(name=ADDBOT.name, description=ADDBOT.description)
    @app_commands.rename(level=LEVEL_NAME)
    @app_commands.describe(level=LEVEL_HELP)
    @app_commands.choices(level=LEVELS)
    async def cmd_addbot(self, interaction: discord.Interaction, level: str | None = None) -> None:
        """/okey addbot."""
        await self._run(interaction, "addbot", level)

    @app_commands.command(
        name=L("arrange", "diz"), description=L("Arrange my rack", "Istakamı diz")
    )
    @app_commands.rename(mode=L("mode", "düzen"))
    @app_commands.describe(mode=L("Runs and sets, or pairs", "Seri ve per ya da çiftler"))
    @app_commands.choices(mode=MODES)
    async def cmd_arrange(self, interaction: discord.Interaction, mode: str = "runs") -> None:
        """/okey arrange."""
        await self._run(interaction, "arrange", mode)

    @cmd_discard.autocomplete("tile")
    @cmd_finish.autocomplete("tile")
    @cmd_add.autocomplete("tile")
    @cmd_swap.autocomplete("tile")
    async def _rack_tiles(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        return await self.runner.rack_choices(interaction, current)


class TableCommands(app_commands.Group):
    """`/table ...`: moderators' tools; the core checks the moderator flag the adapter sets."""

    def __init__(self, runner: Runner) -> None:
        super().__init__(
            name=L("table", "masa"),
            description=L(
                "The table's web link; moderators: reset a table or remove a player",
                "Masanın web bağlantısı; moderatörler: masayı sıfırla ya da oyuncu çıkar",
            ),
            guild_only=True,
        )
        self.runner = runner

    @app_commands.command(
        name=L("reset", "sıfırla"),
        description=L("End the table and refund everyone", "Masayı kapat, fişleri geri ver"),
    )
    @app_commands.rename(reason=L("reason", "sebep"))
    @app_commands.describe(reason=L("Why (goes into the log)", "Neden (kayda geçer)"))
    async def cmd_reset(
        self, interaction: discord.Interaction, reason: Range[str, 1, 200] | None = None
    ) -> None:
        """/table reset."""
        await self.runner.run_command(
            interaction, "table", ("reset", *words(*(reason or "").split()))
        )

    @app_commands.command(
        name=L("kick", "çıkar"),
        description=L("Remove a player from the table", "Bir oyuncuyu masadan çıkar"),
    )
    @app_commands.rename(player=L("player", "oyuncu"))
    @app_commands.describe(player=L("The player's name at the table", "Oyuncunun masadaki adı"))
    async def cmd_kick(self, interaction: discord.Interaction, player: Range[str, 1, 100]) -> None:
        """/table kick."""
        await self.runner.run_command(interaction, "table", ("kick", *player.split()))

    @app_commands.command(
        name=L("web", "canlı"),
        description=L(
            "Your own link to this table on the web", "Bu masanın sana özel web bağlantısı"
        ),
    )
    async def cmd_web(self, interaction: discord.Interaction) -> None:
        """/table web: anyone's own link (no moderator needed)."""
        await self.runner.run_command(interaction, "table", ("web",))


TOURNAMENT_PLAIN = (
    Plain("join", L("join", "katıl"), L("Register for the tournament", "Turnuvaya kaydol")),
    Plain("leave", L("leave", "ayrıl"), L("Leave the tournament", "Turnuvadan ayrıl")),
    Plain(
        "start",
        L("start", "başlat"),
        L("Organiser: start the tournament", "Düzenleyen: turnuvayı başlat"),
    ),
    Plain(
        "standings",
        L("standings", "sıralama"),
        L("The tournament's standings", "Turnuva sıralaması"),
    ),
    Plain(
        "cancel",
        L("cancel", "iptal"),
        L(
            "Organiser or moderator: cancel and refund",
            "Düzenleyen ya da moderatör: iptal et, ücretleri iade et",
        ),
    ),
)
SWITCH = [Choice(name=L("on", "açık"), value="on"), Choice(name=L("off", "kapalı"), value="off")]
SIT_AND_GO = [
    Choice(name=L("Türk pokeri", "Türk pokeri"), value="turkish"),
    Choice(name=L("Açık poker", "Açık poker"), value="acik"),
]


class TournamentCommands(app_commands.Group):
    """`/tournament ...`: an Okey tournament (or a poker sit-and-go) in this channel."""

    def __init__(self, runner: Runner) -> None:
        super().__init__(
            name=L("tournament", "turnuva"),
            description=L("Tournaments in this channel", "Bu kanaldaki turnuvalar"),
            guild_only=True,
        )
        self.runner = runner
        for spec in TOURNAMENT_PLAIN:
            self.add_command(plain_command(runner, "tournament", spec))

    @app_commands.command(
        name=L("okey", "okey"),
        description=L(
            "Open an Okey (or 101 Okey) tournament here",
            "Burada bir okey (ya da 101 okey) turnuvası aç",
        ),
    )
    @app_commands.rename(
        game=L("game", "oyun"),
        **house.renames((ROUNDS101,)),
        fee=L("fee", "ücret"),
        rounds=L("rounds", "el"),
        tables=L("tables", "masa"),
        bots=L("bots", "botlar"),
        split=L("split", "ödül"),
        start=L("start", "başlangıç"),
        scoring=L("scoring", "puanlama"),
    )
    @app_commands.describe(
        game=L("Classic Okey or 101 Okey", "Klasik okey ya da 101 okey"),
        **house.descriptions((ROUNDS101,)),
        fee=L("Entry fee in chips", "Fiş olarak giriş ücreti"),
        scoring=L("How rounds are scored", "Ellerin nasıl puanlanacağı"),
        rounds=L("Rounds per match", "Maç başına el"),
        tables=L("Most tables in the first stage", "İlk aşamada en çok masa"),
        bots=L("Computers fill the tables", "Boş yerleri bilgisayar doldurur"),
        split=L("Prize shares, e.g. 50/30/20", "Ödül payları, örn. 50/30/20"),
        start=L(
            "Starts by itself at 21:30, or in 15m / 2h",
            "Saat 21:30'da ya da 15m / 2h sonra kendiliğinden başlar",
        ),
    )
    # int and str choices side by side; discord.py's stubs infer one choice type
    @app_commands.choices(  # type: ignore[misc]
        rounds=ROUNDS,
        bots=SWITCH,
        scoring=PRESETS,
        game=OKEYS,
        **house.choices((ROUNDS101,)),
    )
    async def cmd_okey(
        self,
        interaction: discord.Interaction,
        fee: Range[int, 0, MAX_CHIPS] | None = None,
        rounds: int | None = None,
        tables: Range[int, 1, 64] | None = None,
        bots: str | None = None,
        split: Range[str, 1, 40] | None = None,
        start: Range[str, 1, 16] | None = None,
        scoring: str | None = None,
        game: str | None = None,
        rounds101: str | None = None,
    ) -> None:
        """/tournament okey; with `game` 101 (or 101's rounds) 101 Okey matches
        (`/tournament okey 101 ...`), their rounds from `rounds101` before `rounds`."""
        okey101 = game == "101" or (game is None and rounds101 is not None)
        if rounds101 is not None and (okey101 or rounds is None):
            rounds = int(rounds101)  # (the core says why classic Okey refuses 5 rounds and up)
        variant = ("101",) if okey101 else ()
        settings = house.option_words(
            {
                "fee": fee,
                "rounds": rounds,
                "tables": tables,
                "bots": bots,
                "split": split,
                "start": start,
                "preset": scoring,
            }
        )
        await self.runner.run_command(interaction, "tournament", ("okey", *variant, *settings))

    @app_commands.command(
        name=L("poker", "poker"),
        description=L("Open a poker sit-and-go here", "Burada tek masalık bir poker turnuvası aç"),
    )
    @app_commands.rename(
        variant=L("variant", "tür"),
        fee=L("fee", "ücret"),
        chips=L("chips", "fiş"),
        minutes=L("minutes", "dakika"),
        rules=L("rules", "kurallar"),
    )
    @app_commands.describe(
        variant=L("Which poker", "Hangi poker"),
        fee=L("Entry fee in chips", "Fiş olarak giriş ücreti"),
        chips=L("Starting tournament chips", "Başlangıç turnuva fişi"),
        minutes=L("Minutes per ante level", "Ante seviyesi başına dakika"),
        rules=L(
            "House rules as at /poker open, e.g. deck=32 odds=off",
            "/poker aç'taki gibi ev kuralları, örn. deste=32 şans=kapalı",
        ),
    )
    @app_commands.choices(variant=SIT_AND_GO)
    async def cmd_poker(
        self,
        interaction: discord.Interaction,
        variant: str,
        fee: Range[int, 0, MAX_CHIPS] | None = None,
        chips: Range[int, 1, MAX_CHIPS] | None = None,
        minutes: Range[int, 1, 120] | None = None,
        rules: Range[str, 1, 200] | None = None,
    ) -> None:
        """/tournament poker."""
        settings = house.option_words({"fee": fee, "chips": chips, "minutes": minutes})
        typed = tuple((rules or "").split())  # the house rules, as typed
        await self.runner.run_command(
            interaction, "tournament", ("poker", variant, *settings, *typed)
        )


def top_level(runner: Runner) -> list[app_commands.Command[Any, ..., Any]]:
    """`/balance`, `/daily`, `/leaderboard`, `/verify`, `/lang`, `/help` and the history
    commands."""

    @app_commands.command(
        name=L("leaderboard", "sıralama"), description=L("The best players", "En iyi oyuncular")
    )
    @app_commands.rename(board=L("board", "tablo"), scope=L("scope", "kapsam"))
    @app_commands.describe(
        board=L(
            "Chips, Okey points, 101 average or wins",
            "Fiş, okey puanı, 101 ortalaması ya da galibiyet",
        ),
        scope=L("This community (default) or everyone", "Bu topluluk (varsayılan) ya da herkes"),
    )
    @app_commands.choices(board=BOARDS, scope=SCOPES)
    async def leaderboard(
        interaction: discord.Interaction, board: str = "chips", scope: str = "community"
    ) -> None:
        """/leaderboard: the community's list unless `global` is asked for."""
        await runner.run_command(
            interaction, "leaderboard", words(board, "global" if scope == "global" else None)
        )

    @app_commands.command(
        name=L("verify", "doğrula"),
        description=L(
            "Check that a hand's shuffle was fair", "Bir elin karıştırmasının adil olduğunu doğrula"
        ),
    )
    @app_commands.rename(hand=L("hand", "el"))
    @app_commands.describe(hand=L("The hand id, e.g. 12-3", "El numarası, ör. 12-3"))
    async def verify(interaction: discord.Interaction, hand: Range[str, 1, 40]) -> None:
        """/verify."""
        await runner.run_command(interaction, "verify", (hand.strip(),))

    @app_commands.command(
        name=L("lang", "dil"),
        description=L("My language for the bot", "Botun benimle konuşacağı dil"),
    )
    @app_commands.rename(language=L("language", "dil"))
    @app_commands.describe(language=L("Turkish or English", "Türkçe ya da İngilizce"))
    @app_commands.choices(language=LANGUAGES)
    async def lang(interaction: discord.Interaction, language: str) -> None:
        """/lang."""
        await runner.run_command(interaction, "lang", (language,))

    return [
        *(plain_command(runner, spec.word, spec) for spec in TOP_PLAIN),
        leaderboard,
        verify,
        lang,
        *history_commands(runner),
    ]


def hand_command(
    runner: Runner, word: str, name: locale_str, description: locale_str
) -> app_commands.Command[Any, ..., Any]:
    """A command taking one hand or round id (`/replay 12-3`, `/export 12-3`)."""

    @app_commands.rename(hand=L("hand", "el"))
    @app_commands.describe(hand=L("The hand or round id, e.g. 12-3", "El numarası, ör. 12-3"))
    async def callback(interaction: discord.Interaction, hand: Range[str, 1, 40]) -> None:
        await runner.run_command(interaction, word, (hand.strip(),))

    return app_commands.Command(name=name, description=description, callback=callback)


def history_commands(runner: Runner) -> list[app_commands.Command[Any, ..., Any]]:
    """`/history`, `/stats`, `/replay`, `/export`: answered privately (ephemeral) by the core."""

    @app_commands.command(
        name=L("history", "geçmiş"),
        description=L(
            "My last hands and rounds (only to me)", "Son ellerim ve oyunlarım (yalnız bana)"
        ),
    )
    @app_commands.rename(game=L("game", "oyun"))
    @app_commands.describe(game=L("Only this game", "Yalnız bu oyun"))
    @app_commands.choices(game=PLAYED_GAMES)
    async def history(interaction: discord.Interaction, game: str | None = None) -> None:
        """/history."""
        await runner.run_command(interaction, "history", words(game))

    @app_commands.command(
        name=L("stats", "istatistik"),
        description=L(
            "A player's statistics (only to me)", "Bir oyuncunun istatistikleri (yalnız bana)"
        ),
    )
    @app_commands.rename(player=L("player", "oyuncu"), game=L("game", "oyun"))
    @app_commands.describe(
        player=L("Whose (default: mine)", "Kimin (varsayılan: benim)"),
        game=L("Only this game", "Yalnız bu oyun"),
    )
    @app_commands.choices(game=PLAYED_GAMES)
    async def stats(
        interaction: discord.Interaction,
        player: discord.User | None = None,
        game: str | None = None,
    ) -> None:
        """/stats: the player as a mention (`<@id>`), as it reads in a typed Discord message."""
        who = None if player is None else f"<@{player.id}>"
        await runner.run_command(interaction, "stats", words(who, game))

    replay = hand_command(
        runner,
        "replay",
        L("replay", "tekrar"),
        L(
            "A finished hand step by step (only to me)",
            "Bitmiş bir eli adım adım izle (yalnız bana)",
        ),
    )
    export = hand_command(
        runner,
        "export",
        L("export", "dışaaktar"),
        L(
            "A finished hand's history as a file (only to me)",
            "Bitmiş bir elin kaydı dosya olarak (yalnız bana)",
        ),
    )
    return [history, stats, replay, export]


def install_commands(tree: app_commands.CommandTree[Any], runner: Runner) -> None:
    """Add every command to the tree (global commands; sync them to a guild or everywhere) and
    let the runner answer the tree's errors (e.g. a command Discord still has but this build
    lacks), so no interaction is ever left unanswered."""
    tree.error(runner.command_failed)
    tree.add_command(PokerCommands(runner))
    tree.add_command(OkeyCommands(runner))
    tree.add_command(TableCommands(runner))
    tree.add_command(TournamentCommands(runner))
    for command in top_level(runner):
        tree.add_command(command)
