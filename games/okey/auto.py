"""The computer player: what an idle (AFK) seat or a bot opponent plays in an Okey round."""

from __future__ import annotations

from collections.abc import Iterable

from games.base import Action
from games.okey.arrange import MAX_RACK
from games.okey.melds import is_complete, winning_discards
from games.okey.round import TAKE, OkeyRound
from games.okey.search import best_score
from games.okey.tiles import colour_of, normalize, number_of, read_rack


def suggest_discard(tiles: Iterable[object], indicator: object, avoid: str | None = None) -> str:
    """The tile a computer player would discard from a 15-tile rack, never `avoid`.

    A winning discard when there is one (an okey tile first: finishing with it scores more);
    otherwise the tile whose removal leaves the best runs-mode layout of the other 14, never a
    wild while another tile will do. Ties go to the tile with the fewest near neighbours.
    `avoid` is a tile the rules forbid now (`OkeyRound.forbidden_discard`).
    """
    rack = read_rack(tiles, indicator)
    avoid = None if avoid is None else normalize(avoid)
    if rack.size != MAX_RACK:
        raise ValueError(f"a rack before the discard has {MAX_RACK} tiles, got {rack.size}")
    names = [rack.okey] * rack.wilds + [
        rack.name(i) for i, c in enumerate(rack.counts) for _ in range(c)
    ]
    winners = [t for t in winning_discards(names, indicator) if t != avoid]
    if winners:
        return rack.okey if rack.okey in winners else winners[0]
    # never empty: a rack holds at most two wilds, and `avoid` is at most one more tile
    candidates = [i for i, c in enumerate(rack.counts) if c and rack.name(i) != avoid]
    counts = list(rack.counts)

    def keep_score(i: int) -> tuple[int, int, int]:
        counts[i] -= 1
        score = best_score(counts, rack.wilds)
        near = sum(counts[j] for j in _neighbours(i))
        counts[i] += 1
        return score, -near, number_of(i)

    return rack.name(max(candidates, key=keep_score))


def _neighbours(i: int) -> list[int]:
    c, n = colour_of(i), number_of(i)
    same_number = [k * 13 + n - 1 for k in range(4) if k != c]
    same_colour = [c * 13 + m - 1 for m in (n - 2, n - 1, n + 1, n + 2) if 1 <= m <= 13]
    if n in (12, 13):
        same_colour.append(c * 13)  # the 1 that may follow 13
    return same_number + same_colour + [i]


def auto_action(game: OkeyRound, seat: int) -> Action:
    """The move a computer player (or the AFK timer) makes for `seat` now.

    Draws from the stock (on an empty stock that ends the round, so idle tables always end);
    with 15 tiles it finishes when it can, otherwise discards per `suggest_discard`, never the
    tile `forbidden_discard` names (a player who took from the discard pile and then timed out).
    """
    if game.to_act() != seat:
        raise ValueError(f"seat {seat} is not to act")
    if game.phase == TAKE:
        return Action("take", source="stock")
    rack = game.racks[seat]
    tile = suggest_discard(rack, game.indicator, game.forbidden_discard(seat))
    rest = list(rack)
    rest.remove(tile)
    kind = "finish" if is_complete(rest, game.indicator) else "discard"
    return Action(kind, cards=(tile,))
