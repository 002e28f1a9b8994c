"""The console table: several players share one terminal, one line per command.

Input lines look like `ayse: /poker join 100`; public output is printed as `[#table] ...`, private
output as `[DM name] ...` and refusals as `[! name] ...`. Buttons are printed as numbered choices;
the player to act types the number, followed by an amount or cards when the button asks for them
(`ayse: 3 40`, `ayse: 5 Ah 7c`); numbers are written with the digits 0-9. A file the core sends
(`Outgoing.attachment`, e.g. `/export`) is written into the files folder (the current folder by
default) under its own name, never over an existing file, and its path is printed as
`[file] path`. End of input, SIGTERM or Ctrl-C closes the console cleanly.
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import AsyncIterable, AsyncIterator, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from bot.adapters.invites import invite_line
from bot.core.api import CoreApi
from bot.core.commands import is_ascii_number
from bot.core.i18n import FALLBACK, t
from bot.core.messages import NEEDS_AMOUNT, NEEDS_CARDS, Button, Command, Outgoing, OutKind, Press
from bot.core.names import clean_name

PLATFORM = "console"
CHANNEL = "table"
COMMUNITY = "console"  # the console's one community, for its tables and leaderboards
DEFAULT_PLAYER = "player"  # who a line without `name:` is from
CHOICE_DIGITS = 9  # no screen holds more choices; a longer number is a bad line
MAX_NAME = 32  # characters of a console player's name
UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


class ConsoleParseError(ValueError):
    """A console line that is not `name: /command args` or `name: <number> [args]`."""


@dataclass(frozen=True)
class Choice:
    """A numbered button choice typed by a player: `ayse: 2 40`."""

    user_id: str
    user_name: str
    number: int
    args: tuple[str, ...]


def parse_line(
    line: str, locale: str | None = None, moderators: Iterable[str] = ()
) -> Command | Choice | None:
    """Turn `name: /command args` into a Command and `name: 2 40` into a Choice (the number
    written with the digits 0-9); None for a blank or comment line. A bare `/command` is from
    `DEFAULT_PLAYER`. Anything else raises `ConsoleParseError`."""
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    if text.startswith("/"):  # a newcomer's bare `/help`: typed by the default player
        text = f"{DEFAULT_PLAYER}: {text}"
    name, sep, rest = text.partition(":")
    name, rest = name.strip(), rest.strip()
    if len(name) > MAX_NAME:  # the store keeps user ids of at most 64 characters
        raise ConsoleParseError(f"a player's name is at most {MAX_NAME} characters")
    words = rest.split()
    if sep and name and words and is_ascii_number(words[0]) and len(words[0]) <= CHOICE_DIGITS:
        return Choice(name.lower(), name, int(words[0]), tuple(words[1:]))
    if not sep or not name or not rest.startswith("/") or len(rest) < 2:
        raise ConsoleParseError(
            "expected `name: /command args` or `name: <choice number>`, e.g. `ayse: /help`"
        )
    words = rest[1:].split()
    return Command(
        platform=PLATFORM,
        channel_id=CHANNEL,
        user_id=name.lower(),
        user_name=clean_name(name, name.lower()),
        name=words[0].lower(),
        args=tuple(words[1:]),
        locale=locale,
        is_moderator=name.lower() in {m.lower() for m in moderators},
        community=COMMUNITY,
    )


def _button_text(number: int, button: Button) -> str:
    hint = ""
    if button.needs == NEEDS_AMOUNT and button.min_amount != button.max_amount:
        hint = f"  → {number} <{button.min_amount}-{button.max_amount}>"
    elif button.needs == NEEDS_CARDS:
        hint = f"  → {number} [7c 9h …] (0-{button.max_cards})"
    return f"({number}) {button.label}{hint}"


def format_outgoing(item: Outgoing, names: dict[str, str], locale: str = FALLBACK) -> str:
    """Render one outgoing item as console text, buttons numbered from 1; a private table's
    invitation (`Outgoing.invite`) as the command that uses it, in `locale`."""
    if item.kind in (OutKind.PRIVATE, OutKind.ERROR):
        who = names.get(item.user_id or "", item.user_id or "?")
        prefix = f"[DM {who}]" if item.kind is OutKind.PRIVATE else f"[! {who}]"
    else:
        prefix = f"[#{item.channel_id or CHANNEL}]"  # a shared room's full id: `table#t1`
    lines = item.text.splitlines() or [""]
    if item.invite is not None and item.kind is OutKind.PRIVATE:
        lines.append(invite_line(locale, item.invite))
    out = [f"{prefix} {line}" for line in lines]
    buttons = [b for row in item.buttons for b in row]
    if buttons:
        out.append(f"{prefix}   " + "  ".join(_button_text(i, b) for i, b in enumerate(buttons, 1)))
    return "\n".join(out)


def file_name(name: str) -> str:
    """A file name the core gave, safe to write in a folder: no folders, no hidden file, only
    letters, digits, `.`, `_` and `-` (anything else becomes `_`)."""
    safe = UNSAFE.sub("_", Path(name.replace("\\", "/")).name).lstrip(".")
    return safe or "attachment"


def free_path(folder: Path, name: str) -> Path:
    """`folder/name`, or `folder/stem-2.suffix` (-3, ...) when that file exists already."""
    path = folder / name
    number = 1
    while path.exists():
        number += 1
        path = folder / f"{Path(name).stem}-{number}{Path(name).suffix}"
    return path


@dataclass
class Console:
    """The console's memory: display names, the numbered choices on screen, picture files and
    the folder attachments are written to."""

    out: TextIO
    locale: str | None = None
    moderators: tuple[str, ...] = ()
    pictures: Path | None = None
    files: Path = field(default_factory=Path)
    names: dict[str, str] = field(default_factory=dict)
    public_choices: list[Button] = field(default_factory=list)
    private_choices: dict[str, list[Button]] = field(default_factory=dict)
    _order: dict[str, int] = field(default_factory=dict)
    _count: int = 0
    _saved: int = 0

    def show(self, items: list[Outgoing]) -> None:
        """Print outgoing items and remember their buttons as the current choices."""
        for item in items:
            print(
                format_outgoing(item, self.names, self.locale or FALLBACK),
                file=self.out,
                flush=True,
            )
            buttons = [b for row in item.buttons for b in row]
            self._count += 1
            if item.kind in (OutKind.PUBLIC, OutKind.EDIT_TABLE) and buttons:
                self.public_choices = buttons
                self._order[""] = self._count
            elif item.kind is OutKind.PRIVATE and buttons and item.user_id:
                self.private_choices[item.user_id] = buttons
                self._order[item.user_id] = self._count
            if item.picture is not None and self.pictures is not None:
                self._save(item)
            if item.attachment is not None:
                self._write(item.attachment)

    def _save(self, item: Outgoing) -> None:
        assert self.pictures is not None and item.picture is not None
        self.pictures.mkdir(parents=True, exist_ok=True)
        self._saved += 1
        path = self.pictures / f"{self._saved:04d}.png"
        path.write_bytes(item.picture)
        print(f"[picture] {path}", file=self.out, flush=True)

    def _write(self, attachment: tuple[str, bytes]) -> None:
        """Write an attachment into the files folder and print where it is."""
        name, content = attachment
        self.files.mkdir(parents=True, exist_ok=True)
        path = free_path(self.files, file_name(name))
        path.write_bytes(content)
        print(f"[file] {path}", file=self.out, flush=True)

    def choices_for(self, user_id: str) -> list[Button]:
        """The numbered choices a player sees: their newest private set or the table's."""
        mine = self.private_choices.get(user_id)
        if mine and self._order.get(user_id, 0) > self._order.get("", 0):
            return mine
        return self.public_choices

    def press_for(self, choice: Choice) -> Press | str:
        """The press a typed choice number stands for, or the reason it stands for none."""
        buttons = self.choices_for(choice.user_id)
        if not 1 <= choice.number <= len(buttons):
            return t(self.locale or FALLBACK, "console.no_choice", number=choice.number)
        button = buttons[choice.number - 1]
        return Press(
            platform=PLATFORM,
            channel_id=CHANNEL,
            user_id=choice.user_id,
            user_name=choice.user_name,
            table_id=button.table_id,
            action=button.action,
            nonce=button.nonce,
            args=choice.args,
            locale=self.locale,
            is_moderator=choice.user_name.lower() in {m.lower() for m in self.moderators},
            community=COMMUNITY,
        )

    async def feed(self, core: CoreApi, line: str) -> None:
        """Handle one input line."""
        try:
            parsed = parse_line(line, self.locale, self.moderators)
        except ConsoleParseError:
            print(
                f"[console] {t(self.locale or FALLBACK, 'console.bad_line')}",
                file=self.out,
                flush=True,
            )
            return
        if parsed is None:
            return
        self.names[parsed.user_id] = parsed.user_name
        if isinstance(parsed, Command):
            self.show(await core.handle(parsed))
        else:
            press = self.press_for(parsed)
            if isinstance(press, str):
                print(f"[console] {press}", file=self.out, flush=True)
                return
            self.show(await core.press(press))
        self.show(await core.tick())


