"""`/verify t<id>-s<stage>`: a tournament stage's seating drawn again from its revealed seed.

Like `/verify <hand id>` for a deal: the seed's sha256 must be the hash posted when the stage
was seated, and the seed must seat exactly the tables that were played. The seed stays secret
while the stage is played (it also orders the stage's tie-break draw), so a running stage is
refused.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bot.core.errors import Refusal
from bot.core.table.session import Msg, msg
from bot.core.tournament import draw
from bot.core.tournament.state import Tournament, is_knockout
from games.base import seed_from_hex, seed_hash
from storage import NotFound

if TYPE_CHECKING:
    from storage import Store

STAGE_ID = re.compile(r"^t(\d{1,9})-s(\d{1,3})$", re.IGNORECASE)


def stage_id(text: str) -> tuple[int, int] | None:
    """(tournament id, stage number) for `t12-s2`; None for anything else (a hand id)."""
    found = STAGE_ID.match(text.strip())
    return None if found is None else (int(found.group(1)), int(found.group(2)))


async def verify_stage(store: Store, platform: str, text: str) -> list[Msg]:
    """The lines that answer `/verify t<id>-s<stage>`; refusals for an unknown or running stage."""
    ids = stage_id(text)
    if ids is None:
        raise Refusal("err.verify_unknown", hand=text)
    number, stage_no = ids
    try:
        record = await store.get_tournament(number)
    except NotFound:
        raise Refusal("err.verify_unknown", hand=text) from None
    state = Tournament.from_dict(record.snapshot, record.id)
    if record.platform != platform or not 1 <= stage_no <= len(state.stages):
        raise Refusal("err.verify_unknown", hand=text)
    stage = state.stages[stage_no - 1]
    if not stage.revealed:
        raise Refusal("err.verify_stage_running", hand=text)
    lines = [msg("verify.head", hand=text, hash=stage.seed_hash, seed=stage.seed)]
    played = [slot.players for slot in stage.tables]
    if len(played) == 1 and not is_knockout(state.kind):  # a sit-and-go: one table, its seat order
        seed = seed_from_hex(stage.seed)
        again = draw.shuffled_players(stage.players(), seed)
        ok = seed_hash(seed) == stage.seed_hash and again == played[0]
        tables = [again]
    else:
        fill = state.settings.bots and is_knockout(state.kind)
        seating = draw.verify_seating(stage.seed, stage.seed_hash, stage.players(), fill)
        ok = seating is not None and seating.tables == played
        tables = played if seating is None else seating.tables
    listed = "; ".join(
        f"{slot.number}: " + ", ".join(state.name(pid) for pid in players)
        for slot, players in zip(stage.tables, tables, strict=False)
    )
    lines.append(msg("verify.stage_ok" if ok else "verify.stage_bad", tables=listed))
    return lines
