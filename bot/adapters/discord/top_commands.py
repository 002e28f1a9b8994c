"""The commands outside the groups: `/balance`, `/daily`, `/help`, `/leaderboard`, `/verify`,
`/lang`, `/tiles`, `/rating` and the history commands (`/history`, `/stats`, `/replay`, `/export`), as data for
`slash.command` (see `commands.py`, which installs them beside the groups)."""

from __future__ import annotations

import discord
from discord.app_commands import Range

from bot.adapters.discord.l10n import L
from bot.adapters.discord.slash import REQUIRED, Opt, Slash, Values, picks, words

BOARDS = picks(
    ("Chips", "Fiş", "chips"),
    ("Okey", "Okey", "okey"),
    ("101 Okey (average per round)", "101 Okey (el başına ortalama)", "101"),
    ("Wins", "Galibiyet", "wins"),
    ("Skill rating", "Beceri puanı", "rating"),
)
SCOPES = picks(
    ("This community", "Bu topluluk", "community"),
    ("Everyone (global)", "Herkes (genel)", "global"),
)
PLAYED_GAMES = picks(
    ("Türk pokeri", "Türk pokeri", "turkish"),
    ("Açık poker", "Açık poker", "acik"),
    ("Okey", "Okey", "okey"),
    ("101 Okey", "101 Okey", "101"),
)
LANGUAGES = picks(("Türkçe", "Türkçe", "tr"), ("English", "English", "en"))
TILE_STYLES = picks(
    ("A shape for each colour (● ▲ ■ ◆)", "Her renge bir şekil (● ▲ ■ ◆)", "symbols"),
    ("Colours only", "Yalnız renkler", "colours"),
)

HAND = Opt(
    "hand",
    L("hand", "el"),
    L("The hand or round id, e.g. 12-3", "El numarası, ör. 12-3"),
    Range[str, 1, 40],
    REQUIRED,
)
PLAYED_GAME = Opt("game", L("game", "oyun"), L("Only this game", "Yalnız bu oyun"))
WHOSE = Opt(
    "player",
    L("player", "oyuncu"),
    L("Whose (default: mine)", "Kimin (varsayılan: benim)"),
    discord.User,
)


def one_hand(v: Values) -> tuple[str, ...]:
    """A hand or round id (`/verify 12-3`, `/replay 12-3`)."""
    return (v["hand"].strip(),)


def stats_of(v: Values) -> tuple[str, ...]:
    """/stats: the player as a mention (`<@id>`), as it reads in a typed Discord message."""
    player = v["player"]
    return words(None if player is None else f"<@{player.id}>", v["game"])


# `/balance`, `/daily`, `/help`, `/leaderboard`, `/verify`, `/lang`, `/tiles` and the history commands
# (`/history`, `/stats`, `/replay`, `/export`: answered privately by the core)
TOP_COMMANDS = (
    Slash("balance", L("balance", "bakiye"), L("My chips (only to me)", "Fişlerim (yalnız bana)")),
    Slash("daily", L("daily", "günlük"), L("Today's free chips", "Günün bedava fişleri")),
    Slash("help", L("help", "yardım"), L("The bot's commands", "Botun komutları")),
    Slash(
        "leaderboard",
        L("leaderboard", "sıralama"),
        L("The best players", "En iyi oyuncular"),
        (
            Opt(
                "board",
                L("board", "tablo"),
                L(
                    "Chips, Okey points, 101 average or wins",
                    "Fiş, okey puanı, 101 ortalaması ya da galibiyet",
                ),
                str,
                "chips",
                BOARDS,
            ),
            Opt(
                "scope",
                L("scope", "kapsam"),
                L("This community (default) or everyone", "Bu topluluk (varsayılan) ya da herkes"),
                str,
                "community",
                SCOPES,
            ),
            PLAYED_GAME._replace(
                description=L("The skill rating's game", "Beceri puanının oyunu"),
                choices=PLAYED_GAMES,
            ),
        ),
        # the community's list unless `global` is asked for; a game only for the rating board
        lambda v: words(
            v["board"],
            v["game"] if v["board"] == "rating" else None,
            "global" if v["scope"] == "global" else None,
        ),
    ),
    Slash(
        "verify",
        L("verify", "doğrula"),
        L("Check that a hand's shuffle was fair", "Bir elin karıştırmasının adil olduğunu doğrula"),
        (HAND._replace(description=L("The hand id, e.g. 12-3", "El numarası, ör. 12-3")),),
        one_hand,
    ),
    Slash(
        "lang",
        L("lang", "dil"),
        L("My language for the bot", "Botun benimle konuşacağı dil"),
        (
            Opt(
                "language",
                L("language", "dil"),
                L("Turkish or English", "Türkçe ya da İngilizce"),
                str,
                REQUIRED,
                LANGUAGES,
            ),
        ),
    ),
    Slash(
        "tiles",
        L("tiles", "taşlar"),
        L(
            "My Okey tiles: a shape for each colour too, or colours only",
            "Okey taşlarım: her renge bir şekil de, ya da yalnız renkler",
        ),
        (
            Opt(
                "style",
                L("style", "görünüm"),
                L("Shapes or colours only", "Şekiller ya da yalnız renkler"),
                str,
                REQUIRED,
                TILE_STYLES,
            ),
        ),
    ),
    Slash(
        "history",
        L("history", "geçmiş"),
        L("My last hands and rounds (only to me)", "Son ellerim ve oyunlarım (yalnız bana)"),
        (PLAYED_GAME._replace(choices=PLAYED_GAMES),),
    ),
    Slash(
        "stats",
        L("stats", "istatistik"),
        L("A player's statistics (only to me)", "Bir oyuncunun istatistikleri (yalnız bana)"),
        (
            WHOSE,
            PLAYED_GAME._replace(choices=PLAYED_GAMES),
        ),
        stats_of,
    ),
    Slash(
        "rating",
        L("rating", "puan"),
        L("A player's skill rating (only to me)", "Bir oyuncunun beceri puanı (yalnız bana)"),
        (
            WHOSE,
            PLAYED_GAME._replace(choices=PLAYED_GAMES),
        ),
        stats_of,
    ),
    Slash(
        "replay",
        L("replay", "tekrar"),
        L(
            "A finished hand step by step (only to me)",
            "Bitmiş bir eli adım adım izle (yalnız bana)",
        ),
        (HAND,),
        one_hand,
    ),
    Slash(
        "export",
        L("export", "dışaaktar"),
        L(
            "A finished hand's history as a file (only to me)",
            "Bitmiş bir elin kaydı dosya olarak (yalnız bana)",
        ),
        (HAND,),
        one_hand,
    ),
)
