"""The console table: several players share one terminal, one line per command.

Input lines look like `ayse: /poker join 100`; public output is printed as `[#table] ...` and
private output as `[DM name] ...`. End of input closes the table cleanly.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable, Iterable
from typing import TextIO

from bot.core.messages import Command, Outgoing, OutKind

PLATFORM = "console"
CHANNEL = "table"

Handler = Callable[[Command], Awaitable[list[Outgoing]]]


class ConsoleParseError(ValueError):
    """A console line that is not `name: /command args`."""


def parse_line(line: str, locale: str | None = None) -> Command | None:
    """Turn `name: /command args` into a Command; None for a blank or comment line."""
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    name, sep, rest = text.partition(":")
    name, rest = name.strip(), rest.strip()
    if not sep or not name or not rest.startswith("/") or len(rest) < 2:
        raise ConsoleParseError("expected `name: /command args`, e.g. `ayse: /help`")
    words = rest[1:].split()
    return Command(
        platform=PLATFORM,
        channel_id=CHANNEL,
        user_id=name.lower(),
        user_name=name,
        name=words[0].lower(),
        args=tuple(words[1:]),
        locale=locale,
    )


def format_outgoing(item: Outgoing, names: dict[str, str]) -> str:
    """Render one outgoing item as console text."""
    if item.kind in (OutKind.PRIVATE, OutKind.ERROR):
        who = names.get(item.user_id or "", item.user_id or "?")
        prefix = f"[DM {who}]" if item.kind is OutKind.PRIVATE else f"[! {who}]"
    else:
        prefix = f"[#{CHANNEL}]"
    lines = item.text.splitlines() or [""]
    out = [f"{prefix} {line}" for line in lines]
    for number, button in enumerate((b for row in item.buttons for b in row), start=1):
        out.append(f"{prefix}   ({number}) {button.label}")
    return "\n".join(out)


async def run_console(
    handle: Handler, lines: Iterable[str], out: TextIO, locale: str | None = None
) -> None:
    """Feed each input line to the core and print what comes back, until input ends."""
    names: dict[str, str] = {}
    for line in lines:
        try:
            command = parse_line(line, locale)
        except ConsoleParseError as exc:
            print(f"[console] {exc}", file=out, flush=True)
            continue
        if command is None:
            continue
        names[command.user_id] = command.user_name
        for item in await handle(command):
            print(format_outgoing(item, names), file=out, flush=True)


def main(handle: Handler, locale: str | None = None) -> None:
    """Run the console table on standard input and output."""
    print("[console] Type `name: /help` to begin; end of input (Ctrl-D) quits.", flush=True)
    asyncio.run(run_console(handle, sys.stdin, sys.stdout, locale))
    print("[console] bye", flush=True)
