"""Card proofs of a finished hand, and when its whole seed may be shown.

At the deal the table posts the seed's hash and the root of a tree over every position of the
deck order (`games.commitment`, `games.positions`). When the hand ends, the cards that became
public (a showdown, Açık up cards, Okey discards, the indicator, a finishing rack) can be proven
against that root to anyone, and each player's own cards to that player alone; nothing else is
shown. The seed, which deals every card, is shown only once the table has closed and
`CoreConfig.seed_reveal_hours` have passed since (`Reveal`); `/verify`, `/replay` and `/export`
all follow that rule. docs/fairness.md explains it to players.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from bot.core.registry import game_spec
from bot.core.table.session import Msg, msg
from bot.render import text as show
from games.base import seed_hash
from games.commitment import Commitment, Opening, proof_document
from games.positions import Disclosure, disclose

if TYPE_CHECKING:
    from bot.core.players.stored import StoredHand
    from storage import Store


class Reveal:
    """When a table's hands may show their whole seed: `hours` after the table closed."""

    def __init__(self, store: Store, hours: float, clock: Callable[[], datetime]) -> None:
        self.store = store
        self.hours = hours
        self.clock = clock

    async def when(self, table_id: int) -> datetime | None:
        """The time the table's seeds are shown from, or None while the table is open."""
        closed = await self.store.closed_at(table_id)
        return None if closed is None else closed + timedelta(hours=self.hours)

    async def revealed(self, table_id: int) -> bool:
        """True once the table's hands may show their seed (and so every card)."""
        when = await self.when(table_id)
        return when is not None and self.clock() >= when

    def sealed_line(self, when: datetime | None) -> Msg:
        """The line that says when the seed comes out."""
        hours = f"{self.hours:g}"
        if when is None:
            return msg("verify.reveal_later", hours=hours)
        return msg("verify.reveal_at", when=when.strftime("%Y-%m-%d %H:%M UTC"), hours=hours)


@dataclass(frozen=True)
class HandProof:
    """The tree of a finished hand's deal and who saw which position."""

    hand_id: str
    game: str
    seed_hash: str
    tree: Commitment
    disclosure: Disclosure

    @property
    def root(self) -> str:
        """The root posted at the deal (as recomputed from the seed)."""
        return self.tree.root

    def public(self) -> list[Opening]:
        """Proofs of the positions whose cards became public."""
        return self.tree.prove(self.disclosure.public)

    def own(self, seat: int | None) -> list[Opening]:
        """Proofs of the positions `seat` received (none for someone who did not play)."""
        return [] if seat is None else self.tree.prove(self.disclosure.own(seat))

    def document(self, seat: int | None) -> dict[str, Any]:
        """The proofs a viewer may have (the public ones and their own) as a JSON document."""
        shown = sorted(self.disclosure.public)
        own = self.disclosure.own(seat) if seat is not None else []
        return proof_document(
            self.root,
            self.tree.count,
            self.tree.prove([*shown, *own]),
            hand=self.hand_id,
            game=self.game,
            seed_hash=self.seed_hash,
            shown=shown,
            own=own,
            viewer=seat,
        )


def proof_of(hand: StoredHand, posted_hash: str | None = None) -> HandProof:
    """The proofs of a hand played again from the store (`posted_hash`: the seed hash stored at
    the deal, else the seed's own)."""
    disclosure = disclose(hand.played, hand.seed)
    tree = Commitment(disclosure.order, hand.seed)
    posted = posted_hash or seed_hash(hand.seed)
    return HandProof(hand.hand_id, hand.played.setup.game, posted, tree, disclosure)


def opened_cards(game: str, openings: Sequence[Opening]) -> str:
    """`#3 A♥ · #17 K♠` (the tiles of Okey and 101 as they are)."""
    shown = show.tiles if game_spec(game).tiles else show.cards
    return " · ".join(f"#{o.position} {shown([o.card])}" for o in openings)


def proof_lines(proof: HandProof, seat: int | None, posted_root: str | None) -> list[Msg]:
    """What `/verify` says of a hand whose seed is not shown yet: the hash and root, the cards
    shown (proven) and, to a player of the hand, their own cards (proven)."""
    lines = [msg("verify.sealed_head", hand=proof.hand_id, hash=proof.seed_hash, root=proof.root)]
    if posted_root is not None:
        lines.append(msg("verify.root_ok" if posted_root == proof.root else "verify.root_bad"))
    public = proof.public()
    if public:
        lines.append(msg("verify.shown", cards=opened_cards(proof.game, public)))
    else:
        lines.append(msg("verify.shown_none"))
    own = proof.own(seat)
    if own:
        lines.append(msg("verify.own", cards=opened_cards(proof.game, own)))
    return lines
