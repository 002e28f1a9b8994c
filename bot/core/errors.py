"""The core's refusal: a catalogue key and parameters, shown to the sender in their language."""

from __future__ import annotations

from typing import Any


class Refusal(Exception):
    """A command or press that is refused; nothing was changed.

    `key` names the text in the catalogue (`err.*`), `params` fill it.
    """

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params
