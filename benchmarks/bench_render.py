"""How long one picture takes to render and how big its PNG is (`make bench`).

Each picture is the heaviest of its kind (ten Açık seats with five cards, a full rack, four Okey
seats). Beside it, the floor: Pillow encoding a plain canvas of the same size, which no renderer
can beat. The target is under 50 ms per picture and under 200 KB per PNG.
"""

from __future__ import annotations

import io
import statistics
import time
from collections.abc import Callable

from PIL import Image

from bot.render.pictures import (
    HandScene,
    OkeyRackScene,
    OkeyTableScene,
    PictureStyle,
    PokerSeat,
    PokerTableScene,
    render_hand,
    render_okey_rack,
    render_okey_table,
    render_poker_table,
)
from bot.render.pictures.warm import warm_up

RUNS = 40
STYLE = PictureStyle(ranks="tr", four_colour=True, lang="tr")

SEATS = tuple(
    PokerSeat(
        f"Oyuncu {i} Çağlayan",
        10_000 + 37 * i,
        stake=20 * i,
        cards_up=("Ah", "Td", "7c", "Ks")[: i % 5],
        cards_down_count=1,
        folded=i == 3,
        all_in=i == 4,
    )
    for i in range(10)
)
PICTURES: dict[str, Callable[[], bytes]] = {
    "hand (5 cards)": lambda: render_hand(HandScene(("Ah", "Kd", "Tc", "7s", "Qh"), "Floş"), STYLE),
    "poker table (10 seats)": lambda: render_poker_table(
        PokerTableScene("acik", SEATS, 12_345, to_act=2, dealer=5, showdown_label="Ayşe kazandı"),
        STYLE,
    ),
    "okey rack (15 tiles)": lambda: render_okey_rack(
        OkeyRackScene(
            melds=(("R3", "R4", "R5"), ("B7", "Y7", "K7", "R7"), ("K11", "K12", "K13", "K1")),
            loose=("F", "Y6", "B2", "R6"),
            indicator="R5",
            okey="R6",
        ),
        STYLE,
    ),
    "okey table (4 seats)": lambda: render_okey_table(
        OkeyTableScene(
            ("Ayşe", "Mehmet", "Gülşen", "İsmail"),
            ("R6", "K3", None, "F"),
            48,
            indicator="R5",
            to_act=1,
            penalties=(0, 20, 40, 10),
            hand_counts=(14, 14, 14, 14),
            okey="R6",
        ),
        STYLE,
    ),
}


def floor(size: tuple[int, int]) -> Callable[[], bytes]:
    """Pillow alone: a plain canvas of `size` encoded as PNG the way the renderers encode."""

    def encode() -> bytes:
        out = io.BytesIO()
        Image.new("RGB", size, (21, 96, 62)).save(out, "PNG", compress_level=6)
        return out.getvalue()

    return encode


def timed(fn: Callable[[], bytes]) -> tuple[float, float, bytes]:
    """Median and worst milliseconds over RUNS calls, and the last output."""
    times = []
    out = b""
    for _ in range(RUNS):
        start = time.perf_counter()
        out = fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times), out


def main() -> None:
    """Print the warm-up time, then one line per picture: first render after the warm-up, median
    and worst render, PNG size, and Pillow's floor for the same size."""
    start = time.perf_counter()
    warm_up((STYLE,))
    print(f"warm_up (one style): {(time.perf_counter() - start) * 1000:.0f} ms")
    print(
        f"{'picture':24} {'first ms':>9} {'median ms':>10} {'max ms':>7} {'PNG KB':>7} {'size':>9} {'Pillow floor ms':>16}"
    )
    for name, render in PICTURES.items():
        start = time.perf_counter()
        first = render()
        first_ms = (time.perf_counter() - start) * 1000
        median, worst, png = timed(render)
        size = Image.open(io.BytesIO(first)).size
        base, _, _ = timed(floor(size))
        print(
            f"{name:24} {first_ms:9.1f} {median:10.1f} {worst:7.1f} {len(png) / 1024:7.1f} "
            f"{size[0]:>4}x{size[1]:<4} {base:16.1f}"
        )


if __name__ == "__main__":
    main()
