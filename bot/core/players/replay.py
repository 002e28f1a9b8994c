"""`/replay <hand id>` and `/export <hand id>`: a finished hand or Okey round, step by step, as the
asker was entitled to see it, and the same as a JSON Lines file (`games.history`).

A hand is played again from what the store keeps: the seed (`hand_seeds`, stored when the hand
ended) and the action log, where the step that dealt the hand logged its setup (`deals`) and the
following steps its moves. The engine replays every move; only the public events, plus the
asker's own private events when they played, are shown: cards never shown stay hidden, a draw
shows how many cards, never which (another player's exchanged cards are left out of the export
too). A running hand cannot be replayed; a hand of another platform (or community) is unknown to
the asker. Both answers are private. Until the hand's seed may be shown (`bot.core.players.proofs`: the
table closed `seed_reveal_hours` ago) neither names it: the export carries the proofs of the
cards its asker may see instead.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.core.errors import Refusal
from bot.core.messages import Command, Outgoing, OutKind
from bot.core.players import proofs
from bot.core.players.stored import StoredHand
from bot.core.registry import game_spec
from bot.core.sketch import Sketch
from bot.core.table import pictures
from bot.core.table.deliver import text
from bot.core.table.session import Msg, Who, msg
from bot.render import text as show
from bot.render.pictures import PictureStyle
from games import history
from games.base import Action, Event, seed_from_hex

if TYPE_CHECKING:
    from bot.core.players.proofs import Reveal
    from bot.core.spec import Presenter
    from storage import ActionRecord, Store

REPLAY_COMMANDS = ("replay", "export")
# action log kinds that are engine moves (an Okey computer turn logs its moves under "turn")
MOVE_KINDS = frozenset(
    {"check", "bet", "call", "raise", "fold", "open", "pass", "draw"}
    | {"take", "discard", "finish", "show_indicator"}
    | {"lay", "add", "swap"}  # 101 Okey
)
HAND_ID = re.compile(r"^#?(\d{1,12})-(\d{1,9})$")
MAX_TEXT = 3500  # characters of a replay message (Telegram takes 4096, adapters split Discord's)


def parse_hand_id(args: tuple[str, ...], usage: str) -> tuple[str, int]:
    """`12-3` -> ("12-3", 12); a refusal with the usage text otherwise."""
    found = HAND_ID.match(args[0].strip()) if len(args) == 1 else None
    if found is None:
        raise Refusal(usage)
    return f"{int(found[1])}-{int(found[2])}", int(found[1])


def moves_after(records: list[ActionRecord], hand_id: str) -> tuple[ActionRecord, list] | None:
    """The log entry that dealt `hand_id` and the engine moves logged after it (up to the next
    deal), as `(player id, Action)`; None when no entry dealt it (a hand dealt before deals were
    logged)."""
    found = marked_moves_after(records, hand_id)
    if found is None:
        return None
    return found[0], [(pid, action) for pid, action, _ in found[1]]


def marked_moves_after(
    records: list[ActionRecord], hand_id: str
) -> tuple[ActionRecord, list[tuple[int | None, Action, bool]]] | None:
    """`moves_after`, each move with whether the computer made it for a kept seat (its log
    entry carries `kept`: `bot.core.table.kept`)."""
    start = next(
        (
            i
            for i, r in enumerate(records)
            if any(d.get("hand") == hand_id for d in r.action.get("deals", ()))
        ),
        None,
    )
    if start is None:
        return None
    moves: list[tuple[int | None, Action, bool]] = []
    for record in records[start + 1 :]:
        kind = record.action.get("kind")
        kept = bool(record.action.get("kept"))
        if kind == "turn":
            moves += [(record.player_id, Action.from_dict(m), kept) for m in record.action["moves"]]
        elif kind in MOVE_KINDS:
            moves.append((record.player_id, Action.from_dict(record.action), kept))
        if record.action.get("deals"):
            break
    return records[start], moves


async def may_see(store: Store, command: Command, who: Who, hand_id: str, table_id: int) -> None:
    """Refuse, before anything of the hand is read, a hand the asker may not see: unknown, of
    another platform, still running, or of another community they did not play in (their own
    result row says whether they did). Three key reads: the seed, the table's head and, only
    for a hand of another community, the asker's result of it."""
    record = await store.seed(hand_id)
    head = (
        None if record is None or record.table_id != table_id else await store.table_head(table_id)
    )
    if record is None or head is None or head.platform != command.platform:
        raise Refusal("err.replay_unknown", hand=hand_id)
    if record.seed_hex is None:
        raise Refusal("err.replay_running", hand=hand_id)
    foreign = head.community is not None and command.community != head.community
    if foreign and not await store.played_in(who.player_id, table_id, hand_id):
        # a hand of another community (or, in a private chat, one the asker did not play in)
        raise Refusal("err.replay_other_community", hand=hand_id)


