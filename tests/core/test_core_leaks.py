"""Hidden information and chips over many random games through the core, on the real Store (an
in-memory SQLite database): no public message holds a card of a hand before the showdown or a
tile of a rack, private messages go only to their owner, and no chip is ever created or lost —
checked against the ledger (`Store.audit`) and each table's escrow balance."""

from __future__ import annotations

import random
import re

from bot.core.messages import OutKind
from storage import HOUSE, Store, escrow, wallet
from testkit.drive import hidden_cards, leaked, live_session, public_without_showdown, random_move
from testkit.helpers import cmd, errors, make_core

POKER_HANDS = 800
OKEY_MATCHES = 16
TILE = re.compile(r"(?<![0-9A-Za-z])([RYBK](?:1[0-3]|[1-9])|F)(?![0-9A-Za-z])")


async def check_money(store: Store, core, channel: str) -> None:
    """The ledger is sound (balances match their entries, none but the house below zero, all add
    up to zero) and the open table's escrow holds exactly the chips its session has in play."""
    assert await store.audit() == []
    await check_escrow(store, core, channel)


async def check_escrow(store: Store, core, channel: str) -> None:
    """The open table's escrow holds exactly the chips in play at it."""
    session = live_session(core, channel)
    if session is not None:
        assert await store.balance(escrow(session.table_id)) == session.held()


async def test_poker_public_messages_never_show_a_hidden_card(memory_store):
    rng = random.Random(2026)
    store = memory_store
    core = make_core(store, seed="leaks")
    names = ["ayse", "mehmet", "cem", "zeynep", "emre"]
    hands = tables = 0
    while hands < POKER_HANDS:
        tables += 1
        channel = f"c{tables}"
        players = names[: rng.randint(2, 5)]
        structure = rng.choice(["pot", "fixed", "nolimit"])
        variant = rng.choice(["turkish", "acik"])
        ante = rng.randint(1, 20)
        # live odds (public figures, costly to estimate) at a third of the Açık tables
        odds = " odds=off" if variant == "acik" and rng.random() < 0.67 else ""
        out = await core.handle(
            cmd(players[0], f"/poker open {variant} {ante} {structure}{odds}", channel=channel)
        )
        assert not errors(out)
        for user in players:
            await core.handle(cmd(user, "/balance", channel=channel))
            player = await store.player("test", user, user.capitalize())
            if await store.balance(wallet(player.id)) < 400:  # keep everyone able to buy in
                await store.transfer(HOUSE, wallet(player.id), 1000, "test top-up")
            await core.handle(cmd(user, f"/poker join {rng.randint(60, 400)}", channel=channel))
        out = await core.handle(cmd(players[0], "/poker start", channel=channel))
        for _ in range(400):
            session = live_session(core, channel)
            if session is None or session.actor() is None or session.hand_no > 8:
                break
            hidden = hidden_cards(session)
            hand_no = session.hand_no
            user, line = random_move(session, rng)
            out = await core.handle(cmd(user, line, channel=channel))
            assert not errors(out), (line, errors(out))
            after = live_session(core, channel)
            text = public_without_showdown(out)
            if after is not None and after.hand_no != hand_no:
                # a new hand was dealt in this step: its part is checked against its own cards
                old, _, new = text.partition("— Hand ")
                assert not leaked(old, hidden), (line, out)
                assert not leaked(new, hidden_cards(after)), (line, out)
            else:
                secret = hidden | (hidden_cards(after) if after is not None else set())
                assert not leaked(text, secret), (line, out)
            for item in out:
                if item.kind is OutKind.PRIVATE:
                    assert item.user_id in players
            await check_escrow(store, core, channel)
        session = live_session(core, channel)
        hands += max(1, session.hand_no if session is not None else 1)
        await check_money(store, core, channel)
        if session is not None:
            await core.handle(cmd("mod", "/table reset leak test done", channel=channel, mod=True))
            assert await store.balance(escrow(session.table_id)) == 0
    assert await store.audit() == []  # the resets paid every escrow back
    assert tables >= 20


def public_tiles(out) -> list[str]:
    text = "\n".join(o.text for o in out if o.kind in (OutKind.PUBLIC, OutKind.EDIT_TABLE))
    labels = [
        b.label for o in out if o.kind is OutKind.EDIT_TABLE for row in o.buttons for b in row
    ]
    return TILE.findall(text + "\n" + "\n".join(labels))


def known_tiles(session) -> set[str]:
    if session is None or session.match is None or session.match.round is None:
        return set()
    view = session.match.round.view(None)
    known = {view["indicator"], view["okey"]}
    for pile in view["discard_piles"]:
        known.update(pile)
    if view["result"] and view["result"].get("melds"):
        for meld in view["result"]["melds"]:
            known.update(meld)
    return known


async def test_okey_public_messages_never_show_a_rack_tile(memory_store):
    from games.okey import auto_action

    store = memory_store
    core = make_core(store, seed="okey-leaks")
    rng = random.Random(7)
    names = ["ayse", "mehmet", "cem", "zeynep"]
    finishes = 0
    for match in range(OKEY_MATCHES):
        channel = f"o{match}"
        players = names[: rng.randint(2, 4)]
        await core.handle(
            cmd(
                players[0],
                f"/okey start {rng.choice([1, 3])} {rng.randint(1, 60)}",
                channel=channel,
            )
        )
        for user in players[1:]:
            await core.handle(cmd(user, "/okey join", channel=channel))
        out = await core.handle(cmd(players[-1], "/okey begin", channel=channel))
        assert not errors(out)
        seen: set[str] = set()  # tiles shown in this round (a discard stays public when taken)
        round_no = 0
        for _ in range(2000):
            session = live_session(core, channel)
            if session is None or session.actor() is None:
                break
            if session.hand_no != round_no:
                seen, round_no = set(), session.hand_no
            seen |= known_tiles(session)
            before = set(seen)
            racks = {
                s.user_id: session.match.round.view(i)["hand"]
                for i, s in enumerate(map(session.seat_of, range(len(session.staked))))
            }
            index = session.match.round.to_act()
            seat = session.seat_of(index)
            action = auto_action(session.match.round, index)
            if action.kind == "take":
                line = f"/okey take {action.source}"
            else:
                line = f"/okey {action.kind} {action.cards[0]}"
            out = await core.handle(cmd(seat.user_id, line, channel=channel))
            assert not errors(out), (line, errors(out))
            session = live_session(core, channel)
            known = before | known_tiles(session)
            text = "\n".join(o.text for o in out if o.kind is OutKind.PUBLIC)
            if "finishes" in text:
                finishes += 1
                continue  # the winner's melds are laid down for everyone
            for tile in public_tiles(out):
                assert tile in known, (tile, line, out)
            for item in out:
                if item.kind is OutKind.PRIVATE and "Your rack" in item.text:
                    owner_rack = racks.get(item.user_id)
                    assert owner_rack is not None
            await check_escrow(store, core, channel)
        await check_money(store, core, channel)
    assert finishes > 0
