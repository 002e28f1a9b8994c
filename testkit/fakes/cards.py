"""Cards and tiles read out of chat text, for tests only: a test checks what a player or a channel
was shown (no front end reads the core's text; they get `Outgoing.picker` and
`bot.core.api.TableView`). Also pickers for scripted cores' answers."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from bot.core.messages import NEEDS_CARDS, TILES, Outgoing, OutKind, Pick, Picker, Prompt, Sender
from bot.render.text import card

# Cards as the core may write them: notation (`Ah`, `Td`, `10d`) or with suit symbols (`A♥`).
_SUITS = {"h": "h", "s": "s", "d": "d", "c": "c", "♥": "h", "♠": "s", "♦": "d", "♣": "c"}
_SUITS.update({"♡": "h", "♤": "s", "♢": "d", "♧": "c"})
_CARD_RE = re.compile(r"(?<![0-9A-Za-z])(10|[2-9TJQKA])([hsdc♥♠♦♣♡♤♢♧])(?![0-9A-Za-z])")
_TILE_RE = re.compile(r"(?<![0-9A-Za-z])([RYBK](?:1[0-3]|[1-9])|F)(?![0-9A-Za-z])")


def cards_in(text: str) -> list[str]:
    """The cards named in a text, in notation and in order, each once (`A♥ 10♦` -> `Ah Td`)."""
    found: list[str] = []
    for rank, suit in _CARD_RE.findall(text):
        item = ("T" if rank == "10" else rank) + _SUITS[suit]
        if item not in found:
            found.append(item)
    return found


def tiles_in(text: str) -> list[str]:
    """Okey tiles named in a text (`R5`, `K13`, `F`), in order, each once."""
    found: list[str] = []
    for tile in _TILE_RE.findall(text):
        if tile not in found:
            found.append(tile)
    return found


def card_picker(*codes: str) -> Picker:
    """The picker a core's `/poker hand` answer carries for these cards."""
    return Picker(NEEDS_CARDS, tuple(Pick(code, card(code)) for code in codes))


def tile_picker(*codes: str) -> Picker:
    """The picker a core's `/okey rack` answer carries for these tiles."""
    return Picker(TILES, tuple(Pick(code, code) for code in codes))


def draw_prompt(table_id: str, nonce: str, max_cards: int) -> Callable[..., list[Outgoing]]:
    """A scripted core's answer to a pressed draw (`Ask("draw")`): the presser's hand (as
    `shown_hand`) with the question which cards to exchange as data."""

    def answer(_table: str, who: Sender, _nonce: str) -> list[Outgoing]:
        hand = shown_hand(who.user_id)
        assert hand.picker is not None
        prompt = Prompt(
            NEEDS_CARDS, table_id, nonce, "draw", max_cards=max_cards, choices=hand.picker.choices
        )
        return [replace(hand, prompt=prompt)]

    return answer


def shown_hand(user_id: str) -> Outgoing:
    """A scripted core's private answer to `/poker hand`: five cards and their picker."""
    return Outgoing(
        OutKind.PRIVATE,
        "Your cards: A♥ K♦ Q♠ 7♣ 2♥",
        user_id=user_id,
        picker=card_picker("Ah", "Kd", "Qs", "7c", "2h"),
    )
