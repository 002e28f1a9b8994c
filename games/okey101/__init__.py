"""101 Okey (Yüzbir): melds laid on the table, opening at 101 or with pairs, penalty scores.

Rules: shared/rules/okey101.md, as implemented in docs/rules/okey101.md. Tiles and the deal are
classic Okey's (`games/okey`): `R5`, `K13`, `F`; both okey tiles are wild; 22 tiles to the starter,
21 to the others.

Moves (`games.base.Action`; "/" separates melds in `cards`):
- `take` (`source="stock"` or none): draw from the stock. The previous discard is never taken
  alone (`take_to_use`): a laying move with `source="discard"` takes it and must lay it.
- `open` (`cards`: melds worth at least option `open`, or at least five pairs, e.g.
  `R9 R10 R11 / K7 B7 Y7 / ...`): the first laying of a player; with `source="discard"` it is the
  take-and-open move.
- `lay` (`cards`: melds, or pairs for a pairs opener): further melds after opening.
- `add` (`cards=(tile,)` or `(okey, stands_for)`, `amount`: the index of a meld on the table):
  extend a run at either end or complete a set, anyone's meld.
- `swap` (`cards=(tile,)`, `amount`: meld index): put the tile a wild okey stands for in its
  place and take the okey into the rack (option `swap_okey`).
- `discard` (`cards=(tile,)`): end the turn; discarding the last tile finishes. `finish` is the
  same move on the last tile.

API: `new(players, seed, options) -> Round101`, `Match101.new(players, options)`, the solver
(`best_opening`, `addable`, `fits_table`, `discard_penalty`, `pairs_of`) and `check_options`.
"""

from games.okey101.match import Match101
from games.okey101.melds import meld_value, read_meld
from games.okey101.round import Round101, groups_of, new
from games.okey101.scoring import OPTION_DEFAULTS, check_options, match_payout
from games.okey101.solver import (
    Opening,
    addable,
    best_opening,
    discard_penalty,
    fits_table,
    pair_count,
    pairs_of,
)

__all__ = [
    "OPTION_DEFAULTS",
    "Match101",
    "Opening",
    "Round101",
    "addable",
    "best_opening",
    "check_options",
    "discard_penalty",
    "fits_table",
    "groups_of",
    "match_payout",
    "meld_value",
    "new",
    "pair_count",
    "pairs_of",
    "read_meld",
]
