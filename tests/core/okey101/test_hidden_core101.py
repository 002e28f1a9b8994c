"""No answer of a 101 table depends on tiles the asker cannot see (`testkit.hidden`'s twins).

Twin tables that differ only in hidden tiles (other racks and the stock below its top tile, or
the asker's own tiles swapped with those) get the same commands and presses from a seated player
or a spectator, through the core on the real Store: moves with named tiles (take, lay, add, swap,
discard with and without the +101 confirm, finish), the add picker, buttons with a right or wrong
nonce, and garbage; properties (a)-(d) of `testkit.hidden` must hold. The one-press moves worked
out from the asker's own rack (open with the best melds, take and open) are left out of the
inputs: with the asker's own tiles changed they rightly lay other melds.
"""

from __future__ import annotations

from hypothesis import strategies as st

from testkit.hidden import Bases, check_twins, okey_prelude, run_examples

PLAYERS = ("ayse", "mehmet", "cem")
MOVES = (0, 1, 4, 9, 20)
SEEDS = (0, 1)
TILES = (*(f"{c}{n}" for c in "RYBK" for n in range(1, 14)), "F", "r5", "R14", "??")
SUBS = ("take", "lay", "add", "swap", "discard", "finish", "show", "rack", "join", "frob")


def prelude(_game: str, seed: int) -> list[str]:
    """Open a 101 table of one round, seat two or three players, deal."""
    return okey_prelude(PLAYERS[: 2 + seed % 2], "101 1 10")


BASES = Bases("base", prelude, MOVES, SEEDS)


@st.composite
def okey101_input(draw, session, asker: str, own: list[str]):
    """A command or a press as `asker` might send it: a move with tiles they hold or others."""
    tile = st.sampled_from([*own, *TILES]) if own else st.sampled_from(TILES)
    meld = st.sampled_from(("1", "2", "3", "7", "0", "x"))
    kind = draw(st.integers(0, 5))
    if kind == 0:
        tiles = draw(st.lists(tile, min_size=2, max_size=7))
        cut = draw(st.integers(0, len(tiles)))
        words = [*tiles[:cut], "/", *tiles[cut:]] if cut and cut < len(tiles) else tiles
        return ("cmd", "/okey lay " + " ".join(words), None, ())
    if kind == 1:
        sub = draw(st.sampled_from(("add", "swap")))
        return ("cmd", f"/okey {sub} {draw(tile)} {draw(meld)}", None, ())
    if kind == 2:
        confirm = draw(st.sampled_from(("", " confirm")))
        sub = draw(st.sampled_from(("discard", "finish")))
        return ("cmd", f"/okey {sub} {draw(tile)}{confirm}", None, ())
    if kind == 3:
        action = draw(
            st.sampled_from(
                (
                    "ts",
                    "a",
                    f"a.{draw(tile)}",
                    f"a.{draw(tile)}.{draw(meld)}",
                    f"d.{draw(tile)}",
                    f"dd.{draw(tile)}",
                    f"f.{draw(tile)}",
                    "frob",
                    "td",
                )
            )
        )
        return ("press", action, draw(st.booleans()), ())
    if kind == 4:
        return ("cmd", "/okey take", None, ())
    sub = draw(st.sampled_from(SUBS))
    return ("cmd", f"/okey {sub} {draw(tile)}", None, ())


def test_no_answer_depends_on_tiles_the_asker_cannot_see(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hidden-okey101")

    async def check(data) -> None:
        await check_twins(tmp, await BASES.draw(tmp, "okey101", data), data, okey101_input)

    run_examples(30, check)
