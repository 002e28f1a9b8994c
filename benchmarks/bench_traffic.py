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

One member cannot stall a group (issue 25): a Türk pokeri game (3 humans + 1 computer) is played
while a fifth member, not seated and who never started the bot's private chat, types 20 commands
a second in the same group (`/verify 1-1`, `/help`, `/leaderboard` in turn), once without the
command budget (the baseline) and once with the settings' default budget. Printed side by side:
how long after a move the next turn reached the chat (p99 target < 3 s), the press answers
(p99 < 1 s), and what the flood cost the group.

Table speed (issue 37): Türk pokeri is played a second time at the `relaxed` speed, whose only
extra group messages are the mentions of the player to act (one per turn that passes to a person);
`... -m benchmarks.bench_traffic relaxed [seed] [poker hands]` plays the two side by side alone.

Reactions (issue 37): Türk pokeri at a table of four (three people and a computer) is played
twice on each platform, once as it is and once with its people sending 10 reactions a second
between them (round robin, through the private picker the table message's `😀` opens), the
settings' budgets on. Printed side by side: group calls per move (target <= 1.5: a reaction is
folded into the table message's next edit, never a call of its own) and the press answers,
reactions' presses included (p99 < 1 s);
`... -m benchmarks.bench_traffic reactions [seed] [poker hands]` plays them alone.

Run: `.venv/bin/python -m benchmarks.bench_traffic [seed] [poker hands]` (default 1, 4);
`... -m benchmarks.bench_traffic spam [seed] [poker hands]` runs the flood scenario alone (`spam-baseline`:
without the budget only, e.g. on an older commit for the figures before issue 25).
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.core.app import Core
from bot.core.config import CoreConfig
from bot.core.table.fairness import SeededSource
from storage import Store
from testkit import virtual_time
from testkit.traffic_discord import CHANNEL as DISCORD_CHANNEL
from testkit.traffic_discord import DiscordSurface
from testkit.traffic_play import GameSpec, loop_time, play
from testkit.traffic_reactions import Flow, flow
from testkit.traffic_stats import MAX_GROUP_CALLS_PER_MOVE, Traffic, percentile, report, summary
from testkit.traffic_telegram import GROUP as TELEGRAM_GROUP
from testkit.traffic_telegram import TelegramSurface

NAMES = ["Ayşe", "Mehmet", "Zeynep", "Can"]
MEMORY_DB = "sqlite+aiosqlite://"
CORE_TIME = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def specs(hands: int) -> list[GameSpec]:
    """The three games of issue 14, and Türk pokeri again at the `relaxed` speed (issue 37: the
    player to act is called by a mention, a new group message, when their turn comes)."""
    return [
        GameSpec("okey", humans=2, bots=2, hands=1),
        GameSpec("turkish", humans=3, bots=1, hands=hands),
        GameSpec("turkish", humans=3, bots=1, hands=hands, speed="relaxed"),
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


SPAMMER = "Spammer"
SPAM_PER_SECOND = 20.0
SPAM_TELEGRAM = ("/verify 1-1", "/help", "/leaderboard")
SPAM_DISCORD = (("verify", {"hand": "1-1"}), ("help", {}), ("leaderboard", {}))
MAX_TURN_SHOWN_P99 = 3.0


def budget(on: bool) -> dict[str, float]:
    """The core's command and press budgets: the settings' defaults, or none (the baseline)."""
    if not on:
        return {}
    from bot.settings import Settings  # here: the baseline may run on code without the setting

    defaults = Settings.model_fields
    return {
        name: defaults[name].default
        for name in (
            "command_burst",
            "command_refill_seconds",
            "press_burst",
            "press_refill_seconds",
        )
    }


async def spam(surface: Any, platform: str, hands: int, sent: list[int]) -> None:
    """The flood: 20 commands a second from the unseated member while the game's first
    `hands` hands are played; `sent[0]` counts them."""
    while (session := surface.session()) is None or session.hand_no < 1:
        await asyncio.sleep(0.1)
    last_hand = session.hand_no + hands
    user = list(surface.users.values())[-1]
    if platform == "discord":  # the surface waits for the game's traffic, not the flood's
        surface.ignored.add(user.id)
    tasks: set[asyncio.Task[Any]] = set()
    while (session := surface.session()) is not None and session.hand_no < last_hand:
        if platform == "telegram":
            line = SPAM_TELEGRAM[sent[0] % len(SPAM_TELEGRAM)]
            update = surface.server.message_update(surface.server.group(TELEGRAM_GROUP), user, line)
            await surface._feed(update)
        else:
            path, options = SPAM_DISCORD[sent[0] % len(SPAM_DISCORD)]
            task = asyncio.create_task(
                surface.harness.slash(user, path, DISCORD_CHANNEL, **options)
            )
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        sent[0] += 1
        await asyncio.sleep(1 / SPAM_PER_SECOND)
    await asyncio.gather(*tasks, return_exceptions=True)


async def spam_game(platform: str, seed: int, hands: int, throttled: bool) -> tuple[Traffic, int]:
    """Türk pokeri with the flood beside it, with or without the command budget; the traffic
    and how many commands the flood sent."""
    # a file: one in-memory SQLite connection cannot serve the flood's concurrent reads
    folder = tempfile.TemporaryDirectory()
    store = await Store.open(f"sqlite+aiosqlite:///{folder.name}/flood.db", migrate=True)
    try:
        config = CoreConfig(default_locale="en", turn_seconds=3600.0, **budget(throttled))  # type: ignore[arg-type]
        core = Core(
            store,
            config,
            clock=lambda: CORE_TIME + timedelta(seconds=loop_time()),  # the budget refills
            seeds=SeededSource(f"traffic-{seed}"),
        )
        surface_type = TelegramSurface if platform == "telegram" else DiscordSurface
        async with surface_type(core, [*NAMES, SPAMMER]) as surface:
            if platform == "telegram":  # the worst case: the group gets the short replies
                spammer = list(surface.users.values())[-1]
                surface.server.started_users.discard(spammer["id"])
            sent = [0]
            flood = asyncio.create_task(spam(surface, platform, hands, sent))
            traffic = await play(surface, GameSpec("turkish", 3, 1, hands), random.Random(seed))
            await flood
            surface.tally()
            traffic.game = "turkish+flood"
            return traffic, sent[0]
    finally:
        await store.close()
        folder.cleanup()


def spam_report(rows: list[tuple[str, bool, Traffic, int]]) -> str:
    """The flood scenario, without and with the budget, side by side."""
    head = (
        f"{'platform':9} {'budget':6} {'flood':>5} {'moves':>5} {'turn p99':>8} {'turn max':>8} "
        f"{'ans p99':>7} {'ans max':>7} {'grp calls':>9} {'new grp':>7}  group calls by kind"
    )
    lines = [head]
    for platform, on, t, sent in rows:
        lag, answers = t.table_lag, t.answers
        ok = percentile(lag, 0.99) < MAX_TURN_SHOWN_P99 and percentile(answers, 0.99) < 1.0
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(t.group_kinds.items()))
        lines.append(
            f"{platform:9} {'on' if on else 'off':6} {sent:5d} {t.human_moves:5d} "
            f"{percentile(lag, 0.99):8.2f} {max(lag, default=math.nan):8.2f} "
            f"{percentile(answers, 0.99):7.2f} {max(answers, default=math.nan):7.2f} "
            f"{t.group_calls:9d} {t.new_group:7d}  {kinds}  {'ok' if ok else 'MISS'}"
        )
    lines.append(
        f"targets: turn shown after the move p99 < {MAX_TURN_SHOWN_P99} s, press answer "
        "p99 < 1 s (virtual seconds; flood = commands sent at 20/s)"
    )
    return "\n".join(lines)


async def flood(seed: int, hands: int, budgets: tuple[bool, ...] = (False, True)) -> None:
    """The flood scenario on both platforms, the baseline (no budget) first."""
    print(f"flood: one member types {SPAM_PER_SECOND:.0f} commands/s beside a Türk pokeri game")
    rows = []
    for platform in ("telegram", "discord"):
        for on in budgets:
            traffic, sent = await spam_game(platform, seed, hands, on)
            rows.append((platform, on, traffic, sent))
            print(report(traffic), flush=True)
    print()
    print(spam_report(rows))


REACTIONS_PER_SECOND = 10.0


async def reacting_game(
    platform: str, seed: int, hands: int, reacting: bool, per_second: float = REACTIONS_PER_SECOND
) -> tuple[Traffic, Flow]:
    """Türk pokeri at a table of four (three people, a computer), with or without the people's
    reactions flowing (`per_second`);
    the traffic and what the flow did. The settings' budgets are on; the core's clock follows
    the loop's."""
    folder = tempfile.TemporaryDirectory()
    store = await Store.open(f"sqlite+aiosqlite:///{folder.name}/reactions.db", migrate=True)
    try:
        config = CoreConfig(default_locale="en", turn_seconds=3600.0, **budget(True))  # type: ignore[arg-type]
        core = Core(
            store,
            config,
            clock=lambda: CORE_TIME + timedelta(seconds=loop_time()),  # the budgets refill
            seeds=SeededSource(f"traffic-{seed}"),
        )
        surface_type = TelegramSurface if platform == "telegram" else DiscordSurface
        async with surface_type(core, NAMES) as surface:
            counts = Flow()
            flowing = (
                asyncio.create_task(flow(surface, core, per_second, hands, counts))
                if reacting
                else None
            )
            traffic = await play(surface, GameSpec("turkish", 3, 1, hands), random.Random(seed))
            if flowing is not None:
                await flowing
            surface.tally()
            traffic.game = "turkish+reactions" if reacting else "turkish"
            return traffic, counts
    finally:
        await store.close()
        folder.cleanup()


def reactions_report(rows: list[tuple[str, bool, Traffic, Flow]]) -> str:
    """Without and with the reactions, side by side."""
    head = (
        f"{'platform':9} {'react':5} {'sent':>5} {'taken':>5} {'refused':>7} {'moves':>5} "
        f"{'grp calls':>9} {'grp/move':>8} {'presses':>7} {'ans p99':>7} {'ans max':>7}"
    )
    lines = [head]
    for platform, on, t, f in rows:
        per_move = t.per_move(t.group_calls)
        p99 = percentile(t.answers, 0.99)
        ok = per_move <= MAX_GROUP_CALLS_PER_MOVE and p99 < 1.0 and not t.unanswered
        lines.append(
            f"{platform:9} {'on' if on else 'off':5} {f.sent:5d} {f.taken:5d} {f.refused:7d} "
            f"{t.human_moves:5d} {t.group_calls:9d} {per_move:8.2f} {t.presses:7d} "
            f"{p99:7.2f} {max(t.answers, default=math.nan):7.2f}  {'ok' if ok else 'MISS'}"
        )
    lines.append(
        f"targets: grp/move <= {MAX_GROUP_CALLS_PER_MOVE}, press answer p99 < 1 s (reactions' "
        f"presses included; {REACTIONS_PER_SECOND:.0f} reactions/s from the table of four)"
    )
    return "\n".join(lines)


async def reactions(seed: int, hands: int) -> None:
    """The reactions scenario on both platforms, without them first."""
    print(f"reactions: {REACTIONS_PER_SECOND:.0f}/s from a Türk pokeri table of four (3 people)")
    rows = []
    for platform in ("telegram", "discord"):
        for on in (False, True):
            traffic, counts = await reacting_game(platform, seed, hands, on)
            rows.append((platform, on, traffic, counts))
            print(report(traffic), flush=True)
    print()
    print(reactions_report(rows))


async def main(seed: int, hands: int, only: str | None = None) -> None:
    """Every game on both platforms, then the flood; `only="relaxed"`: the two Türk pokeri games
    (normal and relaxed speed) side by side, without the flood."""
    print(f"traffic benchmark: seed {seed}, {hands} poker hands per game, virtual time")
    rows = []
    games = [s for s in specs(hands) if only is None or s.game == "turkish"]
    for spec in games:
        for platform in ("telegram", "discord"):
            rows.append(await one_game(platform, spec, seed))
            print(report(rows[-1]), flush=True)
    print()
    print(summary(rows))
    if only is None:
        print()
        await flood(seed, hands)
        print()
        await reactions(seed, hands)


if __name__ == "__main__":
    logging.basicConfig(level=logging.ERROR)
    words = sys.argv[1:]
    only_flood = bool(words) and words[0] in ("spam", "spam-baseline")
    only_relaxed = bool(words) and words[0] == "relaxed"
    only_reactions = bool(words) and words[0] == "reactions"
    skip = only_flood or only_relaxed or only_reactions
    args = [int(a) for a in words[skip : skip + 2]]
    seed, hands = (args + [1, 4][len(args) :])[:2]
    if only_relaxed:
        virtual_time.run(main(seed, hands, "relaxed"))
    elif only_reactions:
        virtual_time.run(reactions(seed, hands))
    elif not only_flood:
        virtual_time.run(main(seed, hands))
    else:  # `spam-baseline`: without the budget only (runs on code that has none)
        virtual_time.run(
            flood(seed, hands, (False,) if words[0] == "spam-baseline" else (False, True))
        )
