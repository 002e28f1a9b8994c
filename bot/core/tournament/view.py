"""A tournament's living message: registration (entrants, Join / Leave / Start buttons), then the
standings (stage, tables, players with their live penalty totals, who advanced, the seating
hashes and revealed seeds), then the ranking with the prizes. One message, edited in place.

Its `table_id` is `t<tournament id>` (never a number, so it cannot be taken for a table's), and
its buttons carry the same id; `is_tournament_id` tells them apart.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.core.codec import codec
from bot.core.messages import Button, Outgoing, OutKind, TableLink
from bot.core.moves import Leave, Move, Sit, Start
from bot.core.table.deliver import text, words
from bot.core.table.session import Msg, TableOutcome, msg
from bot.core.tournament.state import OKEY101, Slot, Tournament, is_knockout

PREFIX = "t"
MAX_TEXT = 1900  # under Discord's 2000 characters; Telegram allows 4096
BUTTONS: tuple[tuple[Move, str, str], ...] = (
    (Sit(), "btn.tournament_join", "primary"),
    (Leave(), "btn.tournament_leave", "secondary"),
    (Start(), "btn.tournament_start", "success"),
)


def message_id(tournament_id: int) -> str:
    """The id of a tournament's living message and of its buttons: `t<id>`."""
    return f"{PREFIX}{tournament_id}"


def tournament_number(table_id: str) -> int | None:
    """The tournament a button's `table_id` names, or None when it names none."""
    rest = table_id[len(PREFIX) :] if table_id.startswith(PREFIX) else ""
    if not (rest.isascii() and rest.isdigit()) or len(rest) > 18:
        return None
    return int(rest) or None


def is_tournament_id(table_id: str) -> bool:
    """True when a button's `table_id` names a tournament rather than a table."""
    return tournament_number(table_id) is not None


def lines(
    state: Tournament, live: Mapping[int, TableOutcome] | None = None, compact: bool = False
) -> list[Msg]:
    """The message's lines; `live` holds the current standing of tables still playing (by
    `Slot.number`) for their live penalty totals. Once finished, the ranking comes first.
    `compact` (a message that would be too long): who advanced from each stage and the stage
    seeds are left out (`/verify t<id>-s<stage>` shows a seed) and the unpaid places share one
    line."""
    s = state.settings
    out = [
        msg(
            f"tournament.head.{state.kind}",
            id=state.id,
            fee=s.fee,
            rounds=s.rounds,
            split="/".join(map(str, s.split)),
            chips=s.chips,
            minutes=s.level_minutes,
        )
    ]
    if state.status == "registering":
        out.append(msg("tournament.organiser", name=state.organiser_name or "?"))
        if s.start_label:
            out.append(msg("tournament.starts_at", time=s.start_label))
        if s.bots:
            out.append(msg("tournament.bots_on"))
        if is_knockout(state.kind) and s.variant == OKEY101:
            out.append(msg("tournament.okey101"))
        if is_knockout(state.kind) and s.preset != "penalty":
            out.append(msg("tournament.preset", preset=msg(f"preset.{s.preset}")))
        names = ", ".join(e.name for e in state.entrants) or "—"
        out.append(
            msg(
                "tournament.entrants",
                count=len(state.entrants),
                max=s.capacity(state.kind),
                names=names,
            )
        )
        out.append(msg("tournament.register_help"))
        return out
    if state.status == "cancelled":
        out.append(msg("tournament.cancelled_state"))
        return out
    if state.status == "finished":
        out += _ranking(state, compact)
    for stage in state.stages:
        out.append(
            msg(
                "tournament.final" if stage.final else "tournament.stage",
                stage=stage.number,
                hash=stage.seed_hash[:16],
            )
        )
        if stage is state.stage and state.status == "running":
            for slot in stage.tables:
                out.append(_table_line(state, slot, (live or {}).get(slot.number)))
        if stage.advanced is not None and not stage.final and not compact:
            names = ", ".join(state.name(p) for p in stage.advanced) or "—"
            out.append(msg("tournament.advanced", stage=stage.number, names=names))
        if stage.revealed and not compact:
            out.append(msg("tournament.seed", stage=stage.number, seed=stage.seed))
    if compact and any(stage.revealed for stage in state.stages):
        out.append(msg("tournament.seeds_verify", check=f"t{state.id}-s1"))
    return out


