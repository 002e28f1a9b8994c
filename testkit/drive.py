"""Scripted and random players for the core tests: they read the table state and send commands
or button presses like people would."""

from __future__ import annotations

import random
import re

from bot.core.app import Core
from bot.core.messages import Outgoing, OutKind
from bot.core.poker.session import PokerSession
from bot.core.table import ai
from bot.render import text as show
from testkit.helpers import cmd, last_buttons, press

SHOWDOWN_HEADERS = ("Showdown:", "Kartlar açılıyor:")


def live_session(core: Core, channel: str = "c1"):
    """The session of the open table in `channel`, or None."""
    live = core.tables.in_channel("test", channel)
    return None if live is None else live.session


def hidden_cards(session: PokerSession) -> set[str]:
    """Every card in a hand of the running hand, as notation and as rendered text."""
    out: set[str] = set()
    if session is None or not session.running():
        return out
    for index in range(len(session.in_hand)):
        view = session.engine.view(index)
        secret = [view["down"]] if "down" in view else view["hand"]  # Açık: up cards are public
        for card in secret:
            if card:
                out.add(card)
                out.add(show.card(card))
    return out


def public_without_showdown(out: list[Outgoing]) -> str:
    """Channel text of `out` minus the showdown block (cards shown there are public by rule)."""
    lines: list[str] = []
    for item in out:
        if item.kind not in (OutKind.PUBLIC, OutKind.EDIT_TABLE):
            continue
        in_showdown = False
        for line in item.text.splitlines():
            if line in SHOWDOWN_HEADERS:
                in_showdown = True
                continue
            if in_showdown and line.startswith("  "):
                continue
            in_showdown = False
            lines.append(line)
    return "\n".join(lines)


def leaked(text: str, cards: set[str]) -> list[str]:
    """Cards of `cards` that appear in `text` as whole tokens."""
    found = []
    for card in cards:
        if re.search(rf"(?<![0-9A-Za-z]){re.escape(card)}(?![0-9A-Za-z])", text):
            found.append(card)
    return found


def random_move(session: PokerSession, rng: random.Random) -> tuple[str, str]:
    """A random legal move of the seat to act, as (user id, command line)."""
    index = session.engine.to_act()
    seat = session.seat_of_engine(index)
    specs = session.engine.legal_actions(index)
    spec = rng.choice(specs)
    if spec.kind == "draw":
        hand = session.engine.view(index)["hand"]
        count = rng.randint(0, spec.max_cards or 0)
        chosen = rng.sample(hand, count)
        return seat.user_id, "/poker draw " + " ".join(chosen) if chosen else "/poker pat"
    if spec.min_amount is not None:
        amount = rng.randint(spec.min_amount, spec.max_amount or spec.min_amount)
        return seat.user_id, f"/poker {spec.kind} {amount}"
    return seat.user_id, f"/poker {spec.kind}"


def ai_move(session: PokerSession) -> tuple[str, str]:
    """The computer player's move for the seat to act, as (user id, command line)."""
    index = session.engine.to_act()
    seat = session.seat_of_engine(index)
    action = ai.poker_move(session.engine, index, cautious=False)
    if action.kind == "draw":
        return seat.user_id, (
            "/poker draw " + " ".join(action.cards)
        ) if action.cards else "/poker pat"
    amount = f" {action.amount}" if action.amount is not None else ""
    return seat.user_id, f"/poker {action.kind}{amount}"


async def press_move(core: Core, out: list[Outgoing], session: PokerSession) -> list[Outgoing]:
    """Play the computer's move for the seat to act by pressing the matching table button."""
    user, line = ai_move(session)
    words = line.split()[1:]
    kind, args = words[0], words[1:]
    buttons = last_buttons(out)
    return await core.press(press(user, buttons[kind], *args))


__all__ = ["cmd", "press"]
