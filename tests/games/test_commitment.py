"""The per-position commitment (`games.commitment`): every position of trees of any size proves
its card against the root, the odd node is carried up (never duplicated), and a proof with a
wrong card, salt, position, side or partner hash fails; a document reads back and checks."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from games.commitment import (
    Commitment,
    Opening,
    check_document,
    leaf_hash,
    node_hash,
    path_sides,
    position_salt,
    proof_document,
    verify_opening,
)

SEED = bytes(range(32))


def deck(count: int) -> list[str]:
    return [f"C{i}" for i in range(count)]


@pytest.mark.parametrize("count", [1, 2, 3, 5, 7, 8, 9, 24, 32, 36, 52, 106])
def test_every_position_proves_its_card(count):
    tree = Commitment(deck(count), SEED)
    for position in range(count):
        opening = tree.open(position)
        assert opening.card == f"C{position}"
        assert verify_opening(tree.root, opening, count)
        assert [side for side, _ in opening.path] == path_sides(position, count)


def test_the_formats_are_the_documented_ones():
    salt = hmac.new(SEED, b"turkish-table/salt|7", hashlib.sha256).digest()
    assert position_salt(SEED, 7) == salt
    assert (
        leaf_hash(7, "Ah", salt)
        == hashlib.sha256(b"\x00" + (7).to_bytes(4, "big") + salt + b"Ah").digest()
    )
    assert (
        node_hash(b"a" * 32, b"b" * 32) == hashlib.sha256(b"\x01" + b"a" * 32 + b"b" * 32).digest()
    )
    # three leaves: the third is carried up unchanged, not paired with itself
    tree = Commitment(["x", "y", "z"], SEED)
    leaves = [leaf_hash(i, c, position_salt(SEED, i)) for i, c in enumerate("xyz")]
    assert tree.root == node_hash(node_hash(leaves[0], leaves[1]), leaves[2]).hex()
    assert tree.open(2).path == (("L", node_hash(leaves[0], leaves[1])),)


def test_the_root_depends_on_every_card_and_the_seed():
    base = Commitment(deck(36), SEED).root
    swapped = deck(36)
    swapped[3], swapped[4] = swapped[4], swapped[3]
    assert Commitment(swapped, SEED).root != base
    assert Commitment(deck(36), bytes(32)).root != base
    assert Commitment(deck(36), SEED).root == base  # repeatable


def test_salts_differ_per_position_and_show_nothing_of_the_seed():
    salts = {position_salt(SEED, i) for i in range(106)}
    assert len(salts) == 106 and SEED not in salts


def tampered(opening: Opening) -> list[Opening]:
    flipped_salt = bytes([opening.salt[0] ^ 1]) + opening.salt[1:]
    side, partner = opening.path[0]
    other_side = "R" if side == "L" else "L"
    bad_partner = bytes([partner[0] ^ 1]) + partner[1:]
    return [
        Opening(opening.position, "Zz", opening.salt, opening.path),
        Opening(opening.position, opening.card, flipped_salt, opening.path),
        Opening(
            opening.position, opening.card, opening.salt, ((side, bad_partner), *opening.path[1:])
        ),
        Opening(
            opening.position, opening.card, opening.salt, ((other_side, partner), *opening.path[1:])
        ),
        Opening(opening.position, opening.card, opening.salt, opening.path[1:]),
        Opening(opening.position + 1, opening.card, opening.salt, opening.path),
    ]


@pytest.mark.parametrize("position", [0, 5, 17, 35])
def test_a_tampered_proof_fails(position):
    tree = Commitment(deck(36), SEED)
    good = tree.open(position)
    for bad in tampered(good):
        assert not verify_opening(tree.root, bad, 36), bad
    assert not verify_opening(Commitment(deck(36), bytes(32)).root, good, 36)


def test_a_document_reads_back_and_checks():
    tree = Commitment(deck(106), SEED)
    document = proof_document(tree.root, tree.count, tree.prove([9, 3, 3, 100]), hand="1-1")
    assert [o.position for o in check_document(document)] == [3, 9, 100]
    assert check_document(document, root=tree.root)
    with pytest.raises(ValueError):
        check_document(document, root="00" * 32)
    document["cards"][0]["card"] = "C4"
    with pytest.raises(ValueError):
        check_document(document)
    with pytest.raises(ValueError):
        check_document({"format": "other"})