async def load_hand(store: Store, hand_id: str, table_id: int) -> StoredHand:
    """Play a finished hand again from the store (its own log entries, read by key); refusals
    for an unknown, running or unrecorded hand, or one whose log retention removed."""
    record = await store.seed(hand_id)
    if record is None or record.table_id != table_id:
        raise Refusal("err.replay_unknown", hand=hand_id)
    if record.seed_hex is None:
        raise Refusal("err.replay_running", hand=hand_id)
    head = await store.table_head(table_id)
    if head is None:
        raise Refusal("err.replay_unknown", hand=hand_id)
    found = marked_moves_after(await store.hand_actions(table_id, hand_id), hand_id)
    if found is None:
        if await store.pruned_at(table_id) is not None:
            raise Refusal("err.replay_pruned", hand=hand_id)
        raise Refusal("err.replay_old", hand=hand_id)
    dealt, logged = found
    deal = next(d for d in dealt.action["deals"] if d.get("hand") == hand_id)
    setup = history.Setup.from_dict(deal["setup"])
    seed = seed_from_hex(record.seed_hex)
    marked = [
        (setup.players.index(str(pid)), action, kept)
        for pid, action, kept in logged
        if str(pid) in setup.players
    ]
    moves = [(seat, action) for seat, action, _ in marked]
    # step n of the hand played again is move n - 1 (step 0 is the deal)
    kept_steps = frozenset(n + 1 for n, (_, _, kept) in enumerate(marked) if kept)
    try:
        played = history.play(setup, seed, moves)
    except history.HistoryError:
        raise Refusal("err.replay_old", hand=hand_id) from None
    return StoredHand(
        hand_id,
        table_id,
        head.platform,
        head.community,
        dealt.at,
        seed,
        played,
        kept=frozenset(n for n in kept_steps if n < len(played.steps)),
    )


# --- putting a hand into words --------------------------------------------------------------


def event_lines(say: Presenter, names: Sequence[str], locale: str, event: Event) -> list[Msg]:
    """One visible event as lines, exactly as the table said it: a public event through the
    game's presenter, the asker's own private event as their own lines."""
    if event.seat is not None:
        return say.own(event)
    return say.describe(event, names, locale)


def replay_lines(
    hand: StoredHand, viewer: int | None, locale: str, sealed_hours: str | None = None
) -> list[Msg]:
    """The hand step by step as `viewer` (an engine seat, or None) may see it; with
    `sealed_hours` the seed is not shown yet (`bot.core.players.proofs`): a line says when it will be."""
    setup = hand.played.setup
    spec = game_spec(setup.game)
    say = spec.presenter
    if spec.tiles:  # racks of tiles: no stacks, no dealer
        players = ", ".join(setup.names)
    else:
        players = ", ".join(f"{n} ({s})" for n, s in zip(setup.names, setup.stacks, strict=True))
    lines = [
        msg(
            "replay.head",
            hand=hand.hand_id,
            game=msg(f"game.{setup.game}"),
            date=hand.at.strftime("%Y-%m-%d %H:%M UTC"),
            players=players,
        )
    ]
    if not spec.tiles:
        lines.append(msg("replay.dealer", name=setup.names[setup.dealer]))
    lines.append(msg("replay.yours" if viewer is not None else "replay.spectator"))
    for number, step in enumerate(hand.played.steps):
        for event in step.events:
            if not history.visible(event, viewer):
                continue
            if number == 0 and event.kind == "rack":  # the rack as dealt to the asker
                tiles = show.tiles(event.data["tiles"])
                lines.append(msg("replay.your_rack", tiles=tiles))
                continue
            lines += event_lines(say, setup.names, locale, event)
        if number in hand.kept and step.seat is not None:  # the computer played a kept seat
            lines.append(msg("replay.kept", name=setup.names[step.seat]))
    if sealed_hours is None:
        lines.append(msg("replay.seed", seed=hand.seed.hex()))
    else:
        lines.append(msg("replay.sealed", hours=sealed_hours, hand=hand.hand_id))
    return lines


def fit(body: str, locale: str) -> str:
    """The replay text cut to `MAX_TEXT` characters: the start and the end kept, the middle
    replaced by a line that says how many lines were left out."""
    if len(body) <= MAX_TEXT:
        return body
    rows = body.split("\n")
    head, tail = rows[:6], rows[6:]
    while tail and len("\n".join(head + tail)) > MAX_TEXT - 120:
        tail.pop(0)
    left = len(rows) - len(head) - len(tail)
    gap = text(locale, [msg("replay.cut", count=left)])
    return "\n".join([*head, gap, *tail])


