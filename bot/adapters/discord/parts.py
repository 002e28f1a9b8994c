"""A user's private texts as Discord messages: parts, how they are joined into as few messages
as possible, which ones are kept, and the keyword arguments that carry their components and
pictures."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.adapters.discord.board import clip, picture_file
from bot.core.messages import Outgoing, OutKind

PRIVATE_PICTURE = "hand.png"  # file name of a player's own hand or rack picture


@dataclass(frozen=True)
class Part:
    """One private text for a user, with the components that go with it (Okey tile buttons, the
    draw select) or None, and the picture of that user's own cards or rack (PNG) or None.
    `slot` names the user's current message it may replace; `table_id` and `nonce` say which
    table and turn its buttons belong to. `attachment` is a file sent with the text (file name,
    content), e.g. a hand's export."""

    text: str
    view: Any = None
    picture: bytes | None = None
    slot: str | None = None
    table_id: str | None = None
    nonce: str | None = None
    attachment: tuple[str, bytes] | None = None

    @property
    def alone(self) -> bool:
        """Whether the part needs a message of its own (components, a picture, a file, a
        slot)."""
        return (
            self.view is not None
            or self.picture is not None
            or self.attachment is not None
            or self.slot is not None
        )


def chunks(parts: Sequence[Part]) -> list[Part]:
    """Parts joined into as few messages of at most 2,000 characters as possible; a part with
    components, a picture or a slot is a message of its own (a picture belongs to its own words,
    an attachment can never be moved to another text, and a slot's message is edited later)."""
    out: list[Part] = []
    for part in parts:
        last = out[-1] if out else None
        if (
            last is not None
            and not last.alone
            and not part.alone
            and len(last.text) + 2 + len(part.text) <= 2000
        ):
            out[-1] = Part(last.text + "\n\n" + part.text)
        else:
            out.append(replace(part, text=clip(part.text)))
    return out


def newest_picture(parts: Sequence[Part]) -> list[Part]:
    """The parts with every picture but the last one dropped (their words stay): each hand or
    rack picture shows the whole hand after a step, so an older one kept for a user is stale."""
    last = max((i for i, p in enumerate(parts) if p.picture is not None), default=-1)
    return [
        p if p.picture is None or i == last else replace(p, picture=None)
        for i, p in enumerate(parts)
    ]


def newest_per_slot(parts: Sequence[Part]) -> list[Part]:
    """The parts with every slotted part but the newest of its slot dropped (it would only be
    replaced by the newer one): a player whose DMs were closed gets today's hand, not old ones."""
    last = {p.slot: i for i, p in enumerate(parts) if p.slot is not None}
    return [p for i, p in enumerate(parts) if p.slot is None or last[p.slot] == i]


def newest_items_per_slot(items: Sequence[Outgoing]) -> list[Outgoing]:
    """A batch without the private items that a later item of the same user and slot replaces."""
    last = {
        (i.user_id, i.slot): n
        for n, i in enumerate(items)
        if i.kind is OutKind.PRIVATE and i.slot is not None
    }
    return [
        i
        for n, i in enumerate(items)
        if not (i.kind is OutKind.PRIVATE and i.slot is not None and last[(i.user_id, i.slot)] != n)
    ]


def files_of(part: Part) -> list[Any]:
    """The part's files, fresh (discord.py reads and closes each): its picture, then its
    attachment under the attachment's own name."""
    files = [] if part.picture is None else [picture_file(part.picture, PRIVATE_PICTURE)]
    if part.attachment is not None:
        name, content = part.attachment
        files.append(picture_file(content, name))
    return files


def extra_kwargs(part: Part, *, edit: bool = False) -> dict[str, Any]:
    """The keyword arguments that carry a part's components, picture and attachment. An edit
    takes new files as `attachments` (discord.py has no `file` there), and an edit of a message
    always says what its components and attachments are now (none: the old ones go)."""
    files = files_of(part)
    if edit:
        return {"view": part.view, "attachments": files}
    extra: dict[str, Any] = {} if part.view is None else {"view": part.view}
    if len(files) == 1:
        extra["file"] = files[0]
    elif files:
        extra["files"] = files
    return extra
