"""Random Türk pokeri and Açık poker games played only through Discord components: random
buttons, amounts typed into the modal, random draws from the select, "Show my hand", presses out
of turn and on stale messages. After every game: each interaction was acknowledged once, every
private item reached only its player, one table message is left, and no chip was made or lost."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from testkit.helpers import make_core
from testkit.stores import open_memory_store
from tests.discord.test_discord_play import (
    CHANNEL,
    assert_private_items_stayed_private,
    build,
    session_of,
    turn_ids,
)

PLAYERS = {101: "Ayşe", 102: "Mehmet", 103: "Zeynep"}
MAX_PRESSES = 120


async def play(seed: int, game: str, closed: frozenset[int]) -> None:
    async with await open_memory_store() as store:
        await play_on(store, seed, game, closed)


async def play_on(store, seed: int, game: str, closed: frozenset[int]) -> None:
    rng = random.Random(seed)
    core = make_core(store, seed=f"random-{seed}")
    harness, spy = build(core)
    users = {uid: harness.user(uid, name, uid not in closed) for uid, name in PLAYERS.items()}
    opener = users[101]
    # live odds (Açık) at a third of the tables: they cost most of the time and are tested on
    # their own (tests/games/poker/test_odds.py, tests/core/test_core_odds.py)
    odds = {"odds": "on" if seed % 3 == 0 else "off"} if game == "acik" else {}
    await harness.slash(opener, "poker open", CHANNEL, game=game, ante=5, **odds)
    for user in users.values():
        await harness.slash(user, "poker join", CHANNEL, buy_in=rng.choice([50, 100, 200]))
    await harness.slash(opener, "poker addbot", CHANNEL, level="easy")  # the fast player
    await harness.slash(users[rng.choice(list(users))], "poker start", CHANNEL)
    channel = harness.channel(CHANNEL)
    stale: list[tuple[str, object]] = []
    for _ in range(MAX_PRESSES):
        session = session_of(spy)
        if session is None or session.actor() is None:
            break
        message = channel.table_message()
        ids = turn_ids(harness)
        actor = users.get(int(session.seats[session.actor()].user_id))
        roll = rng.random()
        if roll < 0.08 and stale:
            custom_id, old = rng.choice(stale)
            await harness.press(rng.choice(list(users.values())), custom_id, old)
            continue
        if roll < 0.16:
            hand = next(c for c in message.custom_ids() if c.startswith("h:"))
            await harness.press(rng.choice(list(users.values())), hand, message)
            continue
        presser = actor if roll > 0.22 else rng.choice(list(users.values()))
        action = rng.choice(sorted(ids))
        stale.append((ids[action], message))
        core_id = ids[action].removeprefix("t:").rsplit(":", 1)[0]
        button = harness.adapter.buttons[core_id.split(":")[0]].get(core_id)
        pressed = await harness.press(presser, ids[action], message)
        if pressed.response.modal is not None:
            low, high = button.min_amount, button.max_amount
            typed = str(rng.randint(low, high)) if rng.random() < 0.9 else "lots"
            await harness.submit_modal(presser, typed)
        elif button is not None and button.needs == "cards":
            shown = [d for d in harness.log.deliveries if d.interaction == pressed.id]
            if shown and shown[-1].view is not None:
                select = shown[-1].view.children[0]
                options = [o.value for o in select.item.options]
                picked = rng.sample(options, rng.randint(0, select.item.max_values))
                await harness.press(presser, select.custom_id, pressed.original, values=picked)
    await harness.adapter.boards.settle()
    assert harness.unanswered() == []
    assert_private_items_stayed_private(harness, spy)
    assert len([m for m in channel.live() if m.custom_ids()]) <= 1
    assert await store.audit() == []
    for uid in closed:
        if any(i.user_id == str(uid) and i.kind.value == "private" for i in spy.items):
            assert not any(d.audience == "dm" and d.target == uid for d in harness.log.deliveries)


@settings(max_examples=60)
@given(
    seed=st.integers(0, 10**6),
    game=st.sampled_from(["turkish", "acik"]),
    closed=st.frozensets(st.sampled_from(sorted(PLAYERS)), max_size=2),
)
async def test_random_games_through_components(seed, game, closed):
    await play(seed, game, closed)
