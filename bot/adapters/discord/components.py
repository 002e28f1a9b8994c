"""Buttons, the draw select and the amount modal of table messages.

Every component's custom id carries what the press needs, so buttons keep working after a restart
(the classes are registered once, `DYNAMIC_ITEMS` in `activity.REGISTERED_ITEMS`):

    t:<table>:<action>:<nonce>:<needs>   a turn button; needs is `-`, `a` (amount) or `c<n>` (cards)
    h:<table>:<group>                    "Show my hand" (group `poker` or `okey`)
    d:<table>:<action>:<nonce>           the draw select of my cards
    m:<table>:<action>:<nonce>:<user>    the amount modal (in memory, like any modal; one per user)

The callbacks only hand the press to the adapter (`interaction.client.adapter`); the core checks it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from bot.adapters.discord.texts import text
from bot.core.messages import NEEDS_AMOUNT, NEEDS_CARDS, Button, Pick

MAX_CUSTOM_ID = 100  # Discord's limit for component custom ids
MAX_LABEL = 80
MAX_OPTIONS = 25
STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
_PART = r"[^:]{1,40}"


@dataclass(frozen=True)
class TurnRef:
    """What a turn component stands for: the core's table, action and nonce, and its input."""

    table_id: str
    action: str
    nonce: str
    needs: str | None = None
    max_cards: int | None = None

    @classmethod
    def of(cls, button: Button) -> TurnRef:
        """The reference of a core button."""
        return cls(button.table_id, button.action, button.nonce, button.needs, button.max_cards)

    @property
    def core_id(self) -> str:
        """The core's `table:action:nonce`."""
        return f"{self.table_id}:{self.action}:{self.nonce}"

    def needs_code(self) -> str:
        """`-`, `a` or `c<n>` for the custom id."""
        if self.needs == NEEDS_AMOUNT:
            return "a"
        if self.needs == NEEDS_CARDS:
            return "c" + ("" if self.max_cards is None else str(self.max_cards))
        return "-"

    @classmethod
    def from_match(cls, match: re.Match[str]) -> TurnRef:
        """Parse the groups of a turn template match."""
        code = match.groupdict().get("needs") or "-"
        needs, max_cards = None, None
        if code == "a":
            needs = NEEDS_AMOUNT
        elif code.startswith("c"):
            needs = NEEDS_CARDS
            max_cards = int(code[1:]) if code[1:] else None
        return cls(match["table"], match["action"], match["nonce"], needs, max_cards)


class Handler(Protocol):
    """What the components call on the adapter (`interaction.client.adapter`)."""

    async def on_turn(self, interaction: Any, ref: TurnRef) -> None: ...

    async def on_show_hand(self, interaction: Any, table_id: str, group: str) -> None: ...

    async def on_draw(self, interaction: Any, ref: TurnRef, cards: tuple[str, ...]) -> None: ...

    async def on_amount(self, interaction: Any, ref: TurnRef, value: str) -> None: ...


def handler_of(interaction: Any) -> Handler:
    """The adapter serving this interaction's client."""
    return interaction.client.adapter


class TurnButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"t:(?P<table>{_PART}):(?P<action>{_PART}):(?P<nonce>{_PART}):(?P<needs>-|a|c\d{{0,2}})",
):
    """A turn button of the table message (check, call, raise, draw, ...)."""

    def __init__(self, ref: TurnRef, label: str = "", style: str = "secondary") -> None:
        super().__init__(
            discord.ui.Button(
                label=(label or ref.action)[:MAX_LABEL],
                style=STYLES.get(style, discord.ButtonStyle.secondary),
                custom_id=f"t:{ref.core_id}:{ref.needs_code()}",
            )
        )
        self.ref = ref

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TurnButton:
        """Rebuild the button from a pressed custom id."""
        return cls(TurnRef.from_match(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the press to the adapter."""
        await handler_of(interaction).on_turn(interaction, self.ref)


class HandButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"h:(?P<table>{_PART}):(?P<group>poker|okey)",
):
    """The "Show my hand" button: the presser's cards or rack as an ephemeral reply."""

    def __init__(self, table_id: str, group: str, label: str = "Show my hand") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:MAX_LABEL],
                style=discord.ButtonStyle.secondary,
                emoji="🃏",  # 🂠 is not in Discord's emoji set
                custom_id=f"h:{table_id}:{group}",
            )
        )
        self.table_id = table_id
        self.group = group

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HandButton:
        """Rebuild the button from a pressed custom id."""
        return cls(match["table"], match["group"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the press to the adapter."""
        await handler_of(interaction).on_show_hand(interaction, self.table_id, self.group)


class DrawSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=rf"d:(?P<table>{_PART}):(?P<action>{_PART}):(?P<nonce>{_PART})",
):
    """The cards to exchange, picked from the player's own hand (none picked: stand pat)."""

    def __init__(
        self, ref: TurnRef, cards: list[tuple[str, str]] | None = None, placeholder: str = ""
    ) -> None:
        options = [discord.SelectOption(label=label, value=value) for value, label in cards or []]
        options = options[:MAX_OPTIONS] or [discord.SelectOption(label="-", value="-")]
        most = len(options) if ref.max_cards is None else min(ref.max_cards, len(options))
        super().__init__(
            discord.ui.Select(
                custom_id=f"d:{ref.core_id}",
                placeholder=placeholder or None,
                min_values=0,
                max_values=max(most, 1),
                options=options,
            )
        )
        self.ref = ref

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DrawSelect:
        """Rebuild the select from a submitted custom id."""
        ref = TurnRef(match["table"], match["action"], match["nonce"], NEEDS_CARDS)
        return cls(ref)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the chosen cards to the adapter."""
        data: Any = interaction.data or {}  # a select's payload: {"values": [...], ...}
        values = tuple(v for v in data.get("values", ()) if v != "-")
        await handler_of(interaction).on_draw(interaction, self.ref, values)


AMOUNT_INPUT = "amount"  # the text input's custom id: fixed, so a submission is always readable


def amount_modal_id(ref: TurnRef, user_id: int | str) -> str:
    """The modal's custom id: the turn and the user it was shown to. discord.py keeps one open
    modal per custom id, so without the user a second person opening the same modal would take
    the first one's place (and the first one's typed amount would be lost)."""
    return f"m:{ref.core_id}:{user_id}"[:MAX_CUSTOM_ID]


def submitted_value(data: Any, custom_id: str) -> str | None:
    """The value typed into the text input `custom_id`, read from a modal submission's data
    (rows of components, or labelled components); None when it is not there."""
    stack = list((data or {}).get("components", ()))
    while stack:
        component = stack.pop(0)
        if not isinstance(component, dict):
            continue
        if component.get("custom_id") == custom_id and "value" in component:
            value = component["value"]
            return value if isinstance(value, str) else None
        stack.extend(component.get("components", ()))
        if isinstance(component.get("component"), dict):
            stack.append(component["component"])
    return None


class AmountModal(discord.ui.Modal):
    """Asks for the total stake of a bet, raise or open; one per user and turn."""

    def __init__(
        self, ref: TurnRef, locale: str, button: Button | None, user_id: int | str
    ) -> None:
        low = button.min_amount if button is not None else None
        high = button.max_amount if button is not None else None
        title = (button.label if button is not None else ref.action)[:45]
        super().__init__(title=title, custom_id=amount_modal_id(ref, user_id), timeout=600)
        label = (
            text(locale, "amount_label", min=low, max=high)
            if low is not None and high is not None
            else text(locale, "amount_label_open")
        )
        self.amount: discord.ui.TextInput[AmountModal] = discord.ui.TextInput(
            label=label[:45],
            custom_id=AMOUNT_INPUT,
            placeholder=str(low) if low is not None else None,
            default=str(low) if low is not None else None,
            min_length=1,
            max_length=15,
        )
        self.add_item(self.amount)
        self.ref = ref

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Hand the typed amount to the adapter: what the submission says, read from its data
        (the input's own value only when the data lacks it)."""
        typed = submitted_value(interaction.data, AMOUNT_INPUT)
        value = typed if typed is not None else self.amount.value
        await handler_of(interaction).on_amount(interaction, self.ref, value.strip())


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (TurnButton, HandButton, DrawSelect)


def table_view(
    rows: tuple[tuple[Button, ...], ...], table_id: str | None, group: str | None, hand_label: str
) -> discord.ui.View:
    """The core's turn buttons row by row, then "Show my hand" when a table and group are given
    (a table message); without them (a private message) all five rows hold turn buttons."""
    view = discord.ui.View(timeout=None)
    used = 0
    hand = table_id is not None and group is not None
    for row in rows[: 4 if hand else 5]:
        for button in row[:5]:
            item = TurnButton(TurnRef.of(button), button.label, button.style)
            item.row = used
            view.add_item(item)
        used += 1
    if table_id is not None and group is not None:
        hand_button = HandButton(table_id, group, hand_label)
        hand_button.row = min(used, 4)
        view.add_item(hand_button)
    return view


def draw_view(ref: TurnRef, cards: Sequence[Pick], locale: str) -> discord.ui.View:
    """An ephemeral picker of my cards for a draw (the core's picker: codes and labels)."""
    view = discord.ui.View(timeout=None)
    choices = [(pick.code, pick.label) for pick in cards]
    view.add_item(DrawSelect(ref, choices, text(locale, "draw_placeholder")))
    return view
