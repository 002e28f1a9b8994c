"""A 101 Okey table's state machine: a match of rounds (`games.okey101.Match101`) on the tile
table both Okey games share (`bot.core.okey.tile_session`: opening, seats, stakes, rounds
dealt, events as notes, the computer's turn, the payout, a tournament's standing); this module
supplies 101's hooks (its options, the computer's move, whose rack comes with the turn, the
finish picture, a round's public end) and its moves. Shaped like the classic table (`bot.core.okey.session`): the words a player types are read in
`bot.core.okey101.words`, the lines, buttons and pictures built in `bot.core.okey101.messages`,
the one-press moves worked out in `bot.core.okey101.plays`. Tiles a player holds only ever go to
that player.

Moves (`act`, typed: `bot.core.moves`): the engine's `Action` (a `discard` that costs +101 is
warned about first, with `ConfirmDiscard` offered to make it anyway), `Plan` (the solver's
one-press moves: open with the best melds or pairs, take the previous discard and open or use
it, lay what the rack holds), `PickMeld` (the add picker: the tiles that fit, then the melds
one tile fits). Their button codes live in `bot.core.codec`.

Chips: at `begin` each player's stake moves wallet -> escrow; when the match ends the payout
(`Match101.payout`: the rules file's penalty split, or all to the winner) moves escrow ->
wallets. The escrow holds `stake x players` during a match and nothing between matches.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import replace
from typing import Any

from bot.core.commands import fold
from bot.core.errors import Refusal
from bot.core.messages import WARNING, Prompt
from bot.core.moves import ConfirmDiscard, Move, PickMeld, Plan
from bot.core.okey.tile_opening import Opening
from bot.core.okey.tile_session import MAX_SEATS, TileSession
from bot.core.okey101 import plays
from bot.core.okey101.face import Okey101Messages
from bot.core.okey101.messages import ANNOUNCED_EVENTS, MAX_BUTTONS
from bot.core.okey101.words import OKEY101_SUBS, Okey101Words, Request
from bot.core.sketch import Sketch
from bot.core.table import house, last, pictures
from bot.core.table import stats as handstats
from bot.core.table.session import ButtonSpec, Msg, Step, Who, msg
from games.base import Action
from games.okey101 import Match101, Round101
from games.okey101 import ai as okey101_ai
from games.okey101.round import TAKE

VARIANT_WORDS = ("101", "yüzbir", "yuzbir", "yüz-bir")
ROUNDS = (1, 3, 5, 7, 9, 11)
MOVE_KINDS = ("take", "open", "lay", "add", "swap", "discard", "finish")
PLANS = {  # the solver's one-press moves (`Plan`) as the requests a player could type
    "open_best": Request("lay", how="best"),
    "open_pairs": Request("lay", how="pairs"),
    "take_open_best": Request("lay", how="best", source="discard"),
    "take_open_pairs": Request("lay", how="pairs", source="discard"),
    "take_use": Request("lay", how="use", source="discard"),
    "lay_best": Request("lay", how="best"),
}


def is_variant_word(word: str) -> bool:
    """True for a word that asks for 101 Okey (`/okey start 101`, `/okey başlat yüzbir`)."""
    return fold(word) in {fold(w) for w in VARIANT_WORDS}


class Okey101Session(Okey101Words, Okey101Messages, TileSession[Match101, Round101]):
    """One 101 Okey table."""

    game = "okey101"
    match_type = Match101

    opening = Opening("rounds101", ROUNDS, "err.okey101_start_usage", "err.okey101_rounds")
    announced_events = ANNOUNCED_EVENTS

    @property
    def game101(self) -> Round101 | None:
        """The round being played, or None (`round`, by the name 101's code reads it by)."""
        return self.round

    def wants_action(self, who: Who, word: str) -> bool:
        """`/okey open R1 R2 R3 ...` (`open` is a word for `start`) by a player of the running
        match is the opening move, not a new table."""
        return word == "start" and self.running() and self.engine_seat(who.player_id) is not None

    # --- commands -------------------------------------------------------------------------------

    def _typed_move(self, who: Who, sub: str, args: tuple[str, ...]) -> Step:
        """A move typed as a command (`/okey open ...` is the opening move, `start 101` a
        table that exists)."""
        if sub == "start" and args and is_variant_word(args[0]):
            raise Refusal("err.table_exists")
        if sub in OKEY101_SUBS or sub == "start":
            return self._request_move(who, self._request(sub, args))
        raise Refusal("err.okey101_usage")

    def act(self, who: Who, move: Move) -> Step:
        """A typed move: the engine's `Action` (checked by the engine like a typed one; a
        `discard` that costs +101 is warned about first), a solver's move (`Plan`), the +101
        discard made anyway (`ConfirmDiscard`) or the add picker (`PickMeld`)."""
        if isinstance(move, Plan) and move.kind in PLANS:
            return self._request_move(who, PLANS[move.kind])
        if isinstance(move, PickMeld):
            return self._picker(who, None if move.tile is None else move.tile.upper())
        if isinstance(move, ConfirmDiscard):
            tiles = (move.tile.upper(),)
            return self._request_move(who, Request("discard", tiles=tiles, confirm=True))
        if not isinstance(move, Action) or move.kind not in MOVE_KINDS:
            raise Refusal("err.bad_button")
        cards = tuple(c.upper() for c in move.cards)
        if move.kind in ("discard", "finish"):
            if len(cards) != 1:
                raise Refusal("err.tile_usage", action=move.kind)
            return self._request_move(who, Request(move.kind, tiles=cards))
        return self._move(who, replace(move, cards=cards))

    def _picker(self, who: Who, tile: str | None) -> Step:
        """The add picker (no move is made): the tiles that fit, or the melds one tile fits."""
        index = self._acting(who)
        game = self.game101
        assert game is not None
        if not plays.additions(game, index) and not plays.swaps(game, index):
            raise Refusal("err.okey101_nothing_to_add")
        if tile is not None and not any(t == tile for t, _ in plays.additions(game, index)):
            raise Refusal("illegal.does_not_fit")
        step = Step(action={"kind": "pick"}, seat=self.find(self.staked[index]), answer_only=True)
        step.notes.append(self.add_picker_note(index, tile))
        return step

    def rules_problem(self, options: dict[str, Any]) -> Refusal | None:
        """Partners need four players: refused while another number is seated."""
        partners = house.engine_args(self.game, options)["match"]["partners"]
        if partners and self.seats and len(self.seats) != MAX_SEATS and self.running():
            return Refusal("err.okey101_partners")
        return None

    def _start_problem(self) -> Refusal | None:
        """Partners need four players (under the rules the match would be played by)."""
        options = house.engine_args(self.game, {**self.options, **self.pending})["match"]
        if options["partners"] and len(self.seats) != MAX_SEATS:
            return Refusal("err.okey101_partners")
        return None

    # --- rounds ---------------------------------------------------------------------------------

    def _round_details(self, public: dict[str, Any], match_id: str) -> list[dict[str, Any]]:
        """Each player's result detail of the round that ended (`bot.core.table.stats`)."""
        return handstats.okey101_round_details(public, match_id)

    def _last_round(self, public: dict[str, Any]) -> dict[str, Any]:
        """The ended round's public end for the live table (`bot.core.table.last`), from the
        round's public view: each player's round score and match total, the melds lying on
        the table, and when a player finished their melds on the table with the finishing
        discard last (all public: never a rack)."""
        result = public.get("result") or {}
        ended = {
            "players": self._last_players(public),
            "melds": [list(m["tiles"]) for m in public["table"]],
            "indicator": public["indicator"],
            "okey": public["okey"],
        }
        if result.get("reason") != "finished":
            return ended
        theirs = [list(m["tiles"]) for m in public["table"] if m["owner"] == result["winner"]]
        return {**ended, "rack": list(last.packed([*theirs, [result["discard"]]]))}

    def _ranked_points(self) -> list[int]:
        """The match totals (lowest first)."""
        assert self.match is not None
        return self.match.totals

    def _finish_picture(self) -> Sketch | None:
        """The finished round's table: every meld laid down (public once the round is over)."""
        assert self.match is not None
        names = [self.name(i) for i in range(len(self.staked))]
        return pictures.okey101_table(self.match.view(None), names, self.locale)

    def _turn_prompt(self, step: Step, drawn: dict[int, Msg]) -> None:
        """The rack of the player to act with their turn buttons (`_turn_note`), if any."""
        note = self._turn_note(list(drawn.values()))
        if note is not None:
            step.notes.append(note)

    def _turn_of(self, index: int) -> bool:
        """True when engine seat `index` is to act (their rack comes with their buttons)."""
        game = self.game101
        return game is not None and game.to_act() == index

    # --- moves ----------------------------------------------------------------------------------

    def _request_move(self, who: Who, request: Request) -> Step:
        index = self._acting(who)
        game = self.game101
        assert game is not None
        if request.kind == "discard" and not request.confirm:
            tile = request.tiles[0]
            why = plays.warning(game, index, tile) if tile in game.racks[index] else None
            if why is not None:
                return self._warn(index, tile, why)
        return self._apply(index, self.resolve(game, index, request))

    def resolve(self, game: Round101, index: int, request: Request) -> Action:
        """The engine's move for a typed or pressed request of engine seat `index`."""
        if request.kind == "take":
            return Action("take", source="stock")
        if request.kind in ("add", "swap"):
            cards = request.tiles
            return Action(request.kind, cards=cards, amount=request.meld, source=request.source)
        if request.kind in ("discard", "finish"):
            return Action(request.kind, cards=request.tiles)
        take = request.source == "discard"
        if take and game.phase != TAKE:
            raise Refusal("illegal.already_took")
        if not take and game.phase == TAKE:
            raise Refusal("illegal.must_take")
        opened = game.opened[index] is not None
        if request.how == "given":
            kind = "lay" if opened else "open"
            return Action(kind, cards=request.tiles, source=request.source)
        if request.how == "use" or (take and opened and request.how == "best"):
            action = plays.use_discard(game, index)
            if action is None:
                raise Refusal("err.okey101_cannot_use", tile=game.last_discard(index) or "")
            return action
        if opened:
            plan = plays.lay_plan(game, index, take=take)
            if plan is None:
                raise Refusal("err.okey101_nothing_to_lay")
            return plan.action
        how = plays.SERIES_OPEN if request.how == "best" else plays.PAIRS_OPEN
        plan = plays.open_plan(game, index, how, take=take)
        if plan is not None:
            return plan.action
        taken = game.last_discard(index) if take else None
        if take and taken is None:
            raise Refusal("illegal.discard_pile_empty")
        best = plays.best([*game.racks[index], *([taken] if taken else [])], game.okey, taken)
        if how == plays.SERIES_OPEN:
            raise Refusal("err.okey101_cannot_open", value=max(best.value, 0), need=game.threshold)
        raise Refusal("err.okey101_cannot_pairs", pairs=best.pairs)

    def _warn(self, index: int, tile: str, why: str) -> Step:
        """A discard that costs +101: nothing is played; the player gets the warning and a
        button to discard anyway (their other buttons as before)."""
        step = Step(action={"kind": "warn"}, seat=self.find(self.staked[index]), answer_only=True)
        warning = msg("okey101.warn", tile=tile, reason=msg(f"okey101.reason.{why}"))
        discard = Action("discard", cards=(tile,))
        others = [b for b in self._turn_buttons(index) if b.move != discard]
        buttons = [self._confirm_button(tile), *others][:MAX_BUTTONS]
        note = self._rack_note(index, [warning], buttons)
        note.prompt = Prompt(WARNING, str(self.table_id), self.nonce, "discard", tile=tile)
        step.notes.append(note)
        return step

    @staticmethod
    def _confirm_button(tile: str) -> ButtonSpec:
        label = msg("btn.okey101_discard_anyway", tile=tile)
        return ButtonSpec(ConfirmDiscard(tile), label, "danger")

    def _computer_action(self, game: Round101, index: int, level: str) -> Action:
        """The computer's next move (`games.okey101.ai.choose_action` at `level`)."""
        return okey101_ai.choose_action(game, index, level, self._rng(game, index))

    @staticmethod
    def _rng(game: Round101, index: int) -> random.Random:
        """A computer's tie-breaks: from the round's secret seed hashed with the seat and the
        turn (reveals nothing, reproducible)."""
        key = f"ai101:{index}:{game.turn_no}:{game.phase}".encode()
        return random.Random(hashlib.sha256(game.seed + key).digest())
