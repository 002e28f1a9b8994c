"""The rack keeps melds apart on two rows, loose tiles at the end."""

import pytest
from hypothesis import given

from bot.render.pictures import OkeyRackScene, RackOverflow
from bot.render.pictures.okey import RACK_SLOTS, layout_rack
from tests.render.strategies import okey_racks


def runs(row: list[str | None]) -> list[list[str]]:
    """The groups of adjacent tiles in a row."""
    groups: list[list[str]] = [[]]
    for slot in row:
        if slot is None:
            groups.append([])
        else:
            groups[-1].append(slot)
    return [g for g in groups if g]


def test_melds_then_loose_with_gaps() -> None:
    scene = OkeyRackScene(melds=(("R1", "R2", "R3"), ("B5", "Y5", "K5")), loose=("F", "K9"))
    top, bottom = layout_rack(scene)
    assert runs(top) == [["R1", "R2", "R3"], ["B5", "Y5", "K5"], ["F", "K9"]]
    assert bottom == [None] * RACK_SLOTS


def test_a_meld_that_does_not_fit_starts_the_second_row() -> None:
    scene = OkeyRackScene(
        melds=(
            ("R1", "R2", "R3", "R4", "R5"),
            ("B1", "B2", "B3", "B4", "B5"),
            ("K1", "K2", "K3", "K4", "K5"),
        ),
        loose=("Y1",),
    )
    top, bottom = layout_rack(scene)
    assert runs(top) == [list(scene.melds[0]), list(scene.melds[1])]
    assert runs(bottom) == [list(scene.melds[2]), ["Y1"]]


def test_seven_pairs_fit() -> None:
    pairs = tuple((t, t) for t in ("R1", "R2", "B3", "B4", "K5", "Y6", "Y7"))
    rows = layout_rack(OkeyRackScene(melds=pairs, loose=("F",)))
    assert [g for row in rows for g in runs(row)] == [list(p) for p in pairs] + [["F"]]


def test_too_many_groups_are_refused() -> None:
    with pytest.raises(RackOverflow, match="do not fit"):
        layout_rack(OkeyRackScene(melds=tuple((f"R{n}",) for n in range(1, 14)) * 2 + (("K1",),)))


@given(okey_racks())
def test_every_tile_is_placed_once_in_order(scene: OkeyRackScene) -> None:
    rows = layout_rack(scene)
    assert all(len(row) == RACK_SLOTS for row in rows)
    assert [t for row in rows for t in row if t is not None] == list(scene.tiles)
    # Each meld is a group of its own, in order, never split across the rows.
    groups = [tuple(g) for row in rows for g in runs(row)]
    assert groups[: len(scene.melds)] == list(scene.melds)
