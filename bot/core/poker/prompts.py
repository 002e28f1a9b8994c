"""The questions a poker button asks before it is a move, as data (`bot.core.messages.Prompt`):
the total stake of an opening, bet or raise (on the refusal that says it in words), and the
cards to exchange in a draw (privately, with the player's own hand; nothing is played)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.errors import Refusal
from bot.core.messages import NEEDS_AMOUNT, NEEDS_CARDS, Pick, Picker, Prompt
from bot.core.table.session import Step, TableSession
from bot.render.text import card as card_label
from games.base import ActionSpec


def amount_needed(table_id: str, nonce: str, spec: ActionSpec) -> Refusal:
    """The refusal of an amount move without its amount, asking for it between the public
    limits of `spec` (they never tell the presser's cards)."""
    low, high = spec.min_amount, spec.max_amount
    prompt = Prompt(NEEDS_AMOUNT, table_id, nonce, spec.kind, low, high)
    return Refusal("err.amount_needed", action=spec.kind, min=low, max=high, prompt=prompt)


def draw_question(
    session: TableSession, table_index: int, hand: Sequence[str], most: int | None
) -> Step:
    """The hand of the seat at `table_index` with the question which of its cards to exchange
    (at most `most`), only to them: a step that only answers."""
    codes = tuple(dict.fromkeys(hand))
    choices = tuple(Pick(card, card_label(card)) for card in codes)
    table, nonce = str(session.table_id), session.nonce
    prompt = Prompt(NEEDS_CARDS, table, nonce, "draw", max_cards=most, choices=choices)
    step = Step(action={"kind": "pick"}, seat=table_index, answer_only=True)
    note = session.tell_hand(
        session.seats[table_index],
        session.private_lines(table_index, "hand", ()),
        picture=session.private_sketch(table_index, "hand", ()),
        picker=Picker(NEEDS_CARDS, choices),
        prompt=prompt,
    )
    step.notes.append(note)
    return step
