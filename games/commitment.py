"""Commitments to each card position of a deal: salted leaves, a Merkle tree, inclusion proofs.

Pure logic, no I/O. The seed hash (`games.base.seed_hash`) commits to the whole deal at once, so
checking it needs the seed, which shows every card. This module commits to each position of the
shuffled deck (or Okey tile) order separately, so single cards can be proven later without showing
the others. The formats (docs/fairness.md has them for writing an independent checker):

- salt of position `i`:  `HMAC-SHA256(key=seed, msg=b"turkish-table/salt|" + ascii(i))` (32 bytes;
  `ascii(i)` is the position in decimal). A salt tells nothing about the seed or another salt.
- leaf of position `i`:  `sha256(0x00 || i as 4 bytes big-endian || salt || utf8(card))`, where
  `card` is the card or tile in the bot's notation (`Ah`, `Ts`, `9c`; Okey `R5`, `K13`, `F`).
- inner node:            `sha256(0x01 || left || right)` (the prefixes keep a leaf from passing
  for a node).
- the tree: level 0 is the leaves in position order; each next level pairs neighbours left to
  right; a node left without a partner at the end of an odd level is carried up unchanged (never
  duplicated). The root is the single node of the last level; it is posted in hex.
- a proof of position `i`: its card, its salt and the path: for each level where the node on the
  way up has a partner, the partner's hash and its side (`L`: the partner is on the left, so the
  parent is `node(partner, mine)`; `R`: `node(mine, partner)`), from the leaf upwards.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

SALT_LABEL = b"turkish-table/salt|"
LEAF_PREFIX = b"\x00"
NODE_PREFIX = b"\x01"
SALT_BYTES = 32
PROOF_FORMAT = "turkish-table-proof"
PROOF_VERSION = 1


def position_salt(seed: bytes, position: int) -> bytes:
    """The salt of one position: an HMAC of the seed, so only the seed's holder can make it."""
    return hmac.digest(seed, SALT_LABEL + str(position).encode("ascii"), "sha256")


def leaf_hash(position: int, card: str, salt: bytes) -> bytes:
    """The leaf of `card` at `position` with its salt."""
    if not 0 <= position < 2**32:
        raise ValueError(f"position out of range: {position}")
    if len(salt) != SALT_BYTES:
        raise ValueError(f"a salt has {SALT_BYTES} bytes, got {len(salt)}")
    return hashlib.sha256(
        LEAF_PREFIX + position.to_bytes(4, "big") + salt + card.encode("utf-8")
    ).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """The parent of two nodes."""
    return hashlib.sha256(NODE_PREFIX + left + right).digest()


def tree_levels(leaves: Sequence[bytes]) -> list[list[bytes]]:
    """Every level of the tree over `leaves`, the leaves first and the root last."""
    if not leaves:
        raise ValueError("a tree needs at least one leaf")
    levels = [list(leaves)]
    while len(levels[-1]) > 1:
        below = levels[-1]
        above = [node_hash(below[i], below[i + 1]) for i in range(0, len(below) - 1, 2)]
        if len(below) % 2:
            above.append(below[-1])  # the odd node goes up unchanged
        levels.append(above)
    return levels


def path_sides(position: int, count: int) -> list[str]:
    """The sides (`L`/`R`) a proof of `position` in a tree of `count` leaves has, from the leaf
    upwards: a checker can demand them so that a proof names the position it proves."""
    if not 0 <= position < count:
        raise ValueError(f"position {position} is not in a tree of {count} leaves")
    sides: list[str] = []
    index, width = position, count
    while width > 1:
        if index % 2:
            sides.append("L")
        elif index + 1 < width:
            sides.append("R")
        index, width = index // 2, (width + 1) // 2
    return sides


@dataclass(frozen=True)
class Opening:
    """The proof of one position: the card there, its salt and the path to the root."""

    position: int
    card: str
    salt: bytes
    path: tuple[tuple[str, bytes], ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form (hex strings)."""
        return {
            "position": self.position,
            "card": self.card,
            "salt": self.salt.hex(),
            "path": [[side, h.hex()] for side, h in self.path],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Opening:
        """Read `to_dict` output back; ValueError when it is not one."""
        try:
            path = tuple((str(side), bytes.fromhex(h)) for side, h in data["path"])
            return cls(int(data["position"]), str(data["card"]), bytes.fromhex(data["salt"]), path)
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a proof of a position: {exc}") from None


def root_of(opening: Opening) -> bytes:
    """The root the path of `opening` leads to."""
    node = leaf_hash(opening.position, opening.card, opening.salt)
    for side, partner in opening.path:
        if side == "L":
            node = node_hash(partner, node)
        elif side == "R":
            node = node_hash(node, partner)
        else:
            raise ValueError(f"a side is L or R, not {side!r}")
    return node


def verify_opening(root_hex: str, opening: Opening, count: int) -> bool:
    """True when `opening` proves its card at its position of the tree of `count` leaves whose
    root is `root_hex`."""
    try:
        if [side for side, _ in opening.path] != path_sides(opening.position, count):
            return False
        return hmac.compare_digest(root_of(opening).hex(), root_hex.lower())
    except ValueError:
        return False


class Commitment:
    """The tree over one deal: the cards in their shuffled order, a salt per position from the
    seed, the root to post, and proofs of any positions."""

    def __init__(self, order: Sequence[str], seed: bytes) -> None:
        self.order = tuple(str(card) for card in order)
        self.salts = tuple(position_salt(seed, i) for i in range(len(self.order)))
        leaves = [
            leaf_hash(i, c, s) for i, (c, s) in enumerate(zip(self.order, self.salts, strict=True))
        ]
        self.levels = tree_levels(leaves)

    @property
    def count(self) -> int:
        """How many positions (leaves) the tree has."""
        return len(self.order)

    @property
    def root(self) -> str:
        """The root in hex: what is posted when the hand is dealt."""
        return self.levels[-1][0].hex()

    def open(self, position: int) -> Opening:
        """The proof of one position."""
        path: list[tuple[str, bytes]] = []
        index = position
        for level in self.levels[:-1]:
            if index % 2:
                path.append(("L", level[index - 1]))
            elif index + 1 < len(level):
                path.append(("R", level[index + 1]))
            index //= 2
        return Opening(position, self.order[position], self.salts[position], tuple(path))

    def prove(self, positions: Iterable[int]) -> list[Opening]:
        """The proofs of a set of positions, in position order."""
        return [self.open(p) for p in sorted(set(positions))]


def proof_document(
    root: str, count: int, openings: Sequence[Opening], **meta: Any
) -> dict[str, Any]:
    """A proof as a JSON-safe document: the format, `meta` (hand id, game, seed hash...), the
    root, the number of leaves and each opening."""
    return {
        "format": PROOF_FORMAT,
        "version": PROOF_VERSION,
        **meta,
        "root": root,
        "leaves": count,
        "cards": [o.to_dict() for o in openings],
    }


def check_document(document: Mapping[str, Any], root: str | None = None) -> list[Opening]:
    """The openings of a proof document that verify against its root (or `root`, e.g. the one
    posted at the deal, when given); ValueError when the document is not a proof or an opening
    fails."""
    if document.get("format") != PROOF_FORMAT or document.get("version") != PROOF_VERSION:
        raise ValueError("not a turkish-table proof")
    want = str(root if root is not None else document["root"])
    count = int(document["leaves"])
    openings = [Opening.from_dict(card) for card in document["cards"]]
    for opening in openings:
        if not verify_opening(want, opening, count):
            raise ValueError(f"position {opening.position} does not verify against the root")
    return openings
