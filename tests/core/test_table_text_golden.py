"""The table message reads exactly as it did when the move log held text (golden/table_texts.json
was written by the version that put each move into words as it was logged): the log now keeps
messages and puts them into the table's language when the message is written, byte for byte the
same, at Turkish and English tables of every game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.core.table_text_scenes import SCENES, table_texts

GOLDEN = json.loads((Path(__file__).with_name("golden") / "table_texts.json").read_text("utf-8"))


@pytest.mark.parametrize("name", sorted(SCENES))
async def test_the_table_message_reads_as_it_did_move_by_move(name):
    texts = await table_texts(name)
    assert len(texts) == len(GOLDEN[name])
    for index, (text, golden) in enumerate(zip(texts, GOLDEN[name], strict=True)):
        assert text == golden, f"{name}: table message {index} differs"
