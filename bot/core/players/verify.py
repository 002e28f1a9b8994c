"""`/verify <hand id>` of a hand or Okey round, by the rule of `bot.core.players.proofs`.

Before the hand's seed may be shown (the table is open, or closed less than
`seed_reveal_hours` ago) the answer is private: the posted hash and root, the proofs of the cards
that were shown and, to a player of the hand, of their own cards, with a JSON file of the proofs
to check independently (docs/fairness.md). Afterwards it is public: the seed, the whole deal
dealt again from it, and whether the root recomputed from it is the one posted at the deal.
A hand of another platform is unknown; one of another community is answered only to those who
played in it.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from bot.core.errors import Refusal
from bot.core.messages import Command, Outgoing, OutKind
from bot.core.players.proofs import Reveal, proof_lines, proof_of
from bot.core.players.replay import HAND_ID, load_hand
from bot.core.players.stored import StoredHand
from bot.core.registry import GAMES
from bot.core.table.deliver import text
from bot.core.table.session import Msg, Who, msg

if TYPE_CHECKING:
    from storage import SeedRecord, Store


class HandVerifier:
    """Answers `/verify` of a hand (tournament stages are `bot.core.tournament.verify`'s)."""

    def __init__(self, store: Store, reveal: Reveal) -> None:
        self.store = store
        self.reveal = reveal

    async def command(self, command: Command, who: Who, hand_id: str) -> list[Outgoing]:
        """The answer to `/verify hand_id`; refusals for an unknown, running or foreign hand."""
        record = await self.store.seed(hand_id)
        head = None if record is None else await self.store.table_head(record.table_id)
        if record is None or head is None or head.platform != command.platform:
            raise Refusal("err.verify_unknown", hand=hand_id)
        if record.seed_hex is None:
            raise Refusal("err.verify_running", hand=hand_id)
        foreign = head.community is not None and command.community != head.community
        if foreign and not await self.store.played_in(who.player_id, record.table_id, hand_id):
            raise Refusal("err.verify_other_community", hand=hand_id)  # checked before reading
        table = await self.store.get_table(record.table_id)
        info = table.snapshot.get("hands", {}).get(hand_id)
        hand = await self._played(hand_id, record.table_id)
        seat = None if hand is None else hand.viewer(who.player_id)
        if seat is None and head.community is not None and command.community != head.community:
            raise Refusal("err.verify_other_community", hand=hand_id)
        posted_root = info.get("root") if info else None
        when = await self.reveal.when(record.table_id)
        if when is not None and self.reveal.clock() >= when:
            lines = self._revealed(record, table.game, info, hand, posted_root)
            body = text(who.locale, lines)
            return [Outgoing(OutKind.PUBLIC, body, channel_id=command.channel_id)]
        if hand is None:  # dealt before moves were logged: nothing can be proven but the hash
            lines = [msg("verify.sealed_old", hand=hand_id, hash=record.seed_hash)]
            lines.append(self.reveal.sealed_line(when))
            return [Outgoing(OutKind.PRIVATE, text(who.locale, lines), user_id=who.user_id)]
        proof = proof_of(hand, record.seed_hash)
        name = f"proof-{hand_id}.json"
        lines = proof_lines(proof, seat, posted_root)
        lines += [self.reveal.sealed_line(when), msg("verify.proof_file", file=name)]
        content = json.dumps(proof.document(seat), ensure_ascii=False, indent=1).encode()
        body = text(who.locale, lines)
        return [Outgoing(OutKind.PRIVATE, body, user_id=who.user_id, attachment=(name, content))]

    async def _played(self, hand_id: str, table_id: int) -> StoredHand | None:
        """The hand played again from the log, or None when it cannot be (an old hand)."""
        found = HAND_ID.match(hand_id)
        if found is None or int(found[1]) != table_id:
            return None
        try:
            return await load_hand(self.store, hand_id, table_id)
        except Refusal:
            return None

    @staticmethod
    def _revealed(
        record: SeedRecord,
        game: str,
        info: dict | None,
        hand: StoredHand | None,
        posted_root: str | None,
    ) -> list[Msg]:
        """The whole deal from the revealed seed, and the root recomputed from it."""
        assert record.seed_hex is not None
        hand_id = record.hand_id
        lines = [msg("verify.head", hand=hand_id, hash=record.seed_hash, seed=record.seed_hex)]
        spec = GAMES.get(game)
        if spec is not None and info is not None:
            lines += spec.session.verify_lines(info, record.seed_hex, record.seed_hash)
        else:
            lines.append(msg("verify.no_deal"))
        if hand is not None and posted_root is not None:
            root = proof_of(hand, record.seed_hash).root
            lines.append(msg("verify.root_ok" if root == posted_root else "verify.root_bad"))
        return lines
