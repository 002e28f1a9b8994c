"""Input a button needs before its press can go to the core: an amount or cards to exchange.

Amounts: a keyboard of a few sizes between the button's `min_amount` and `max_amount`, plus a
typed reply to the prompt. Cards: a picker in the private chat where each card is toggled and a
last button confirms; the cards are the core's data (`Outgoing.picker` of `/poker hand`), never
read back out of its text. The core still checks every value; these only make entering it easy.
"""

from __future__ import annotations

from dataclasses import dataclass, field

MAX_SIZES = 6

SUIT_SYMBOL = {"h": "♥", "s": "♠", "d": "♦", "c": "♣"}


def amount_sizes(min_amount: int | None, max_amount: int | None) -> list[int]:
    """A few sensible amounts from min to max: min, its multiples, half of max, max."""
    if min_amount is None or min_amount <= 0:
        return [max_amount] if max_amount else []
    low = min_amount
    high = max_amount if max_amount is not None and max_amount >= low else None
    candidates = {low, 2 * low, 3 * low, 5 * low}
    if high is not None:
        candidates |= {high // 2, high}
        candidates = {c for c in candidates if low <= c <= high}
    sizes = sorted(candidates)
    if len(sizes) > MAX_SIZES:
        sizes = [*sizes[: MAX_SIZES - 1], sizes[-1]]
    return sizes


def card_label(card: str) -> str:
    """A card for a button: rank and suit symbol (`Ah` → `A♥`)."""
    return card[:-1] + SUIT_SYMBOL.get(card[-1], card[-1])


@dataclass
class DrawPicker:
    """One player's choice of cards to exchange, for one turn."""

    table_id: str
    action: str
    nonce: str
    cards: list[str]
    max_cards: int | None
    chosen: list[str] = field(default_factory=list)
    message: tuple[int, int] | None = None  # (chat id, message id) of the picker

    def toggle(self, card: str) -> bool:
        """Pick or unpick a card; False when it is not in the hand or too many are picked."""
        if card not in self.cards:
            return False
        if card in self.chosen:
            self.chosen.remove(card)
            return True
        if self.max_cards is not None and len(self.chosen) >= self.max_cards:
            return False
        self.chosen.append(card)
        return True

    def args(self) -> tuple[str, ...]:
        """The picked cards in hand order, as the press's arguments."""
        return tuple(card for card in self.cards if card in self.chosen)
