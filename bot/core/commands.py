"""Command words: English names and their Turkish aliases mapped to one canonical route.

`route(name, args)` turns `/poker katıl 200` into `Route("poker", "join", ("200",))`. Words are
compared after `fold`, so `katıl`, `katil` and `KATIL` are the same word.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.errors import Refusal

_TR_ASCII = str.maketrans("çğıöşüâîûÇĞİIÖŞÜ", "cgiosuaiucgiiosu")


def fold(word: str) -> str:
    """Lower-case a word and drop Turkish diacritics (`Çekil` -> `cekil`)."""
    return word.strip().translate(_TR_ASCII).lower()


def _aliases(table: dict[str, tuple[str, ...]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for canonical, words in table.items():
        for word in (canonical, *words):
            out[fold(word)] = canonical
    return out


TOP = _aliases(
    {
        "help": ("yardım", "h", "start"),
        "lang": ("dil", "language"),
        "tiles": ("taşlar", "taş"),
        "balance": ("bakiye", "fiş", "chips"),
        "daily": ("günlük", "gunluk"),
        "leaderboard": ("sıralama", "top", "lider"),
        "rating": ("puan", "derece", "reyting", "elo"),
        "verify": ("doğrula",),
        "replay": ("tekrar", "izle"),
        "export": ("dışaaktar", "indir"),
        "history": ("geçmiş", "gecmis"),
        "stats": ("istatistik", "istatistikler"),
        "poker": ("pk",),
        "okey": (),
        "table": ("masa",),
        "tournament": ("turnuva",),
        "season": ("sezon",),
    }
)
POKER = _aliases(
    {
        "open": ("aç",),
        "join": ("katıl", "otur"),
        "leave": ("ayrıl", "kalk"),
        "start": ("başla",),
        "hand": ("el", "kartlar", "kart"),
        "table": ("masa",),
        "rules": ("kurallar", "kural"),
        "addbot": ("botekle", "bot"),
        "back": ("geldim", "döndüm"),
        "check": ("bop", "kontrol"),
        "bet": ("vur", "bahis"),
        "call": ("gör",),
        "raise": ("arttır", "artır", "yükselt"),
        "fold": ("çekil", "yat"),
        "pass": ("pas",),
        "draw": ("değiş", "değiştir", "exchange"),
        "pat": ("kartistemem", "stand", "servis"),
    }
)
OKEY = _aliases(
    {
        "start": ("başlat", "aç", "open"),
        "join": ("katıl", "otur"),
        "begin": ("başla",),
        "take": ("çek", "al"),
        "discard": ("at",),
        "arrange": ("diz", "dizi"),
        "show": ("göster", "indicator", "gösterge"),
        "finish": ("bitir",),
        "rack": ("ıstaka", "istaka", "taşlar"),
        "addbot": ("botekle", "bot"),
        "back": ("geldim", "döndüm"),
        "leave": ("ayrıl", "kalk"),
        "rules": ("kurallar", "kural"),
        "table": ("masa",),
        # 101 Okey: open or lay melds, add a tile to a meld on the table, take an okey back
        "lay": ("indir", "per", "ser", "elaç", "elac"),
        "add": ("işle", "isle", "ekle"),
        "swap": ("takas", "okeyal"),
    }
)
TABLE = _aliases(
    {
        "reset": ("sıfırla",),
        "kick": ("at", "çıkar"),
        "web": ("canlı",),
        # private tables (`bot.core.table.invites`)
        "invite": ("davet", "davetet"),
        "uninvite": ("davetsil", "davetiptal"),
        "watchers": ("izleyici", "izleyiciler", "seyirci"),
        "join": ("katıl", "otur"),
    }
)
TAKE_SOURCES = _aliases({"stock": ("deste", "yığın", "orta"), "discard": ("yer", "atılan", "pile")})
# computer player levels for `addbot` (bot.core.table.ai.LEVELS)
LEVELS = _aliases({"easy": ("kolay",), "normal": ("orta",), "hard": ("zor",)})
# `/tiles symbols|colours`: tiles marked with a shape per colour as well, or colours only
TILE_STYLES = _aliases(
    {
        "symbols": ("simge", "simgeler", "şekil", "şekiller", "shapes"),
        "colours": ("renk", "renkler", "colors", "colour", "color"),
    }
)
ARRANGE_MODES = _aliases({"runs": ("seri", "sıralı", "per", "melds"), "pairs": ("çift", "çiftler")})
VARIANTS = _aliases({"turkish": ("türk", "turk", "tr"), "acik": ("açık", "open", "stud")})
STRUCTURES = _aliases(
    {
        "pot_limit": ("pot", "potlimit", "pot-limit"),
        "fixed": ("limit", "sabit"),
        "no_limit": ("nolimit", "no-limit", "limitsiz"),
    }
)
RULES_SUBS = _aliases({"set": ("ayarla", "değiştir")})  # `/poker rules set deck=32`
BOARDS = _aliases(
    {
        "chips": ("fiş", "chip"),
        "okey": (),
        "okey101": ("101", "yüzbir", "yuzbir"),
        "wins": ("galibiyet",),
        "rating": ("puan", "derece", "reyting", "elo"),
    }
)
# `/leaderboard` shows the asker's community unless told `global`
SCOPES = _aliases({"community": ("topluluk", "sunucu", "grup"), "global": ("genel",)})
# `/history [game]`, `/stats [player] [game]`: a game, or "poker" for both poker games
GAME_FILTERS = _aliases(
    {
        "turkish": ("türk", "turk", "tr", "türkpokeri"),
        "acik": ("açık", "stud"),
        "okey": (),
        "okey101": ("101", "yüzbir", "yuzbir"),
        "poker": ("pk",),
    }
)
TOURNAMENT = _aliases(
    {
        "okey": (),
        "poker": ("pk",),
        "join": ("katıl", "katil"),
        "leave": ("ayrıl", "ayril"),
        "start": ("başlat", "baslat"),
        "standings": ("sıralama", "durum"),
        "cancel": ("iptal",),
    }
)
# `/season length monthly|weekly|<days>` (a moderator); any other word is a season number
SEASON_SUBS = _aliases({"length": ("uzunluk", "süre", "boy")})
SUBCOMMANDS = {"poker": POKER, "okey": OKEY, "table": TABLE, "tournament": TOURNAMENT}


@dataclass(frozen=True)
class Route:
    """A command resolved to its canonical group, sub-command (or None) and remaining words."""

    group: str | None
    sub: str | None
    args: tuple[str, ...]
    word: str  # what the user typed, for error messages


def route(name: str, args: tuple[str, ...]) -> Route:
    """Resolve a command name and its words; `group` is None for an unknown command and `sub` is
    None when a group needs a sub-command that is missing or unknown."""
    group = TOP.get(fold(name))
    if group is None:
        return Route(None, None, args, name)
    subs = SUBCOMMANDS.get(group)
    if subs is None:
        return Route(group, None, args, name)
    if not args:
        return Route(group, None, (), name)
    sub = subs.get(fold(args[0]))
    return Route(group, sub, args[1:], args[0] if sub is None else name)


def lookup(table: dict[str, str], word: str | None) -> str | None:
    """The canonical word for `word` in an alias table, or None."""
    return None if word is None else table.get(fold(word))


MAX_DIGITS = 12  # more chips than any table holds; a longer number gets a range error


def is_ascii_number(word: str) -> bool:
    """Whether `word` is written with the digits 0-9 only (`str.isdigit` also passes `²`, `①`
    and other scripts' digits, which `int` then refuses or reads differently)."""
    return word.isascii() and word.isdigit()


def parse_int(word: str) -> int | None:
    """A whole number written with the digits 0-9, optionally grouped (`1.000`, `1,000`,
    `1_000` and `1000` are all one thousand); None for anything else (signs, fractions, other
    scripts' digits, words). A number longer than `MAX_DIGITS` digits is refused with
    `err.number_too_big` rather than read."""
    text = word.strip().replace(".", "").replace(",", "").replace("_", "")
    if not is_ascii_number(text):
        return None
    if len(text.lstrip("0")) > MAX_DIGITS:
        raise Refusal("err.number_too_big", max=MAX_DIGITS)
    return int(text)