async def run_console(
    core: CoreApi,
    lines: Iterable[str] | AsyncIterable[str],
    out: TextIO,
    locale: str | None = None,
    moderators: tuple[str, ...] = (),
    pictures: Path | None = None,
    start: bool = True,
    stop: asyncio.Event | None = None,
    files: Path | None = None,
    console: Console | None = None,
) -> Console:
    """Feed each input line to the core and print what comes back, until input ends or `stop`
    is set (a line being handled is finished first). Attachments are written into `files`
    (default: the current folder). `console`: one made already (the web table prints through
    it too); it then replaces `out`, `locale`, `moderators`, `pictures` and `files`."""
    console = console or Console(out, locale, moderators, pictures, files=files or Path())
    stop = stop or asyncio.Event()
    if start:
        console.show(await core.start())
    async for line in _each(lines):
        if stop.is_set():
            break
        await console.feed(core, line)
    return console


async def _each(lines: Iterable[str] | AsyncIterable[str]) -> AsyncIterator[str]:
    """The lines of a plain or an asynchronous iterable, one at a time."""
    if isinstance(lines, AsyncIterable):
        async for line in lines:
            yield line
    else:
        for line in lines:
            yield line


def banner(out: TextIO = sys.stdout) -> None:
    """The console's greeting."""
    print(
        "[console] Type `name: /help` to begin; choices are typed as `name: <number>`; "
        "end of input (Ctrl-D) or Ctrl-C quits.",
        file=out,
        flush=True,
    )