# --- the picture strip ----------------------------------------------------------------------


def _draw_strip(scene: tuple[Sketch, ...], style: PictureStyle) -> bytes:
    """The key moments side by side in one PNG."""
    from PIL import Image

    images = [Image.open(io.BytesIO(pictures.png(s))).convert("RGB") for s in scene]
    gap = 12
    width = sum(i.width for i in images) + gap * (len(images) - 1)
    height = max(i.height for i in images)
    strip = Image.new("RGB", (width, height), images[0].getpixel((0, 0)))
    x = 0
    for image in images:
        strip.paste(image, (x, (height - image.height) // 2))
        x += image.width + gap
    out = io.BytesIO()
    strip.save(out, format="PNG", optimize=True)
    return out.getvalue()


def key_moments(hand: StoredHand, viewer: int | None, locale: str) -> Sketch | None:
    """The strip of key moments: the deal the asker had (only their own cards or rack), and the
    showdown or the winning rack (public once the hand is over), as the game's spec draws them
    (`replay_dealt`, `replay_end`); None when there is nothing."""
    setup = hand.played.setup
    spec = game_spec(setup.game)
    parts: list[Sketch | None] = []
    if viewer is not None:
        dealt, _ = history.deal(setup, hand.seed)
        if spec.replay_dealt is not None:
            parts.append(spec.replay_dealt(dealt.view(viewer), locale))
    if spec.replay_end is not None:
        events = [e for step in hand.played.steps for e in step.events]
        final = hand.played.engine.view(None)
        parts.append(spec.replay_end(final, setup.names, events, locale))
    found = tuple(p for p in parts if p is not None)
    if not found:
        return None
    return Sketch(_draw_strip, found, pictures.style_for(locale))


# --- the commands ---------------------------------------------------------------------------


class Replays:
    """The `/replay` and `/export` commands."""

    def __init__(
        self, store: Store, *, pictures_on: bool = False, reveal: Reveal | None = None
    ) -> None:
        self.store = store
        self.pictures_on = pictures_on
        self.reveal = reveal  # when seeds may be shown; None: never (`bot.core.players.proofs`)

    async def command(self, command: Command, who: Who, group: str, args: tuple[str, ...]):
        """Answer `/replay <hand id>` or `/export <hand id>` privately."""
        hand_id, table_id = parse_hand_id(args, f"err.{group}_usage")
        await may_see(self.store, command, who, hand_id, table_id)  # before the log is read
        hand = await load_hand(self.store, hand_id, table_id)
        viewer = hand.viewer(who.player_id)
        if viewer is None and hand.community is not None and command.community != hand.community:
            raise Refusal("err.replay_other_community", hand=hand_id)  # no result row, not seated
        sealed = None
        if self.reveal is None or not await self.reveal.revealed(hand.table_id):
            sealed = f"{self.reveal.hours:g}" if self.reveal is not None else "?"
        if group == "export":
            return [self._export(hand, viewer, who, sealed is not None)]
        lines = replay_lines(hand, viewer, who.locale, sealed)
        body = fit(text(who.locale, lines), who.locale)
        sketch = key_moments(hand, viewer, who.locale) if self.pictures_on else None
        return [Outgoing(OutKind.PRIVATE, body, user_id=who.user_id, sketch=sketch)]

    def _export(self, hand: StoredHand, viewer: int | None, who: Who, sealed: bool) -> Outgoing:
        name = f"hand-{hand.hand_id}.jsonl"
        body = text(who.locale, [msg("export.ready", hand=hand.hand_id, file=name)])
        content = export_text(hand, viewer, sealed=sealed).encode("utf-8")
        return Outgoing(OutKind.PRIVATE, body, user_id=who.user_id, attachment=(name, content))


def export_text(hand: StoredHand, viewer: int | None, *, sealed: bool = False) -> str:
    """The export of a stored hand for `viewer` (what `/export` attaches); `sealed`: before the
    seed may be shown, without it and with the proofs of the cards the viewer may see."""
    proof = {"proof": proofs.proof_of(hand).document(viewer)} if sealed else {}
    return history.export(
        hand.played,
        hand.seed,
        viewer,
        sealed=sealed,
        **proof,
        hand=hand.hand_id,
        table=hand.table_id,
        dealt_at=hand.at.isoformat(),
        kept_steps=sorted(hand.kept),  # the moves the computer made for a kept seat
    )
