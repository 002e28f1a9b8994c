"""Rematch in one press: "Play again" on a stopped table, pure session logic (no I/O).

A table *stops* when an Okey or 101 match ends (the table stays open, its players seated) or when
every person left a table (it closes; the people of its last hand or round are its `company`). The
step that stops it keeps an offer in the snapshot (`TableSession.rematch`):

    {"players": [seat dicts, in seat order], "pressed": [player ids], "until": iso,
     "from": the closed table a new table continues, or None}

Each player presses once (computer players still seated count as pressed). When every player
has pressed, or a moderator presses, the match or hand begins through the game's own commands:
a player who left sits down again with `join` (poker: the default buy-in, through the ledger),
then the game's begin command (`begin_sub`) starts it (Okey: each seat's stake, through the
ledger). Players short of the chips are dropped and told privately (the core reads the
balances: `short`); fewer than the game needs: the channel is told and nothing starts. The offer
lasts `TableSession.rematch_seconds` (`CoreConfig.rematch_seconds`), until the table is reused,
or until the rematch starts.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from bot.core.errors import Refusal
from bot.core.moves import Rematch
from bot.core.table.session import ButtonSpec, Msg, Seat, Step, Who, from_iso, iso, msg

if TYPE_CHECKING:
    from bot.core.table.session import TableSession

__all__ = [
    "buttons",
    "ended",
    "expire",
    "live_offer",
    "offer",
    "offer_after_close",
    "press",
    "waiting_on",
]


def offer(session: TableSession, players: list[dict[str, Any]], source: int | None = None) -> None:
    """Offer a rematch to `players` (seat dicts) from now on; computer players are counted as
    pressed. None is offered at a tournament table, nor without a person among two players."""
    people = [p for p in players if not p.get("bot")]
    if session.options.get("tournament") or not people or len(players) < 2:
        session.rematch = None
        return
    until = session.now + timedelta(seconds=session.rematch_seconds)
    session.rematch = {
        "players": [dict(p) for p in players],
        "pressed": [p["player_id"] for p in players if p.get("bot")],
        "until": iso(until),
        "from": source,
    }


def offer_after_close(session: TableSession, step: Step) -> None:
    """Every person left and the table closes: offer its company (the people of its last hand
    or round; not its computer players) a rematch at a new table in the same channel. A table
    closed while people still sit at it (idle, a moderator's reset) offers none."""
    if step.status == "closed" and not session.people_left():
        offer(session, [p for p in session.company if not p.get("bot")])


def live_offer(session: TableSession) -> dict[str, Any] | None:
    """The table's offer while it may still be taken, else None."""
    found = session.rematch
    if found is None:
        return None
    until = from_iso(found["until"])
    return None if until is None or session.now >= until else found


def ended(session: TableSession, now: datetime) -> bool:
    """True when the table's offer stood until `now` (its timer takes the button off)."""
    until = None if session.rematch is None else from_iso(session.rematch["until"])
    return until is not None and now >= until


def waiting_on(found: dict[str, Any]) -> list[int]:
    """The players of an offer who have not pressed yet."""
    pressed = set(found["pressed"])
    return [p["player_id"] for p in found["players"] if p["player_id"] not in pressed]


def buttons(session: TableSession) -> list[ButtonSpec]:
    """The "Play again (k/n)" button while an offer stands (none once it is over)."""
    found = session.rematch
    if found is None:
        return []
    label = msg("rematch.button", pressed=len(found["pressed"]), total=len(found["players"]))
    return [ButtonSpec(Rematch(), label, style="primary")]


def expire(session: TableSession) -> Step:
    """The offer's time is up: it is taken off the table message."""
    if session.rematch is None:
        raise Refusal("err.rematch_over")
    session.rematch = None
    step = Step(action={"kind": "rematch_expired"})
    step.say("rematch.expired")
    step.show_table()
    return step


def press(session: TableSession, who: Who, short: frozenset[int], moderator: bool) -> Step:
    """`who` presses "Play again". A player of the offer counts as pressed (sitting down again
    if they had left); a moderator's press starts it at once. `short`: the players (of those
    not yet pressed, and the presser) whose wallets cannot pay `rematch_cost` now."""
    if session.rematch is None:
        raise Refusal("err.rematch_over")
    found = live_offer(session)
    if found is None:
        raise Refusal("err.rematch_expired")
    players = {p["player_id"]: p for p in found["players"]}
    mine = who.player_id in players
    if not mine and not moderator:
        raise Refusal("err.rematch_not_player")
    if mine and who.player_id in found["pressed"] and not moderator:
        raise Refusal("err.rematch_pressed")
    cost = session.rematch_cost()
    if mine and who.player_id not in found["pressed"] and who.player_id in short:
        raise Refusal("err.rematch_funds", chips=cost)
    step = Step(action={"kind": "rematch"})
    if mine and who.player_id not in found["pressed"]:
        found["pressed"].append(who.player_id)
        _sit(session, _who(players[who.player_id]), step)
        step.say("rematch.pressed", name=players[who.player_id]["name"])
    for pid in waiting_on(found):
        if pid in short:  # they could not pay: the rest go on without them
            _drop(session, found, players[pid], cost, step)
    if moderator or not waiting_on(found):
        _begin(session, found, players, step)
    step.show_table()
    return step


def _begin(
    session: TableSession, found: dict[str, Any], players: dict[int, dict[str, Any]], step: Step
) -> None:
    """Start the rematch with the players of the offer (a moderator's press: all of them)."""
    for pid in waiting_on(found):
        _sit(session, _who(players[pid]), step)
    session.rematch = None
    seated = [s for s in session.seats if not s.bot]
    if not seated:
        step.announce("rematch.too_few", reason=msg("err.need_players", count=2))
        return
    try:
        _merge(step, session.command(_who(seated[0].to_dict()), session.begin_sub, ()))
    except Refusal as exc:  # fewer than the game needs: say so, start nothing
        step.announce("rematch.too_few", reason=Msg(exc.key, dict(exc.params)))
        return
    step.announce("rematch.started")


def _sit(session: TableSession, who: Who, step: Step) -> None:
    """A player of the offer who left sits down again, the game's own way (poker's buy-in)."""
    if session.find(who.player_id) is None:
        _merge(step, session.command(who, "join", ()))


def _drop(
    session: TableSession, found: dict[str, Any], player: dict[str, Any], cost: int, step: Step
) -> None:
    """A player who cannot pay leaves the offer (and their seat, when they still have one)."""
    found["players"] = [p for p in found["players"] if p["player_id"] != player["player_id"]]
    step.tell(Seat.from_dict(player), "rematch.short", chips=cost)
    index = session.find(player["player_id"])
    if index is not None and not session.running():
        session._remove(index, step)


def _who(player: dict[str, Any]) -> Who:
    """The person of a kept seat, as a command from them would name them."""
    return Who(player["player_id"], player["user_id"], player["name"], player["locale"])


def _merge(step: Step, other: Step) -> None:
    """Fold a game command's step into the rematch's one (one commit)."""
    step.notes += other.notes
    step.transfers += other.transfers
    step.results += other.results
    step.penalties += other.penalties
    for seed in other.seeds:
        step.record_seed(seed)
    step.deals += other.deals
    step.status = other.status or step.status
    step.computers = other.computers or step.computers
