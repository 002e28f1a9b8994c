"""Slash commands built from data: each command is a `Slash` (its core word, names, options and
how the given options become the core's words) and each group a `SlashGroup` of them.

discord.py reads a command's options from its callback's signature and decorators; `command`
writes that signature from the `Opt`s (the parameter names, types and defaults) and applies the
renames, descriptions and choices, so the synced payload is what hand-written callbacks gave.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, Protocol

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

REQUIRED: Any = inspect.Parameter.empty  # an `Opt` default: the user must give the option
Values = dict[str, Any]  # the options of one use of a command, by parameter name
Said = Callable[[Values], tuple[str, ...]]


class Runner(Protocol):
    """What the commands call on the adapter."""

    async def run_command(self, interaction: Any, name: str, args: tuple[str, ...]) -> None: ...

    async def rack_choices(self, interaction: Any, current: str) -> list[Choice[str]]: ...

    async def command_failed(self, interaction: Any, error: Exception) -> None: ...

    async def refuse(self, interaction: Any, key: str) -> None: ...


def words(*parts: object) -> tuple[str, ...]:
    """The given options as command words, leaving out the ones not given."""
    return tuple(str(p) for p in parts if p is not None and str(p) != "")


def picks(*rows: tuple[str, str, Any]) -> list[Choice[Any]]:
    """An option's choices from (English name, Turkish name, value) rows."""
    return [
        Choice(name=locale_str(english, tr=turkish), value=value)
        for english, turkish, value in rows
    ]


class Opt(NamedTuple):
    """One option: its callback parameter (the key of `Values`), its English and Turkish name
    and description, its type (`str`, `int`, a `Range`, `discord.User`), its default (`REQUIRED`
    or a value; an option defaulting to None is optional), its choices, and whether it is
    autocompleted from the user's own rack (`Runner.rack_choices`)."""

    param: str
    name: locale_str
    description: locale_str
    kind: Any = str
    default: Any = None
    choices: Sequence[Choice[Any]] = ()
    rack: bool = False


class Slash(NamedTuple):
    """A command: the core's word (the subcommand, or the top-level command itself), its name
    and description, its options in order, and `says`, the words after `word` from the given
    options (by default each given option in order)."""

    word: str
    name: locale_str
    description: locale_str
    options: tuple[Opt, ...] = ()
    says: Said | None = None


class SlashGroup(NamedTuple):
    """A command group (`/poker ...`): the core's word, its name, description and commands."""

    word: str
    name: locale_str
    description: locale_str
    commands: tuple[Slash, ...]


def _signature(options: Sequence[Opt]) -> inspect.Signature:
    first = inspect.Parameter(
        "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
    )
    rest = [
        inspect.Parameter(
            o.param,
            inspect.Parameter.KEYWORD_ONLY,
            default=o.default,
            annotation=o.kind if o.default is not None else o.kind | None,
        )
        for o in options
    ]
    return inspect.Signature([first, *rest])


def command(runner: Runner, group: str, spec: Slash) -> app_commands.Command[Any, ..., Any]:
    """The command for `spec`: hands the core `group` with `spec.word` (left out for a
    top-level command, whose group is its word) and what `spec.says` of the options."""
    head = () if spec.word == group else (spec.word,)

    async def callback(interaction: discord.Interaction, **given: Any) -> None:
        values = {o.param: given.get(o.param, o.default) for o in spec.options}
        said = spec.says(values) if spec.says is not None else words(*values.values())
        await runner.run_command(interaction, group, (*head, *said))

    callback.__signature__ = _signature(spec.options)  # type: ignore[attr-defined]
    decorated: Any = callback
    if spec.options:
        decorated = app_commands.rename(**{o.param: o.name for o in spec.options})(decorated)
        decorated = app_commands.describe(**{o.param: o.description for o in spec.options})(
            decorated
        )
    chosen = {o.param: list(o.choices) for o in spec.options if o.choices}
    if chosen:
        decorated = app_commands.choices(**chosen)(decorated)
    made: app_commands.Command[Any, ..., Any] = app_commands.Command(
        name=spec.name, description=spec.description, callback=decorated
    )

    async def rack(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        return await runner.rack_choices(interaction, current)

    for option in spec.options:
        if option.rack:
            made.autocomplete(option.param)(rack)
    return made


def group(
    runner: Runner, spec: SlashGroup, *more: app_commands.Command[Any, ..., Any]
) -> app_commands.Group:
    """The server-only group of `spec`'s commands, then `more` (built otherwise)."""
    made = app_commands.Group(name=spec.name, description=spec.description, guild_only=True)
    for slash in spec.commands:
        made.add_command(command(runner, spec.word, slash))
    for built in more:
        made.add_command(built)
    return made
