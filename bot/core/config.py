"""Chip amounts, time limits and table defaults of the bot core, in one place."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

STARTING_GRANT = 1_000  # chips a player gets from the house the first time the bot sees them
DAILY_GRANT = 100  # chips `/daily` gives once per UTC day


@dataclass(frozen=True)
class CoreConfig:
    """Tunable behaviour of the core; the defaults suit a chat channel."""

    default_locale: str = "tr"
    platforms: tuple[str, ...] | None = None  # load only these platforms' tables (None: all)
    pictures: bool = False  # attach PNGs: the table, each player's own hand or rack, the showdown
    starting_grant: int = STARTING_GRANT
    daily_grant: int = DAILY_GRANT
    turn_seconds: float = 60.0  # a player to act who waits longer is timed out (AFK)
    afk_limit: int = 2  # time-outs in a row after which the computer player stands in
    # a table nobody starts is closed and refunded after `idle_close_seconds`; one where no
    # person (only computer players) has acted for `idle_close_hands` hands or rounds, or for
    # `idle_close_seconds`, closes between hands (0 hands: no limit by count)
    idle_close_seconds: float = 900.0
    idle_close_hands: int = 3
    # a stopped table's "Play again" offer stands this long (`bot.core.table.rematch`)
    rematch_seconds: float = 600.0
    seed_reveal_hours: float = 24.0  # a hand's whole seed is shown this long after its table closed
    # closed tables' action logs and snapshots are pruned this many days after they closed
    # (`bot.core.table.retention`); 0 keeps them (the default here; the settings give 365)
    retention_days: float = 0.0
    timezone: str = "Europe/Istanbul"  # the zone of a tournament's `start=21:30`
    poker_ante: int = 10
    poker_min_buy_in_antes: int = 5  # the smallest buy-in is this many antes
    poker_default_buy_in_antes: int = 20
    okey_stake: int = 50
    okey_rounds: int = 1
    max_ante: int = 1_000_000
    bot_bankroll: int = 5_000  # a computer player's wallet is topped up to this by the house
    # what one community (Discord server, Telegram group, the console) may have at once; 0: no
    # limit. Computer players added by `addbot` (tournaments seat theirs themselves) per table
    # and over the community's open tables; open tables outside tournaments; tournaments
    # registering or running. A chat outside any community has only the per-table limit.
    max_computers_per_table: int = 3
    max_computers_per_community: int = 12
    max_open_tables: int = 20
    max_running_tournaments: int = 2
    # Command budget per user and chat (`bot.core.throttle`): `command_burst` at once, then one
    # every `command_refill_seconds`; 0 turns it off (the default here: tests and the console
    # type fast on a frozen clock; the chat platforms get the settings' budget). Presses have a
    # budget of their own, more generous.
    command_burst: int = 0
    command_refill_seconds: float = 2.0
    press_burst: int = 0
    press_refill_seconds: float = 0.25
    # skill ratings (docs/ratings.md): results between people update them in the commit that
    # settles them; off only for a benchmark's baseline (`benchmarks/bench_ratings.py`)
    ratings: bool = True
    # reactions at a table (`bot.core.table.reacting`): a bucket of the same kind per player and
    # table, on everywhere (a flood of reactions is refused privately, the table sees none of it)
    reaction_burst: int = 3
    reaction_refill_seconds: float = 2.0
    # the web table's link maker (`/table web`): (platform, user id, user name, table id,
    # locale) -> a signed, expiring address for that user and table; None: no web table here
    web_link: Callable[[str, str, str, str, str], str] | None = None
    # the key private tables' invitation tokens are signed with (`bot.core.table.invites`);
    # None: the bot's web signing key kept in the store (`web_secrets`)
    invite_key: str | None = field(default=None, repr=False)
