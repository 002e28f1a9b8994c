"""Put a step's notes into words: public lines to the channel, private lines to one player.

Public text uses the table's language; private text and errors the player's own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from bot.core.codec import codec
from bot.core.i18n import t
from bot.core.messages import Button, Outgoing, OutKind
from bot.core.sketch import Sketch
from bot.core.table import rematch
from bot.core.table.kept import back_buttons
from bot.core.table.private import private_line
from bot.core.table.reacting import reaction_row
from bot.core.table.session import ButtonSpec, KeptLine, Msg, Note, TableSession


def _param(locale: str, value: Any) -> Any:
    if isinstance(value, Msg):
        return words(locale, value)
    if isinstance(value, list):  # a list of notes: "folded, stake 20"; empty: nothing
        rendered = ", ".join(str(_param(locale, v)) for v in value)
        return f" ({rendered})" if rendered else ""
    return value


def words(locale: str, line: Msg) -> str:
    """One catalogue line in `locale`; `Msg` parameters are translated first, and a list
    parameter becomes ` (a, b)` (or nothing when empty)."""
    params = {k: _param(locale, v) for k, v in line.params.items()}
    return t(locale, line.key, **params)


def text(locale: str, lines: list[Msg]) -> str:
    """Several lines, one per row."""
    return "\n".join(words(locale, line) for line in lines)


def render_buttons(
    session: TableSession, locale: str, specs: list[ButtonSpec]
) -> tuple[tuple[Button, ...], ...]:
    """Buttons in rows of five, carrying the table id and the current turn nonce."""
    buttons = tuple(
        Button(
            label=words(locale, spec.label),
            table_id=str(session.table_id),
            action=codec.code(spec.move),
            nonce=session.nonce,
            style=spec.style,
            needs=spec.needs,
            min_amount=spec.min_amount,
            max_amount=spec.max_amount,
            max_cards=spec.max_cards,
        )
        for spec in specs
    )
    return tuple(buttons[i : i + 5] for i in range(0, len(buttons), 5))


MAX_TABLE_TEXT = 1024  # Telegram's longest photo caption: the table message fits one


def table_text(session: TableSession, note: Msg | None = None) -> str:
    """The table message's text: the table state, then the move log (newest last), then `note`
    when given (a line shown once, kept out of the log); a closed table shows its header, the
    log and that it is closed. Oldest moves give way, and at worst the text is cut, so that it
    always fits `MAX_TABLE_TEXT` characters."""
    state = session.table_lines()
    if (private := private_line(session)) is not None:  # under the header
        state = [*state[:1], private, *state[1:]]
    if session.phase == "closed":
        state = [*state[:1]]
        note = Msg("table.is_closed")
    tail = [] if note is None else [words(session.locale, note)]
    head = text(session.locale, state)
    moves = move_lines(session)
    while True:
        body = "\n".join([head, *(["", *moves] if moves else []), *tail])
        if len(body) <= MAX_TABLE_TEXT or not moves:
            break
        moves.pop(0)
    return body if len(body) <= MAX_TABLE_TEXT else body[: MAX_TABLE_TEXT - 1] + "…"


def table_message(
    session: TableSession,
    channel_id: str,
    fresh: bool = False,
    note: Msg | None = None,
    version: int | None = None,
) -> Outgoing:
    """The table's message: state, move log (and `note`, see `table_text`), the turn buttons and
    "I'm back" (`table_buttons`; none once the table is closed) with the reactions' `😀` under
    them, then "Play again" while a rematch is offered (`bot.core.table.rematch`). `fresh`: post
    it anew at the bottom of the channel. `version`: the committed table version it shows."""
    closed = session.phase == "closed"
    turn = [] if closed else table_buttons(session)
    buttons = render_buttons(session, session.locale, [*turn, *rematch.buttons(session)])
    if turn:  # the reactions' one button goes with the turn's (`bot.core.table.reacting`)
        buttons = (*buttons, reaction_row(session))
    return Outgoing(
        OutKind.EDIT_TABLE,
        table_text(session, note),
        channel_id=channel_id,
        table_id=str(session.table_id),
        buttons=buttons,
        sketch=None if closed else session.table_sketch(),
        fresh=fresh and not closed,
        version=version,
    )


def table_buttons(session: TableSession) -> list[ButtonSpec]:
    """The table message's buttons: the turn buttons of the seat to act, then "I'm back" while
    a seat is kept (`bot.core.table.kept`)."""
    return [*session.buttons(), *back_buttons(session)]


def log_moves(session: TableSession, notes: list[Note]) -> None:
    """Add the public move lines among `notes` (public notes not announced) to the table's move
    log, as messages (`move_lines` puts them into words); from a note that starts a new hand
    on, the log starts afresh (the last hand's moves are over, its result is announced)."""
    lines: list[Msg] = []
    fresh = False
    for note in notes:
        if note.new_hand:
            lines, fresh = [], True
        if note.to is None and not note.announce:
            lines += note.lines
    session.log_moves(lines, fresh=fresh)


def move_lines(session: TableSession, locale: str | None = None) -> list[str]:
    """The move log in `locale` (None: the table's language), oldest first (`kept_words`)."""
    return kept_words(locale or session.locale, session.moves)


def kept_words(locale: str, lines: Sequence[KeptLine]) -> list[str]:
    """Lines kept in a snapshot (`KeptLine`) in `locale`; a line kept as text by an older
    version reads as it was written."""
    return [line if isinstance(line, str) else words(locale, Msg.from_dict(line)) for line in lines]


def hand_label(session: TableSession, hand: str) -> Msg:
    """`Hand 12-3` (poker) or `Round 12-3` (Okey): the label of a private hand message."""
    return Msg(f"{session.group}.label", {"hand": hand})


def deliver(
    session: TableSession, channel_id: str, notes: list[Note], version: int | None = None
) -> list[Outgoing]:
    """Turn notes into outgoing items: the step's announcements become one channel message (with
    the last public picture among them) and come first; private lines go to their player with
    their picture (never to a computer player), a hand's cards or tiles labelled with the hand
    and carrying its slot; the table message comes last, once. Moves are not sent here: they are
    in the move log (`log_moves`, added by the table service before its commit) and so in the
    table message. After an announcement the table message is posted anew (`fresh`), so that
    it stays the newest message in the channel; a closed table's message loses its buttons.
    `version`: the committed table version the table message shows."""
    out: list[Outgoing] = []
    announced: list[Msg] = []
    picture: Sketch | None = None
    want_table = False
    table = str(session.table_id)
    for note in notes:
        want_table = want_table or note.table
        if note.to is None:
            if note.announce:
                announced.extend(note.lines)
                picture = note.picture or picture
        elif note.lines and not note.to.bot:
            lines = note.lines
            slot = None
            if note.hand is not None:
                label = words(note.to.locale, hand_label(session, note.hand))
                lines = [Msg("private.labelled", {"label": label, "line": lines[0]}), *lines[1:]]
                slot = f"{table}:{note.hand}"
            out.append(
                Outgoing(
                    OutKind.PRIVATE,
                    text(note.to.locale, lines),
                    user_id=note.to.user_id,
                    table_id=table,
                    buttons=render_buttons(session, note.to.locale, note.buttons),
                    sketch=note.picture,
                    slot=slot,
                    picker=note.picker,
                    prompt=note.prompt,
                )
            )
    if announced:
        out.insert(
            0,
            Outgoing(
                OutKind.PUBLIC,
                text(session.locale, announced),
                channel_id=channel_id,
                table_id=table,
                sketch=picture,
            ),
        )
    if session.phase == "closed" or want_table or announced:
        out.append(table_message(session, channel_id, fresh=bool(announced), version=version))
    return out


def error(locale: str, user_id: str, key: str, **params: Any) -> Outgoing:
    """A refusal shown only to the sender."""
    return Outgoing(OutKind.ERROR, words(locale, Msg(key, params)), user_id=user_id)


async def deliver_meanwhile(
    commit: asyncio.Future[int],
    session: TableSession,
    channel_id: str,
    notes: list[Note],
    version: int,
) -> tuple[list[Outgoing], int] | Exception:
    """`deliver` for the version a step's `commit` (of the table at `version`) will make, put
    into words while the commit runs, once it has reached the writer; with that version. A bug
    here is returned, to be raised after the commit; cancelled, the commit is cancelled too (it
    may still complete in the writer thread)."""
    try:
        await asyncio.sleep(0)  # the commit reaches the writer thread's queue
        await session.prepare(None)  # the new position's figures, off the event loop
        return deliver(session, channel_id, notes, version + 1), version + 1
    except asyncio.CancelledError:
        commit.cancel()
        raise
    except Exception as exc:
        return exc
