"""One 101 Okey round on the engine protocol (games/base.py); the moves are listed in __init__.py.

Create rounds with `new(players, seed, options)`. The deal is classic Okey's (`games.okey.round.deal`)
with 22 tiles for the starter and 21 for the others; the starter begins by discarding (and may open
first). Every refusal raises `IllegalAction` with a stable `code` and leaves the round untouched:
each move checks everything before it changes anything.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from copy import deepcopy
from typing import Any

from games.base import Action, ActionSpec, Event, IllegalAction, private, public
from games.okey.common import MAX_PLAYERS as MAX_PLAYERS
from games.okey.common import MIN_PLAYERS as MIN_PLAYERS
from games.okey.common import OVER, TileRound, check_seating, dealt_state
from games.okey.round import deal
from games.okey101.melds import (
    Meld,
    add_tile,
    effective,
    meld_value,
    normal_name,
    placements,
    read_meld,
    swap_wild,
    tile_value,
)
from games.okey101.scoring import PENALTY, check_options, rack_score
from games.okey101.solver import discard_penalty, fits_table, pair_count, series_value

STARTER_TILES, OTHER_TILES = 22, 21
TAKE, PLAY = "take", "play"
SERIES, PAIRS = "series", "pairs"
MIN_PAIRS = 5
SEPARATOR = "/"
LAYING = ("open", "lay", "add", "swap")


def new(players: Sequence[str], seed: bytes, options: Mapping[str, Any] | None = None) -> Round101:
    """Deal a new 101 round for 2-4 players from a 32-byte seed; options per `check_options`."""
    return Round101.new(players, seed, options)


def groups_of(cards: Sequence[object]) -> list[list[str]]:
    """Split `cards` into melds at each "/" and name every tile; IllegalAction for a bad tile."""
    groups: list[list[str]] = [[]]
    for card in cards:
        if card == SEPARATOR:
            groups.append([])
            continue
        groups[-1].append(_tile(card))
    return [g for g in groups if g]


def _tile(card: object) -> str:
    try:
        return normal_name(card)
    except ValueError:
        raise IllegalAction(
            "bad_tile", f"unknown tile {card!r}: use R/Y/B/K with 1-13 or F", tile=str(card)
        ) from None


class Round101(TileRound):
    """One round of 101 Okey; follows the `Game` protocol (see DESIGN.md)."""

    GAME = "okey101"
    MOVES = "a 101 move"

    def __init__(self, data: Mapping[str, Any]) -> None:
        """Load a round from `to_dict` output (deal a new one with `new`)."""
        super().__init__(data)
        self.turn_no: int = data["turn_no"]
        self.opened: list[str | None] = list(data["opened"])
        self.opened_turn: list[int | None] = list(data["opened_turn"])
        self.opening_values: list[int] = list(data["opening_values"])
        self.table: list[Meld] = deepcopy(list(data["table"]))
        self.penalties: list[int] = list(data["penalties"])
        self.penalty_log: list[dict[str, Any]] = deepcopy(list(data["penalty_log"]))
        self._cache: dict[Any, Any] = {}

    # --- creation and snapshots -------------------------------------------------------------

    @classmethod
    def new(
        cls, players: Sequence[str], seed: bytes, options: Mapping[str, Any] | None = None
    ) -> Round101:
        """Deal a round; see the module-level `new`."""
        players, seed = check_seating(players, seed, "101")
        opts = check_options(options, len(players))
        n = len(players)
        return cls(
            {
                **dealt_state(players, opts, seed, deal(n, seed, STARTER_TILES, OTHER_TILES)),
                "turn_no": 0,
                "phase": PLAY,
                "opened": [None] * n,
                "opened_turn": [None] * n,
                "opening_values": [0] * n,
                "table": [],
                "penalties": [0] * n,
                "penalty_log": [],
                "result": None,
            }
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe snapshot (it holds the racks and the seed: keep it server-side)."""
        return {
            **self._snapshot(),
            "turn_no": self.turn_no,
            "phase": self.phase,
            "opened": list(self.opened),
            "opened_turn": list(self.opened_turn),
            "opening_values": list(self.opening_values),
            "table": deepcopy(self.table),
            "penalties": list(self.penalties),
            "penalty_log": deepcopy(self.penalty_log),
            "result": deepcopy(self.result),
        }

    # --- reading the state ---------------------------------------------------------------------

    @property
    def threshold(self) -> int:
        """The value an opening by series must reach."""
        return int(self.options["open"])

    def last_discard(self, seat: int) -> str | None:
        """The tile `seat` may take now from the previous player (in the take phase), or None."""
        if self.finished or seat != self.turn or self.phase != TAKE:
            return None
        pile = self.piles[self.previous(seat)]
        return pile[-1] if pile else None

    def pairs_openers(self) -> int:
        """How many players have opened by pairs."""
        return sum(o == PAIRS for o in self.opened)

    def tiles_accounted(self) -> int:
        """Racks + table + discard piles + stock + the indicator: always 106."""
        return (
            sum(len(r) for r in self.racks)
            + sum(len(m["tiles"]) for m in self.table)
            + sum(len(p) for p in self.piles)
            + len(self.stock)
            + 1
        )

    def can_use_discard(self, seat: int) -> bool:
        """True when `seat`, to take now, could take the previous discard and use it this turn."""
        tile = self.last_discard(seat)
        if tile is None:
            return False
        key = ("use", seat, self.turn_no, tuple(self.racks[seat]), len(self.table))
        if key not in self._cache:
            self._cache[key] = self._can_use(seat, tile)
        return bool(self._cache[key])

    def _can_use(self, seat: int, tile: str) -> bool:
        rack = [*self.racks[seat], tile]
        okey = self.okey
        pairable = effective(tile, okey) is None or any(
            effective(t, okey) in (None, effective(tile, okey)) for t in self.racks[seat]
        )
        if self.opened[seat] is None:
            if series_value(rack, okey, tile) >= self.threshold:
                return True
            return (
                self.pairs_openers() < self.options["pairs_max"]
                and pairable
                and pair_count(rack, okey) >= MIN_PAIRS
            )
        if fits_table(tile, self.table, okey) or self._swappable(tile):
            return True
        if self.opened[seat] == PAIRS:
            return pairable and len(rack) >= 3
        return len(rack) >= 4 and series_value(rack, okey, tile) >= 0

    def _swappable(self, tile: str) -> bool:
        return self.options["swap_okey"] and any(
            swap_wild(m, tile, self.okey) is not None for m in self.table
        )

    def _can_open(self, seat: int) -> bool:
        key = ("open", seat, tuple(self.racks[seat]), self.pairs_openers())
        if key not in self._cache:
            rack, okey = self.racks[seat], self.okey
            self._cache[key] = series_value(rack, okey) >= self.threshold or (
                self.pairs_openers() < self.options["pairs_max"]
                and pair_count(rack, okey) >= MIN_PAIRS
            )
        return bool(self._cache[key])

    def _can_lay(self, seat: int) -> bool:
        key = ("lay", seat, tuple(self.racks[seat]))
        if key not in self._cache:
            rack, okey = self.racks[seat], self.okey
            if self.opened[seat] == PAIRS:
                self._cache[key] = len(rack) >= 3 and pair_count(rack, okey) >= 1
            else:
                self._cache[key] = len(rack) >= 4 and series_value(rack, okey) > 0
        return bool(self._cache[key])

    # --- the protocol -------------------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[ActionSpec]:
        """The moves `seat` may make now.

        Take phase: `take` (from the stock), and the laying moves with `source="discard"` when the
        previous discard can be used. Play phase: `open` (when the rack can open), `lay`, `add`,
        `swap` (when the rack has a tile to use), then `discard` — or `finish` with the last tile.
        """
        if self.finished or seat != self.turn:
            return []
        rack, okey = self.racks[seat], self.okey
        if self.phase == TAKE:
            specs = [ActionSpec("take")]
            if self.can_use_discard(seat):
                kinds = ["open"] if self.opened[seat] is None else ["lay", "add"]
                if self.opened[seat] is not None and self.options["swap_okey"]:
                    kinds.append("swap")
                specs += [ActionSpec(k) for k in kinds]
            return specs
        specs = []
        if len(rack) > 1:
            if self.opened[seat] is None:
                if self._can_open(seat):
                    specs.append(ActionSpec("open"))
            else:
                if self._can_lay(seat):
                    specs.append(ActionSpec("lay"))
                if any(fits_table(t, self.table, okey) for t in set(rack)):
                    specs.append(ActionSpec("add", max_cards=2))
                if any(self._swappable(t) for t in set(rack)):
                    specs.append(ActionSpec("swap", max_cards=1))
            specs.append(ActionSpec("discard", max_cards=1))
        else:
            specs.append(ActionSpec("finish", max_cards=1))
        return specs

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Make a move; IllegalAction (with a stable code) leaves the round untouched."""
        handlers = {
            "take": self._take,
            "open": self._open,
            "lay": self._lay,
            "add": self._add,
            "swap": self._swap,
            "discard": self._discard,
            "finish": self._finish,
        }
        return self._dispatch(seat, action, handlers)

    def view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may see; `view(None)` never holds a tile from a rack or the stock."""
        out: dict[str, Any] = {
            **self._view_head(seat),
            "threshold": self.threshold,
            "stock": len(self.stock),
            "discard_piles": [list(p) for p in self.piles],
            "rack_sizes": [len(r) for r in self.racks],
            "table": deepcopy(self.table),
            "opened": list(self.opened),
            "opening_values": list(self.opening_values),
            "to_act": self.to_act(),
            "phase": self.phase,
            "turn_no": self.turn_no,
            "penalties": list(self.penalties),
            "penalty_log": deepcopy(self.penalty_log),
        }
        self._view_tail(out)
        if seat is not None:
            out["hand"] = list(self.racks[seat])
            out["last_discard"] = self.last_discard(seat)
            # whether a laying move with source="discard" can take and use it now
            out["can_take_discard"] = self.can_use_discard(seat)
        return out

    # --- moves ---------------------------------------------------------------------------------

    def _take(self, seat: int, action: Action) -> list[Event]:
        if self.phase != TAKE:
            raise IllegalAction("must_discard", "you have your tiles: lay down or discard")
        if action.source == "discard":
            raise IllegalAction(
                "take_to_use",
                "the previous discard is taken only together with the move that uses it",
            )
        if action.source not in (None, "stock"):
            raise IllegalAction(
                "bad_source", "take from 'stock' or 'discard'", source=action.source
            )
        if not self.stock:
            # the player could take the discard but draws from the empty stock: the round ends
            return self._end_exhausted(seat)
        tile = self.stock.pop(0)
        self.racks[seat].append(tile)
        self.phase = PLAY
        return [
            public("took", seat=seat, source="stock", stock=len(self.stock)),
            private(seat, "drew", tile=tile),
            private(seat, "rack", tiles=list(self.racks[seat])),
        ]

    def _source(self, seat: int, action: Action) -> str | None:
        """The tile a laying move takes from the previous discard (None: from the rack only)."""
        if action.source in (None, "rack"):
            if self.phase == TAKE:
                raise IllegalAction("must_take", "take a tile from the stock or the discard first")
            return None
        if action.source != "discard":
            raise IllegalAction(
                "bad_source", "take from 'stock' or 'discard'", source=action.source
            )
        if self.phase != TAKE:
            raise IllegalAction("already_took", "you already have your tile this turn")
        tile = self.last_discard(seat)
        if tile is None:
            raise IllegalAction("discard_pile_empty", "there is no discard to take")
        return tile

    def _pay(self, seat: int, tiles: Sequence[str], taken: str | None) -> list[str]:
        """The rack left after laying `tiles` (the taken discard added first); checks every rule."""
        rack = [*self.racks[seat], *([taken] if taken else [])]
        missing = Counter(tiles) - Counter(rack)
        if missing:
            raise IllegalAction("tile_not_in_rack", "a tile you named is not in your rack")
        if taken is not None and taken not in tiles:
            raise IllegalAction(
                "discard_unused", f"a move taking the discard must lay it ({taken})", tile=taken
            )
        left = list(rack)
        for t in tiles:
            left.remove(t)
        if not left:
            raise IllegalAction("keep_one", "keep one tile in your rack to discard")
        return left

    def _taking(self, seat: int, taken: str | None) -> list[Event]:
        """Take the previous discard (already validated), as the first half of a laying move."""
        if taken is None:
            return []
        prev = self.previous(seat)
        self.piles[prev].pop()
        self.phase = PLAY
        return [public("took", seat=seat, source="discard", tile=taken, from_seat=prev)]

    def _read_groups(self, action: Action, pairs: bool) -> list[Meld]:
        cards = action.cards if isinstance(action.cards, tuple | list) else ()
        groups = groups_of(cards)
        if not groups:
            raise IllegalAction("no_melds", "name the tiles of the melds to lay down")
        melds = []
        for k, group in enumerate(groups, start=1):
            meld = read_meld(group, self.okey, allow_pair=pairs)
            if meld is None or (pairs and meld["kind"] != "pair"):
                what = "a pair of identical tiles" if pairs else "a set or a run"
                raise IllegalAction("bad_meld", f"meld {k} is not {what}", meld=k)
            melds.append(meld)
        return melds

    def _open(self, seat: int, action: Action) -> list[Event]:
        taken = self._source(seat, action)
        if self.opened[seat] is not None:
            raise IllegalAction("already_opened", "you have opened already: lay or add instead")
        cards = action.cards if isinstance(action.cards, tuple | list) else ()
        sizes = {len(g) for g in groups_of(cards)}
        pairs = sizes == {2}
        if 2 in sizes and not pairs:
            raise IllegalAction("mixed_opening", "open with melds or with pairs, not both")
        melds = self._read_groups(action, pairs)
        tiles = [t for m in melds for t in m["tiles"]]
        left = self._pay(seat, tiles, taken)
        if pairs:
            if len(melds) < MIN_PAIRS:
                raise IllegalAction(
                    "too_few_pairs",
                    f"open with at least {MIN_PAIRS} pairs",
                    pairs=len(melds),
                    need=MIN_PAIRS,
                )
            if self.pairs_openers() >= self.options["pairs_max"]:
                raise IllegalAction(
                    "pairs_full",
                    "no more players may open by pairs at this table",
                    max=self.options["pairs_max"],
                )
            value = sum(meld_value(m, self.okey) for m in melds)
        else:
            value = sum(meld_value(m) for m in melds)
            if value < self.threshold:
                raise IllegalAction(
                    "below_threshold",
                    f"these melds add up to {value}; opening needs {self.threshold}",
                    total=value,
                    need=self.threshold,
                )
        events = self._taking(seat, taken)
        self.racks[seat] = left
        how = PAIRS if pairs else SERIES
        self.opened[seat] = how
        self.opened_turn[seat] = self.turn_no
        self.opening_values[seat] = value
        first = len(self.table)
        for meld in melds:
            self.table.append({**meld, "owner": seat})
        events += [
            public(
                "opened",
                seat=seat,
                how=how,
                value=value,
                melds=deepcopy(self.table[first:]),
                first=first,
            ),
            private(seat, "rack", tiles=list(left)),
        ]
        return events

    def _opened_or_refuse(self, seat: int) -> str:
        how = self.opened[seat]
        if how is None:
            raise IllegalAction("not_opened", "open first: only an opened player may lay or add")
        return how

    def _lay(self, seat: int, action: Action) -> list[Event]:
        taken = self._source(seat, action)
        how = self._opened_or_refuse(seat)
        cards = action.cards if isinstance(action.cards, tuple | list) else ()
        sizes = {len(g) for g in groups_of(cards)}
        if how == PAIRS and sizes - {2}:
            raise IllegalAction("pairs_only", "you opened with pairs: lay down pairs only")
        if how == SERIES and 2 in sizes:
            raise IllegalAction("series_only", "you opened with melds: pairs cannot be laid")
        melds = self._read_groups(action, how == PAIRS)
        left = self._pay(seat, [t for m in melds for t in m["tiles"]], taken)
        events = self._taking(seat, taken)
        self.racks[seat] = left
        first = len(self.table)
        for meld in melds:
            self.table.append({**meld, "owner": seat})
        events += [
            public("laid", seat=seat, melds=deepcopy(self.table[first:]), first=first),
            private(seat, "rack", tiles=list(left)),
        ]
        return events

    def _target(self, action: Action) -> tuple[int, Meld]:
        k = action.amount
        if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < len(self.table):
            raise IllegalAction("bad_meld_index", "there is no such meld on the table", meld=k)
        return k, self.table[k]

    def _add(self, seat: int, action: Action) -> list[Event]:
        taken = self._source(seat, action)
        self._opened_or_refuse(seat)
        cards = action.cards if isinstance(action.cards, tuple | list) else ()
        if len(cards) not in (1, 2):
            raise IllegalAction("one_tile", "name exactly one tile", count=len(cards))
        tile = _tile(cards[0])
        wanted = _tile(cards[1]) if len(cards) == 2 else None
        k, meld = self._target(action)
        where = self._placement(meld, tile, wanted)
        left = self._pay(seat, [tile], taken)
        events = self._taking(seat, taken)
        self.racks[seat] = left
        self.table[k] = add_tile(meld, tile, self.okey, where)
        events += [
            public("added", seat=seat, tile=tile, meld=k, where=where, to=deepcopy(self.table[k])),
            private(seat, "rack", tiles=list(left)),
        ]
        return events

    def _placement(self, meld: Meld, tile: str, wanted: str | None) -> str:
        options = placements(meld, tile, self.okey)
        if wanted is not None and effective(tile, self.okey) is None and meld["kind"] == "run":
            hi = meld["lo"] + len(meld["tiles"]) - 1
            ends = {"low": f"{meld['colour']}{meld['lo'] - 1}", "high": f"{meld['colour']}{hi + 1}"}
            # the place is named by the tile a wild stands for there: the okey's own face
            # (`B9` with okey B9) or `F` both name the okey's place
            place = effective(wanted, self.okey) or self.okey
            options = [w for w in options if ends[w] == place]
        if not options:
            raise IllegalAction("does_not_fit", "that tile cannot be added to that meld")
        return options[-1] if meld["kind"] == "run" else options[0]

    def _swap(self, seat: int, action: Action) -> list[Event]:
        taken = self._source(seat, action)
        self._opened_or_refuse(seat)
        if not self.options["swap_okey"]:
            raise IllegalAction("swap_off", "at this table an okey on the table stays there")
        cards = action.cards if isinstance(action.cards, tuple | list) else ()
        if len(cards) != 1:
            raise IllegalAction("one_tile", "name exactly one tile", count=len(cards))
        tile = _tile(cards[0])
        k, meld = self._target(action)
        swapped = swap_wild(meld, tile, self.okey)
        if swapped is None:
            raise IllegalAction("no_okey_to_swap", "no okey in that meld stands for that tile")
        rack = [*self.racks[seat], *([taken] if taken else [])]
        if tile not in rack:
            raise IllegalAction("tile_not_in_rack", "a tile you named is not in your rack")
        if taken is not None and taken != tile:
            raise IllegalAction(
                "discard_unused", f"a move taking the discard must lay it ({taken})", tile=taken
            )
        rack.remove(tile)
        rack.append(self.okey)
        events = self._taking(seat, taken)
        self.racks[seat] = rack
        self.table[k] = swapped
        events += [
            public("swapped", seat=seat, tile=tile, meld=k, to=deepcopy(swapped)),
            private(seat, "rack", tiles=list(rack)),
        ]
        return events

    def _one_tile(self, seat: int, action: Action) -> str:
        if self.phase != PLAY:
            raise IllegalAction("must_take", "take a tile from the stock or the discard first")
        cards = action.cards if isinstance(action.cards, tuple | list) else ()
        if len(cards) != 1:
            raise IllegalAction("one_tile", "name exactly one tile", count=len(cards))
        tile = _tile(cards[0])
        if tile not in self.racks[seat]:
            raise IllegalAction("tile_not_in_rack", "that tile is not in your rack")
        return tile

    def _discard(self, seat: int, action: Action) -> list[Event]:
        tile = self._one_tile(seat, action)
        if len(self.racks[seat]) == 1:
            return self._finish(seat, action)
        why = discard_penalty(tile, self.table, self.okey)
        self.racks[seat].remove(tile)
        self.piles[seat].append(tile)
        events = [public("discarded", seat=seat, tile=tile)]
        if why is not None:
            self.penalties[seat] += PENALTY
            self.penalty_log.append(
                {"seat": seat, "tile": tile, "reason": why, "turn": self.turn_no}
            )
            events.append(
                public(
                    "penalty",
                    seat=seat,
                    tile=tile,
                    reason=why,
                    points=PENALTY,
                    penalties=list(self.penalties),
                )
            )
        events.append(private(seat, "rack", tiles=list(self.racks[seat])))
        self.turn = (seat + 1) % len(self.players)
        self.turn_no += 1
        self.phase = TAKE
        if not self.stock and not self.can_use_discard(self.turn):
            events += self._end_exhausted(self.turn)
        return events

    def _finish(self, seat: int, action: Action) -> list[Event]:
        tile = self._one_tile(seat, action)
        if len(self.racks[seat]) != 1:
            raise IllegalAction(
                "not_last_tile", "you finish by discarding your last tile: lay down the rest first"
            )
        doubling = self.options["doubling"]
        okey_finish = tile == self.okey
        by_hand = self.opened_turn[seat] == self.turn_no
        factor = 1
        if doubling:
            factor *= 2 if okey_finish else 1
            factor *= 2 if by_hand else 1
        self.racks[seat] = []
        self.piles[seat].append(tile)
        scores, factors, sums = [], [], []
        for s in range(len(self.players)):
            if s == seat:
                score, f = -PENALTY * factor, factor
                total = 0
            else:
                total = self._rack_sum(s)
                score, f = rack_score(self.opened[s], total, factor, doubling)
            scores.append(score)
            factors.append(f)
            sums.append(total)
        self.result = {
            "reason": "finished",
            "winner": seat,
            "discard": tile,
            "okey_finish": okey_finish,
            "by_hand": by_hand,
            "factor": factor,
        }
        return self._close(
            scores,
            factors,
            sums,
            [
                public(
                    "finished",
                    seat=seat,
                    discard=tile,
                    okey_finish=okey_finish,
                    by_hand=by_hand,
                    factor=factor,
                )
            ],
        )

    def _end_exhausted(self, seat: int) -> list[Event]:
        scores, factors, sums = [], [], []
        for s in range(len(self.players)):
            total = self._rack_sum(s)
            score, f = rack_score(self.opened[s], total, 1, self.options["doubling"])
            scores.append(score)
            factors.append(f)
            sums.append(total)
        self.result = {"reason": "stock_exhausted", "winner": None, "factor": 1}
        return self._close(scores, factors, sums, [public("stock_exhausted", seat=seat)])

    def _close(
        self, scores: list[int], factors: list[int], sums: list[int], events: list[Event]
    ) -> list[Event]:
        assert self.result is not None
        for s, score in enumerate(scores):
            self.penalties[s] += score
        self.phase = OVER
        self.result.update(
            {
                "round_scores": scores,
                "rack_sums": sums,
                "factors": factors,
                "penalties": list(self.penalties),
            }
        )
        events.append(public("round_over", **deepcopy(self.result)))
        return events

    def _rack_sum(self, seat: int) -> int:
        return sum(tile_value(t, self.okey) for t in self.racks[seat])
