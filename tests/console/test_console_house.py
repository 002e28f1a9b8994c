"""House rule words on the console (issue 16): a line read from the terminal (UTF-8 bytes through
`read_lines`) reaches the core with its `name=value` words exactly as typed, Turkish names, values
and suit symbols included, and `rules set` carries the moderator flag of `--moderator`."""

from __future__ import annotations

import asyncio
import io
import os

from bot.adapters.console import Console
from bot.adapters.lines import read_lines
from bot.core.messages import Command, Outgoing


class RecordingCore:
    """Records every command; answers nothing."""

    def __init__(self) -> None:
        self.commands: list[Command] = []

    async def handle(self, command: Command) -> list[Outgoing]:
        self.commands.append(command)
        return []

    async def press(self, press) -> list[Outgoing]:
        return []

    async def tick(self) -> list[Outgoing]:
        return []


async def typed(script: str) -> list[str]:
    """The lines `read_lines` yields for `script` written to the console's input as UTF-8."""
    read_fd, write_fd = os.pipe()
    os.write(write_fd, script.encode("utf-8"))
    os.close(write_fd)
    try:
        return [line async for line in read_lines(read_fd, asyncio.Event())]
    finally:
        os.close(read_fd)


async def test_house_rule_words_reach_the_core_as_typed():
    script = (
        "ayse: /poker open acik 20 deck=32 peek=once\n"
        "ayse: /poker aç türk Renk=♥♦♠♣ ikiçift=kupa\n"
        "mehmet: /okey başlat 3 ceza geriat=açık\n"
        "ayse: /poker rules set floş=kapalı void=off\n"
        "mehmet: /okey kurallar ayarla takeback=on\n"
    )
    core = RecordingCore()
    console = Console(io.StringIO(), moderators=("ayse",))
    for line in await typed(script):
        await console.feed(core, line)
    assert [(c.user_id, c.name, c.args, c.is_moderator) for c in core.commands] == [
        ("ayse", "poker", ("open", "acik", "20", "deck=32", "peek=once"), True),
        ("ayse", "poker", ("aç", "türk", "Renk=♥♦♠♣", "ikiçift=kupa"), True),
        ("mehmet", "okey", ("başlat", "3", "ceza", "geriat=açık"), False),
        ("ayse", "poker", ("rules", "set", "floş=kapalı", "void=off"), True),
        ("mehmet", "okey", ("kurallar", "ayarla", "takeback=on"), False),
    ]
