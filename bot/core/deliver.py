"""Put a step's notes into words: public lines to the channel, private lines to one player.

Public text uses the table's language; private text and errors the player's own.
"""

from __future__ import annotations

from typing import Any

from bot.core.i18n import t
from bot.core.messages import Button, Outgoing, OutKind
from bot.core.pictures import Sketch
from bot.core.session import ButtonSpec, Msg, Note, TableSession


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
            action=spec.action,
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


def table_message(session: TableSession, channel_id: str) -> Outgoing:
    """The table's state message with the turn buttons of the seat to act."""
    return Outgoing(
        OutKind.EDIT_TABLE,
        text(session.locale, session.table_lines()),
        channel_id=channel_id,
        table_id=str(session.table_id),
        buttons=render_buttons(session, session.locale, session.buttons()),
        sketch=session.table_sketch(),
    )


def deliver(session: TableSession, channel_id: str, notes: list[Note]) -> list[Outgoing]:
    """Turn notes into outgoing items: consecutive public lines become one message (carrying the
    last public picture among them), private lines go to their player with their picture (never
    to a computer player), and a table refresh comes last, once."""
    out: list[Outgoing] = []
    public: list[Msg] = []
    picture: Sketch | None = None
    want_table = False
    table = str(session.table_id)

    def flush() -> None:
        nonlocal picture
        if public:
            out.append(
                Outgoing(
                    OutKind.PUBLIC,
                    text(session.locale, public),
                    channel_id=channel_id,
                    table_id=table,
                    sketch=picture,
                )
            )
            public.clear()
            picture = None

    for note in notes:
        want_table = want_table or note.table
        if note.to is None:
            public.extend(note.lines)
            picture = note.picture or picture
        elif note.lines and not note.to.bot:
            flush()
            out.append(
                Outgoing(
                    OutKind.PRIVATE,
                    text(note.to.locale, note.lines),
                    user_id=note.to.user_id,
                    table_id=table,
                    buttons=render_buttons(session, note.to.locale, note.buttons),
                    sketch=note.picture,
                )
            )
    flush()
    if want_table and session.phase != "closed":
        out.append(table_message(session, channel_id))
    return out


def error(locale: str, user_id: str, key: str, **params: Any) -> Outgoing:
    """A refusal shown only to the sender."""
    return Outgoing(OutKind.ERROR, words(locale, Msg(key, params)), user_id=user_id)
