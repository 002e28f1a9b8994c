"""The words of `/tournament okey ...` and `/tournament poker ...` turned into `Settings`.

/tournament okey [101] [fee] [rounds 1|3 (101: 1|3|5|7|9|11)] [tables] [bots=on] [split=50/30/20]
    [start=21:30 | in=15m]
/tournament poker turkish|acik [fee] [starting chips] [ante level minutes]
"""

from __future__ import annotations

from datetime import datetime

from bot.core.commands import VARIANTS, fold, lookup, parse_int
from bot.core.config import CoreConfig
from bot.core.errors import Refusal
from bot.core.poker import sng
from bot.core.poker.session import seat_limit
from bot.core.table import house
from bot.core.tournament import prizes, schedule
from bot.core.tournament.state import MAX_TABLES, OKEY101, TABLES_LIMIT, Settings

ON = ("on", "yes", "true", "1", "açık", "evet")
OFF = ("off", "no", "false", "0", "kapalı", "hayır")
BOT_WORDS = ("bots", "botlar", "bot")
SPLIT_WORDS = ("split", "ödül", "odul", "prizes")
NUMBER_WORDS = {
    "fee": "fee",
    "ucret": "fee",
    "rounds": "rounds",
    "el": "rounds",
    "tables": "tables",
    "masa": "tables",
}
PRESET_WORDS = ("preset", "puanlama", "scoring")
OKEY101_WORDS = ("101", "yuzbir")  # after `fold`
POKER_NUMBER_WORDS = {
    "fee": "fee",
    "ucret": "fee",
    "chips": "chips",
    "fis": "chips",
    "minutes": "level_minutes",
    "dakika": "level_minutes",
}
POKER_CHIPS = 1_500
POKER_LEVEL_MINUTES = 10


def parse_okey(args: tuple[str, ...], config: CoreConfig, now: datetime) -> Settings:
    """Settings of an Okey tournament; a refusal names what is wrong. The numbers may also be
    named (`fee=100 rounds=3 tables=4`, as the Discord command sends them); `start=21:30` or
    `in=15m` (from `now`) sets the start time (`schedule`)."""
    numbers: list[int] = []
    settings = Settings(fee=config.okey_stake, rounds=config.okey_rounds, tables=MAX_TABLES)
    if args and fold(args[0]) in OKEY101_WORDS:  # 101 Okey matches (`/tournament okey 101 ...`)
        settings.variant, args = OKEY101, args[1:]
    for word in args:
        name, sep, value = word.partition("=")
        if sep and fold(name) in NUMBER_WORDS:
            number = parse_int(value)
            if number is None:
                raise Refusal("err.tournament_okey_usage")
            setattr(settings, NUMBER_WORDS[fold(name)], number)
            continue
        if sep and schedule.is_schedule_word(fold(name)):
            when = schedule.start_time(fold(name), value, now, config.timezone)
            settings.start_at = when.isoformat()
            settings.start_label = schedule.label(when, config.timezone)
            continue
        if sep and fold(name) in PRESET_WORDS:  # the matches' scoring, as at `/okey start`
            settings.preset = house.parse("okey", [f"preset={value}"])["preset"]
            continue
        if sep:
            _setting(settings, fold(name), value)
            continue
        number = parse_int(word)
        if number is None:
            raise Refusal("err.tournament_okey_usage")
        numbers.append(number)
    if len(numbers) > 3:
        raise Refusal("err.tournament_okey_usage")
    if numbers:
        settings.fee = numbers[0]
    if len(numbers) > 1:
        settings.rounds = numbers[1]
    if len(numbers) > 2:
        settings.tables = numbers[2]
    _check_fee(settings.fee, config)
    if settings.variant == OKEY101:
        if settings.rounds not in (1, 3, 5, 7, 9, 11):
            raise Refusal("err.okey101_rounds")
    elif settings.rounds not in (1, 3):
        raise Refusal("err.okey_rounds")
    if not 1 <= settings.tables <= TABLES_LIMIT:
        raise Refusal("err.tournament_tables", max=TABLES_LIMIT)
    return settings


def _setting(settings: Settings, name: str, value: str) -> None:
    if name in BOT_WORDS and fold(value) in ON + OFF:
        settings.bots = fold(value) in ON
        return
    if name in SPLIT_WORDS:
        split = prizes.parse_split(value)
        if split is None:
            raise Refusal("err.tournament_split")
        settings.split = split
        return
    raise Refusal("err.tournament_okey_usage")


def parse_poker(args: tuple[str, ...], config: CoreConfig) -> tuple[str, Settings]:
    """The variant and settings of a poker sit-and-go."""
    variant = lookup(VARIANTS, args[0]) if args else None
    if variant is None:
        raise Refusal("err.tournament_poker_usage")
    named: dict[str, int] = {}  # `fee=`, `chips=`, `minutes=` (as the Discord command sends)
    rules: list[str] = []  # any other `name=value` is a house rule, as at `/poker open`
    numbers: list[int | None] = []
    for word in args[1:]:
        name, sep, value = word.partition("=")
        if sep and fold(name) in POKER_NUMBER_WORDS:
            number = parse_int(value)
            if number is None:
                raise Refusal("err.tournament_poker_usage")
            named[POKER_NUMBER_WORDS[fold(name)]] = number
        elif sep:
            rules.append(word)
        else:
            numbers.append(parse_int(word))
    if len(numbers) > 3 or any(n is None for n in numbers):
        raise Refusal("err.tournament_poker_usage")
    values = dict(zip(("fee", "chips", "level_minutes"), numbers, strict=False))
    values.update(named)
    settings = Settings(
        fee=values.get("fee", config.okey_stake),
        chips=values.get("chips", POKER_CHIPS),
        level_minutes=values.get("level_minutes", POKER_LEVEL_MINUTES),
        tables=1,
        split=prizes.POKER_SPLIT,
        rules=tuple(rules),
    )
    _check_fee(settings.fee, config)
    if settings.chips < 1 or settings.level_minutes < 1:
        raise Refusal("err.tournament_poker_usage")
    # the table's options now, so that a bad house rule is refused before anyone pays a fee
    table = sng.table_options(
        variant, {"chips": settings.chips, "level_seconds": 60, "rules": rules}, 0
    )
    settings.seats = seat_limit(variant, table)
    return variant, settings


def _check_fee(fee: int, config: CoreConfig) -> None:
    if not 0 <= fee <= config.max_ante:
        raise Refusal("err.tournament_fee", max=config.max_ante)
