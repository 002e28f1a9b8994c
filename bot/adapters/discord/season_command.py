"""`/season` (`/sezon`): the current season, a past one's standings (`number`) or, for a
moderator, the season length (`length`), as data for `slash.command` (installed beside the
other top-level commands in `commands.py`)."""

from __future__ import annotations

from discord.app_commands import Range

from bot.adapters.discord.l10n import L
from bot.adapters.discord.slash import Opt, Slash, Values


def season_words(v: Values) -> tuple[str, ...]:
    """`length <value>` when a length is given, else the season number, else nothing."""
    if v["length"]:
        return ("length", str(v["length"]).strip())
    return () if v["number"] is None else (str(v["number"]),)


SEASON = Slash(
    "season",
    L("season", "sezon"),
    L(
        "This community's season: leaders and time left, or a past season",
        "Bu topluluğun sezonu: liderler ve kalan süre, ya da geçmiş bir sezon",
    ),
    (
        Opt(
            "number",
            L("number", "numara"),
            L("A finished season's number", "Bitmiş bir sezonun numarası"),
            Range[int, 1, 100_000],
        ),
        Opt(
            "length",
            L("length", "uzunluk"),
            L(
                "Moderators: monthly, weekly or a number of days (1-365)",
                "Moderatörler: aylık, haftalık ya da gün sayısı (1-365)",
            ),
            Range[str, 1, 16],
        ),
    ),
    season_words,
)
