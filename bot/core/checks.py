"""Moderator checks: the core says which commands may need a moderator (`needs_moderator`), the
adapter finds out whether the sender is one on its platform and says so on the command
(`Command.is_moderator`), and the core enforces it."""

from __future__ import annotations

from bot.core.commands import RULES_SUBS, SEASON_SUBS, lookup, route
from bot.core.errors import Refusal
from bot.core.messages import Command
from bot.core.registry import group_specs


def require_moderator(command: Command) -> None:
    """Refuse unless the sender is a moderator of this channel."""
    if not command.is_moderator:
        raise Refusal("err.not_moderator")


# tournament sub-commands a moderator may run for someone else's tournament
MODERATED_TOURNAMENT = ("start", "cancel")


def needs_moderator(name: str, args: tuple[str, ...]) -> bool:
    """Whether a command may need the sender's moderator rights: `/table ...` (reset, kick; not `web`),
    changing a table's house rules (`/poker rules set ...`, `/okey rules set ...`; plain
    `rules` only shows them), and starting or cancelling a tournament the sender did not
    organise, and setting a community's season length (`/season length ...`). Decided from the
    words alone, before anything is read."""
    routed = route(name, args)
    if routed.group == "season":
        return bool(args) and lookup(SEASON_SUBS, args[0]) == "length"
    if routed.group == "table":
        # `/table web`: anyone's own link to the web table; the private tables' commands are
        # their opener's or an invitee's (`bot.core.table.invites`)
        return routed.sub not in ("web", "invite", "uninvite", "watchers", "join")
    if routed.group is not None and group_specs(routed.group) and routed.sub == "rules":
        return bool(routed.args) and lookup(RULES_SUBS, routed.args[0]) == "set"
    return routed.group == "tournament" and routed.sub in MODERATED_TOURNAMENT