def _ranking(state: Tournament, compact: bool) -> list[Msg]:
    """The final ranking: every place on a line (compact: the paid places, then the rest on
    one line)."""
    out = [msg("tournament.ranking_head")]
    rest: list[str] = []
    for place, pid in enumerate(state.ranking, start=1):
        chips = state.prizes[place - 1] if place <= len(state.prizes) else 0
        if compact and not chips:
            rest.append(f"{place}. {state.name(pid)}")
            continue
        key = "tournament.place_paid" if chips else "tournament.place"
        out.append(msg(key, place=place, name=state.name(pid), chips=chips))
    if rest:
        out.append(msg("tournament.places_rest", places=", ".join(rest)))
    return out


def _table_line(state: Tournament, slot: Slot, live: TableOutcome | None) -> Msg:
    """`Table 3: Ayşe 12 ✓, Mehmet 40` (Okey: penalty totals; a sit-and-go: tournament chips;
    ✓ advanced, ✗ forfeited)."""
    order = slot.order or (
        [p for p in live.order if p in slot.players] if live is not None else slot.players
    )
    figures = {int(k): v for k, v in slot.figures.items()} if slot.order else {}
    if not figures and live is not None:
        figures = live.figures
    advancing = set(slot.advancing())
    parts = []
    for pid in order:
        f = figures.get(pid, {})
        mark = " ✗" if f.get("forfeit") else (" ✓" if pid in advancing else "")
        if is_knockout(state.kind):
            value = f.get("penalty", 0)
        else:  # before the table reports, everyone holds the starting chips
            value = f.get("chips", state.settings.chips)
        parts.append(f"{state.name(pid)} {value}{mark}")
    key = "tournament.table_done" if slot.order is not None else "tournament.table_playing"
    return msg(key, number=slot.number, players=", ".join(parts), bots=slot.bots)


def message(
    state: Tournament,
    channel_id: str,
    live: Mapping[int, TableOutcome] | None = None,
    fresh: bool = False,
) -> Outgoing:
    """The living message as an `EDIT_TABLE` item in the tournament's channel, with the
    registration buttons while registering and its tables playing now (`Outgoing.tables`)."""
    body = text(state.locale, lines(state, live))
    if len(body) > MAX_TEXT:
        body = text(state.locale, lines(state, live, compact=True))
    if len(body) > MAX_TEXT:
        body = body[: MAX_TEXT - 1] + "…"
    buttons: tuple[tuple[Button, ...], ...] = ()
    if state.status == "registering":
        row = tuple(
            Button(
                label=words(state.locale, msg(label)),
                table_id=message_id(state.id),
                action=codec.code(move),
                nonce=state.nonce,
                style=style,
            )
            for move, label, style in BUTTONS
        )
        buttons = (row,)
    return Outgoing(
        OutKind.EDIT_TABLE,
        body,
        channel_id=channel_id,
        table_id=message_id(state.id),
        buttons=buttons,
        fresh=fresh,
        tables=playing(state),
    )


def playing(state: Tournament) -> tuple[TableLink, ...]:
    """The tables of the running stage still playing their match (each one's web page)."""
    stage = state.stage
    if stage is None or state.status != "running":
        return ()
    return tuple(
        TableLink(str(slot.table_id), slot.number)
        for slot in stage.tables
        if slot.table_id is not None and slot.order is None
    )


def announcement(state: Tournament, channel_id: str, lines_: list[Msg]) -> Outgoing:
    """A message of its own in the tournament's channel (a stage seated, the winners)."""
    return Outgoing(
        OutKind.PUBLIC,
        text(state.locale, lines_),
        channel_id=channel_id,
        table_id=message_id(state.id),
    )
