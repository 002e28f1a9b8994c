"""No answer depends on tiles the asker cannot see, at Okey.

Twin tables that differ only in hidden tiles (other racks and the stock below its top tile, or
the asker's own tiles swapped with those) get the same commands and presses (every command and
sub-command with tiles they hold, other tiles and garbage; take, discard, finish and show
buttons with a right or wrong nonce), from every seated player and a spectator, through the core
on the real Store; properties (a)-(d) of `testkit.hidden` must hold.
"""

from __future__ import annotations

from hypothesis import strategies as st

from testkit.hidden import Bases, check_twins, okey_prelude, run_examples

PLAYERS = ("ayse", "mehmet", "cem", "deniz")
MOVES = (0, 1, 2, 5, 9, 14, 30)
SEEDS = (0, 1, 2)
SUBS = (
    "start",
    "open",
    "join",
    "begin",
    "take",
    "çek",
    "discard",
    "at",
    "finish",
    "bitir",
    "show",
    "arrange",
    "rack",
    "addbot",
    "back",
    "leave",
    "rules",
    "table",
    "frob",
)
GROUPS = ("okey", "okey", "okey", "okey", "poker", "table", "balance", "verify", "lang", "frob")
WORDS = ("stock", "discard", "yer", "deste", "runs", "pairs", "çift", "1", "3", "10", "-1", "")
GARBAGE_TILES = ("r5", "R14", "Z9", "F", "f", "K0", "??", "R5 R6")
COLOURS = "RYBK"


def all_tiles() -> list[str]:
    return [f"{c}{n}" for c in COLOURS for n in range(1, 14)] + ["F"]


def prelude(_game: str, seed: int) -> list[str]:
    """Open a table of one or three rounds, seat two to four players, deal."""
    return okey_prelude(PLAYERS[: 2 + seed % 3], f"{1 + 2 * (seed % 2)} 10")


BASES = Bases("base", prelude, MOVES, SEEDS)


@st.composite
def okey_input(draw, session, asker: str, own: list[str]):
    """A command or a press as `asker` might send it now: a move fitting the table (a take, or a
    discard or finish of a tile they hold), or anything else with random words and tiles."""
    tiles = st.sampled_from([*own, *all_tiles(), *GARBAGE_TILES])
    game = None if session is None else session.round
    if game is not None and draw(st.booleans()):  # a move of the current phase
        pressed = draw(st.booleans())
        right = draw(st.booleans())
        if game.phase == "take":
            source = draw(st.sampled_from(("stock", "discard")))
            if pressed:
                return ("press", "ts" if source == "stock" else "td", right, ())
            return ("cmd", f"/okey take {source}", None, ())
        kind = draw(st.sampled_from(("discard", "finish", "show")))
        tile = draw(st.sampled_from(own) if own and draw(st.booleans()) else tiles)
        if kind == "show":
            return ("press", "show", right, ()) if pressed else ("cmd", "/okey show", None, ())
        if pressed:
            return ("press", f"{kind[0]}.{tile}", right, ())
        return ("cmd", f"/okey {kind} {tile}", None, ())
    words = st.one_of(st.sampled_from(WORDS), tiles)
    args = draw(st.lists(words, max_size=3))
    if session is not None and draw(st.integers(0, 3)) == 0:
        actions = ["ts", "td", "show", "d.", "x.R5", "frob", "open", "take", "discard"]
        actions += [f"{k}.{draw(tiles)}" for k in "df"]
        return ("press", draw(st.sampled_from(actions)), draw(st.booleans()), tuple(args[:1]))
    group = draw(st.sampled_from(GROUPS))
    line = f"/{group} {draw(st.sampled_from(SUBS))}" if group in ("okey", "poker") else f"/{group}"
    return ("cmd", " ".join([line, *args]).strip(), None, ())


def test_no_answer_depends_on_tiles_the_asker_cannot_see(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hidden-okey")

    async def check(data) -> None:
        await check_twins(tmp, await BASES.draw(tmp, "okey", data), data, okey_input)

    run_examples(90, check)
