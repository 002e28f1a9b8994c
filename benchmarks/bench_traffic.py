"""Channel traffic and press answer times of whole games, through the test fakes of both platforms
with the real client libraries (issue 14).

Games: Okey with 2 humans + 2 computer seats (one round), Türk pokeri with 3 humans + 1 computer
and Açık poker with 4 humans (a few hands each). Humans play like people in a chat: they wait until
the table message (or, for an Okey discard, their private rack) shows their turn, think 1-3 s,
and press one of the buttons they see (seeded choice); amounts go through the platform's amount
path (Telegram: the amount prompt's buttons or a typed reply; Discord: the modal), draws through
the draw picker.

- Telegram: python-telegram-bot's Application as production builds it, with the real
  `AIORateLimiter` (about 20 requests a minute per group), against the fake Bot API server.
- Discord: the real adapter with discord.py's command tree, components and modal over the
  interaction fakes; channel posts, edits and deletes go through discord.py's own HTTP layer (its
  rate-limit buckets included) to a fake REST API that applies Discord's 5 requests per 5 s per
  channel and route (`testkit/fakes/discord_rest_server.py`).

Everything runs on virtual time (`testkit/virtual_time.py`): the event loop's clock jumps over
idle waits, so minutes of play take seconds, while rate limiters, think times and time-outs all
see the time pass. Figures are in virtual seconds and repeatable for a given seed.

Printed per game and platform, next to the targets: group calls per human move, new group messages
per hand (poker) or per human move (Okey), private calls per human move, the press answer time
(press sent -> its answerCallbackQuery / interaction response seen by the fake) and how long after
a move the next player's turn became visible.

Run: `.venv/bin/python -m benchmarks.bench_traffic [seed] [poker hands]` (default 1, 4).
"""

from __future__ import annotations

import logging
import random
import sys
from datetime import UTC, datetime

from bot.core.app import Core
from bot.core.config import CoreConfig
from bot.core.table.fairness import SeededSource
from storage import Store
from testkit import virtual_time
from testkit.traffic_discord import DiscordSurface
from testkit.traffic_play import GameSpec, play
from testkit.traffic_stats import Traffic, report, summary
from testkit.traffic_telegram import TelegramSurface

NAMES = ["Ayşe", "Mehmet", "Zeynep", "Can"]
MEMORY_DB = "sqlite+aiosqlite://"
CORE_TIME = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def specs(hands: int) -> list[GameSpec]:
    """The three games of issue 14."""
    return [
        GameSpec("okey", humans=2, bots=2, hands=1),
        GameSpec("turkish", humans=3, bots=1, hands=hands),
        GameSpec("acik", humans=4, bots=0, hands=hands),
    ]


async def one_game(platform: str, spec: GameSpec, seed: int) -> Traffic:
    """Play one game on one platform on a fresh store and core; its traffic."""
    store = await Store.open(MEMORY_DB)
    try:
        core = Core(
            store,
            CoreConfig(default_locale="en"),
            clock=lambda: CORE_TIME,  # no turn timers run: players never wait a minute
            seeds=SeededSource(f"traffic-{seed}"),
        )
        surface_type = TelegramSurface if platform == "telegram" else DiscordSurface
        async with surface_type(core, NAMES) as surface:
            traffic = await play(surface, spec, random.Random(seed))
            surface.tally()
            return traffic
    finally:
        await store.close()


async def main(seed: int, hands: int) -> None:
    print(f"traffic benchmark: seed {seed}, {hands} poker hands per game, virtual time")
    rows = []
    for spec in specs(hands):
        for platform in ("telegram", "discord"):
            rows.append(await one_game(platform, spec, seed))
            print(report(rows[-1]), flush=True)
    print()
    print(summary(rows))


if __name__ == "__main__":
    logging.basicConfig(level=logging.ERROR)
    args = [int(a) for a in sys.argv[1:3]]
    seed, hands = (args + [1, 4][len(args) :])[:2]
    virtual_time.run(main(seed, hands))
