"""Hypothesis strategies shared by the Okey tests: racks drawn from the 106-tile set."""

from __future__ import annotations

from hypothesis import strategies as st

from games.okey.tiles import NAMES, full_set

indicators = st.sampled_from(NAMES)


@st.composite
def racks(draw: st.DrawFn, min_size: int = 1, max_size: int = 15) -> list[str]:
    """A rack of distinct physical tiles (so never a third copy) of the given size range."""
    size = draw(st.integers(min_size, max_size))
    tiles = full_set()
    picks = draw(
        st.lists(st.integers(0, len(tiles) - 1), min_size=size, max_size=size, unique=True)
    )
    return [tiles[i] for i in picks]


@st.composite
def dense_racks(draw: st.DrawFn, min_size: int = 1, max_size: int = 15) -> list[str]:
    """A rack drawn from a narrow window of numbers, where melds overlap and wilds matter."""
    lo = draw(st.integers(1, 10))
    window = [t for t in full_set() if t == "F" or lo <= int(t[1:]) <= lo + 4]
    size = draw(st.integers(min_size, max_size))
    picks = draw(
        st.lists(st.integers(0, len(window) - 1), min_size=size, max_size=size, unique=True)
    )
    return [window[i] for i in picks]
