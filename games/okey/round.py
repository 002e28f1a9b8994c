"""One Okey round on the engine protocol (games/base.py): deal, draws, discards, the finish.

Create rounds with `new(players, seed, options)`. The starter is the player who draws the highest
tile (see `draw_for_start`); they get 15 tiles and discard without drawing on the first turn. Each
other turn: `take` from the stock or the previous player's discard pile, then `discard` onto one's
own pile, or `finish` with the final discard when the other 14 tiles are complete. With the
option `takeback` False, the tile just taken from the discard pile cannot go straight back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from copy import deepcopy
from typing import Any

from games.base import Action, ActionSpec, Event, IllegalAction, private, public, shuffled
from games.okey.arrange import arrange
from games.okey.common import MAX_PLAYERS as MAX_PLAYERS
from games.okey.common import MIN_PLAYERS as MIN_PLAYERS
from games.okey.common import OVER, TileRound, check_seating, dealt_state
from games.okey.melds import is_complete, is_seven_pairs, winning_discards
from games.okey.scoring import check_options, finish_charge, indicator_charge
from games.okey.tiles import FALSE_JOKER, NAMES, full_set, index, normalize, number_of

STARTER_TILES, OTHER_TILES = 15, 14
TAKE, DISCARD = "take", "discard"
SOURCES = ("stock", "discard")


def draw_for_start(players: int, seed: bytes) -> tuple[int, list[list[str]]]:
    """Choose the starter from the seed: each seat draws a tile, the highest tile starts.

    The draw is from `shuffled(104 numbered tiles, seed, "okey-start")`, seats in order. Higher
    number wins; equal numbers go by colour, R > Y > B > K; seats that drew the very same tile draw
    again. Returns the starter and every seat's drawn tiles (all of them public).
    """
    pool = shuffled([name for name in NAMES for _ in range(2)], seed, "okey-start")
    drawn: list[list[str]] = [[] for _ in range(players)]
    contenders = list(range(players))
    position = 0
    while len(contenders) > 1 and position + len(contenders) <= len(pool):
        for seat in contenders:
            drawn[seat].append(pool[position])
            position += 1

        def strength(seat: int) -> tuple[int, int]:
            i = index(drawn[seat][-1])
            return number_of(i), -(i // 13)

        top = max(strength(s) for s in contenders)
        contenders = [s for s in contenders if strength(s) == top]
    return contenders[0], drawn


def deal(
    players: int, seed: bytes, starter_tiles: int = STARTER_TILES, other_tiles: int = OTHER_TILES
) -> tuple[int, list[list[str]], list[list[str]], str, list[str]]:
    """The seeded deal: starter, start draw, racks, indicator and stock (the front is drawn first).

    The starter comes from `draw_for_start`; the tiles from `shuffled(full_set(), seed,
    "okey-deal")`, dealt from the starter on in seat order (`starter_tiles` to the starter,
    `other_tiles` to each other seat); the indicator is the first tile of the rest that is not a
    false joker, taken out of the stock. 101 Okey deals 22/21 tiles the same way.
    """
    starter, start_draw = draw_for_start(players, seed)
    tiles = shuffled(full_set(), seed, "okey-deal")
    racks: list[list[str]] = [[] for _ in range(players)]
    for k in range(players):
        seat = (starter + k) % players
        size = starter_tiles if k == 0 else other_tiles
        racks[seat], tiles = tiles[:size], tiles[size:]
    at = next(k for k, t in enumerate(tiles) if t != FALSE_JOKER)
    indicator = tiles.pop(at)
    return starter, start_draw, racks, indicator, tiles


def new(players: Sequence[str], seed: bytes, options: Mapping[str, Any] | None = None) -> OkeyRound:
    """Deal a new round for 2-4 players from a 32-byte seed; options per `check_options`."""
    return OkeyRound.new(players, seed, options)


class OkeyRound(TileRound):
    """One round of Okey; follows the `Game` protocol (see DESIGN.md)."""

    GAME = "okey"
    MOVES = "an Okey move"

    def __init__(self, data: Mapping[str, Any]) -> None:
        """Load a round from `to_dict` output (deal a new one with `new`)."""
        super().__init__(data)
        self.started: list[bool] = list(data["started"])
        self.shown_by: int | None = data["shown_by"]
        self.penalties: list[int] = list(data["penalties"])
        # the tile the player to act took from the discard pile this turn (public: the take was
        # announced with it); snapshots from before the `takeback` option have none
        self.taken: str | None = data.get("taken")

    # --- creation and snapshots -------------------------------------------------------------

    @classmethod
    def new(
        cls, players: Sequence[str], seed: bytes, options: Mapping[str, Any] | None = None
    ) -> OkeyRound:
        """Deal a round; see the module-level `new`."""
        players, seed = check_seating(players, seed, "Okey")
        opts = check_options(options)
        n = len(players)
        return cls(
            {
                **dealt_state(players, opts, seed, deal(n, seed)),
                "phase": DISCARD,
                "started": [False] * n,
                "shown_by": None,
                "penalties": [0] * n,
                "result": None,
                "taken": None,
            }
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe snapshot (it holds the racks and the seed: keep it server-side)."""
        return {
            **self._snapshot(),
            "phase": self.phase,
            "started": list(self.started),
            "shown_by": self.shown_by,
            "penalties": list(self.penalties),
            "result": deepcopy(self.result),
            "taken": self.taken,
        }

    # --- the protocol -------------------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[ActionSpec]:
        """The moves `seat` may make now: `take`, or `discard`/`finish`, and `show_indicator`.

        `finish` is listed only when some discard leaves a complete hand (not counting the tile
        `forbidden_discard` names).
        """
        if self.finished or seat != self.turn:
            return []
        specs = []
        if self._may_show(seat):
            specs.append(ActionSpec("show_indicator"))
        if self.phase == TAKE:
            specs.append(ActionSpec("take"))
        else:
            specs.append(ActionSpec("discard", max_cards=1))
            forbidden = self.forbidden_discard(seat)
            if any(t != forbidden for t in winning_discards(self.racks[seat], self.indicator)):
                specs.append(ActionSpec("finish", max_cards=1))
        return specs

    def forbidden_discard(self, seat: int) -> str | None:
        """The tile `seat` may not discard nor finish with now, or None.

        Only with the option `takeback` False (absent means allowed): the tile the seat took from
        the discard pile this turn, unless the rack holds another identical copy (copies cannot
        be told apart, so discarding "the other one" is allowed).
        """
        if (
            self.options.get("takeback", True)
            or self.finished
            or seat != self.turn
            or self.phase != DISCARD
            or self.taken is None
        ):
            return None
        return self.taken if self.racks[seat].count(self.taken) == 1 else None

    def sources(self, seat: int) -> list[str]:
        """Where `seat` may take from now ("stock" stays listed on an empty stock: it ends the round)."""
        if self.finished or seat != self.turn or self.phase != TAKE:
            return []
        out = ["stock"]
        if self.piles[self.previous(seat)]:
            out.append("discard")
        return out

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Make a move; IllegalAction (with a stable code) leaves the round untouched."""
        handlers = {
            "take": self._take,
            "discard": self._discard,
            "finish": self._finish,
            "show_indicator": self._show,
        }
        return self._dispatch(seat, action, handlers)

    def view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may see; `view(None)` never holds a rack (the winner's hand once laid down)."""
        out: dict[str, Any] = {
            **self._view_head(seat),
            "stock": len(self.stock),
            "discard_piles": [list(p) for p in self.piles],
            "rack_sizes": [len(r) for r in self.racks],
            "to_act": self.to_act(),
            "phase": self.phase,
            "penalties": list(self.penalties),
            "indicator_shown_by": self.shown_by,
        }
        self._view_tail(out)
        if seat is not None:
            out["hand"] = list(self.racks[seat])
            out["sources"] = self.sources(seat)
            out["can_show_indicator"] = self._may_show(seat)
            out["forbidden_discard"] = self.forbidden_discard(seat)
        return out

    def tiles_accounted(self) -> int:
        """Racks + discard piles + stock + the indicator: always 106."""
        return (
            sum(len(r) for r in self.racks) + sum(len(p) for p in self.piles) + len(self.stock) + 1
        )

    # --- moves (each validates fully before it changes anything) -----------------------------

    def _may_show(self, seat: int) -> bool:
        return (
            not self.finished
            and seat == self.turn
            and self.shown_by is None
            and not self.started[seat]
            and self.indicator in self.racks[seat]
        )

    def _show(self, seat: int, action: Action) -> list[Event]:
        if not self._may_show(seat):
            raise IllegalAction(
                "cannot_show_indicator",
                "the indicator's twin can be shown once, by its holder, before their first draw",
            )
        charge = indicator_charge(self.options["preset"])
        self.shown_by = seat
        for other in self._opponents(seat):
            self.penalties[other] += charge
        return [
            public(
                "indicator_shown",
                seat=seat,
                tile=self.indicator,
                charge=charge,
                penalties=list(self.penalties),
            )
        ]

    def _take(self, seat: int, action: Action) -> list[Event]:
        if self.phase != TAKE:
            raise IllegalAction("must_discard", "you have your tiles: discard one or finish")
        if action.source not in SOURCES:
            raise IllegalAction(
                "bad_source", "take from 'stock' or 'discard'", source=action.source
            )
        if action.source == "discard":
            prev = self.previous(seat)
            if not self.piles[prev]:
                raise IllegalAction("discard_pile_empty", "there is no discard to take")
            tile = self.piles[prev].pop()
            self.racks[seat].append(tile)
            self.started[seat] = True
            self.phase = DISCARD
            self.taken = tile
            return [
                public("took", seat=seat, source="discard", tile=tile, from_seat=prev),
                private(seat, "rack", tiles=list(self.racks[seat])),
            ]
        if not self.stock:
            # The stock is empty and the player did not take the discard: no score.
            self.phase = OVER
            self.result = {"reason": "stock_exhausted", "winner": None}
            return [
                public("stock_exhausted", seat=seat),
                public("round_over", reason="stock_exhausted", penalties=list(self.penalties)),
            ]
        tile = self.stock.pop(0)
        self.racks[seat].append(tile)
        self.started[seat] = True
        self.phase = DISCARD
        self.taken = None
        return [
            public("took", seat=seat, source="stock", stock=len(self.stock)),
            private(seat, "drew", tile=tile),
            private(seat, "rack", tiles=list(self.racks[seat])),
        ]

    def _one_tile(self, seat: int, action: Action) -> str:
        if self.phase != DISCARD:
            raise IllegalAction("must_take", "take a tile from the stock or the discard first")
        # a malformed `cards` (None, a bare string) counts as no tile named
        cards = action.cards if isinstance(action.cards, tuple | list) else ()
        if len(cards) != 1:
            raise IllegalAction("one_tile", "name exactly one tile", count=len(cards))
        try:
            tile = normalize(cards[0])
        except ValueError:
            raise IllegalAction(
                "bad_tile",
                f"unknown tile {cards[0]!r}: use R/Y/B/K with 1-13 or F",
                tile=str(cards[0]),
            ) from None
        if tile not in self.racks[seat]:
            raise IllegalAction("tile_not_in_rack", "that tile is not in your rack")
        if tile == self.forbidden_discard(seat):
            # the tile is public (its take was announced), so naming it tells nobody anything
            raise IllegalAction(
                "takeback",
                f"at this table the tile taken from the discards ({tile}) cannot be thrown "
                "straight back",
                tile=tile,
            )
        return tile

    def _discard(self, seat: int, action: Action) -> list[Event]:
        tile = self._one_tile(seat, action)
        self.racks[seat].remove(tile)
        self.piles[seat].append(tile)
        self.started[seat] = True
        self.turn = (seat + 1) % len(self.players)
        self.phase = TAKE
        self.taken = None
        return [
            public("discarded", seat=seat, tile=tile),
            private(seat, "rack", tiles=list(self.racks[seat])),
        ]

    def _finish(self, seat: int, action: Action) -> list[Event]:
        tile = self._one_tile(seat, action)
        rest = list(self.racks[seat])
        rest.remove(tile)
        if not is_complete(rest, self.indicator):
            raise IllegalAction(
                "not_complete",
                "the other 14 tiles cannot all be laid down as sets and runs or as seven pairs",
            )
        pairs = is_seven_pairs(rest, self.indicator)
        okey_discard = tile == self.okey
        melds = arrange(rest, self.indicator, "pairs" if pairs else "runs").melds
        charge = finish_charge(self.options["preset"], okey_discard, pairs)
        self.racks[seat] = rest
        self.piles[seat].append(tile)
        for other in self._opponents(seat):
            self.penalties[other] += charge
        self.phase = OVER
        self.result = {
            "reason": "finished",
            "winner": seat,
            "discard": tile,
            "melds": melds,
            "seven_pairs": pairs,
            "okey_discard": okey_discard,
            "charge": charge,
        }
        return [
            public(
                "finished",
                seat=seat,
                discard=tile,
                melds=deepcopy(melds),
                seven_pairs=pairs,
                okey_discard=okey_discard,
            ),
            public(
                "round_over",
                reason="finished",
                winner=seat,
                charge=charge,
                penalties=list(self.penalties),
            ),
        ]

    def _opponents(self, seat: int) -> list[int]:
        return [s for s in range(len(self.players)) if s != seat]
