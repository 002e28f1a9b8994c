"""A tournament's state machine, pure (no I/O): registration, stages of tables, the ranking and
the prizes. The service (`service.py`) stores it as a JSON snapshot and runs the tables.

Stages: the entrants are drawn into tables (`draw.seat`); each table plays one match; from each
table the better half (rounded up) of the entrants still in advances (a player who forfeited
never does); a stage of one table is the final, whose order ranks the top places. Everyone
else ranks by the stage they left in (later is better), then by their place at their table,
penalty total, finishes and the stage's fair draw. Prizes (`prizes.split`) go to the best
places; together they are exactly the fees paid in.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from bot.core.errors import Refusal
from bot.core.tournament import draw, prizes
from games.base import seed_hash
from games.poker import acik, turkish

# a tournament's kind: an Okey knockout (matches of four at several tables, the best of each go
# on), or a poker sit-and-go of that game at one table
KNOCKOUT = "okey"
OKEY101 = "okey101"  # a knockout's matches of 101 Okey (`Settings.variant`; else classic Okey)
KINDS = (KNOCKOUT, "turkish", "acik")
MAX_TABLES = 16  # first-stage tables at most unless the organiser says otherwise (64 entrants)
TABLES_LIMIT = 64

POKER_SEATS = {"turkish": turkish.MAX_PLAYERS, "acik": acik.MAX_PLAYERS[52]}


def is_knockout(kind: str) -> bool:
    """Whether tournaments of `kind` are knockouts of Okey matches (else a sit-and-go)."""
    return kind == KNOCKOUT


@dataclass
class Settings:
    """What the organiser chose: entry fee, rounds per match, the most first-stage tables,
    computer fill, the prize split, an optional start time; poker: starting chips and blind
    level minutes."""

    fee: int = 0
    rounds: int = 1
    tables: int = MAX_TABLES
    bots: bool = False
    split: tuple[int, ...] = prizes.OKEY_SPLIT
    chips: int = 0
    level_minutes: int = 0
    start_at: str | None = None  # ISO time (UTC) when registration closes by itself
    start_label: str = ""  # that time as the registration message shows it
    preset: str = "penalty"  # Okey: the matches' scoring preset ("penalty" or "classic")
    rules: tuple[str, ...] = ()  # a sit-and-go's house rules, `name=value` as `/poker open` takes
    seats: int = 0  # a sit-and-go's seats when its house rules deal to fewer (Açık deck=32)
    variant: str = KNOCKOUT  # a knockout: the matches' game, classic "okey" or OKEY101

    def capacity(self, kind: str) -> int:
        """How many entrants can register."""
        if is_knockout(kind):
            return self.tables * draw.TABLE_SEATS
        return self.seats or POKER_SEATS[kind]  # a sit-and-go is one table


@dataclass
class Entrant:
    """A registered player and the fee they paid in."""

    player_id: int
    user_id: str
    name: str
    locale: str
    paid: int = 0


@dataclass
class Slot:
    """One table of a stage: the entrants seated, the computers filling it, the table once
    opened, and its final order (entrants only, best first) and figures once its match is over."""

    number: int
    players: list[int]
    bots: int = 0
    table_id: int | None = None
    channel_id: str | None = None
    order: list[int] | None = None
    figures: dict[str, dict[str, int]] = field(default_factory=dict)

    def advancing(self) -> list[int]:
        """The entrants this table sends on: the better half (rounded up) of those still in."""
        if self.order is None:
            return []
        still_in = [p for p in self.order if not self.figures.get(str(p), {}).get("forfeit")]
        return still_in[: -(-len(self.players) // 2)]


@dataclass
class Stage:
    """A round of tables: its seed (secret until the stage is over, its hash posted at the
    draw), the fair draw that breaks ties, the tables and who advanced."""

    number: int
    seed: str
    seed_hash: str
    tables: list[Slot]
    tiebreak: list[int]
    revealed: bool = False
    advanced: list[int] | None = None

    @property
    def final(self) -> bool:
        """A stage of one table is the final."""
        return len(self.tables) == 1

    def complete(self) -> bool:
        """Every table's match is over."""
        return all(slot.order is not None for slot in self.tables)

    def players(self) -> list[int]:
        """Every entrant seated in this stage."""
        return [p for slot in self.tables for p in slot.players]


class Tournament:
    """One tournament's whole state; `to_dict`/`from_dict` round-trip it through JSON."""

    def __init__(
        self,
        kind: str,
        organiser: int,
        settings: Settings,
        locale: str,
        nonce: str,
        organiser_name: str = "",
    ) -> None:
        if kind not in KINDS:
            raise ValueError(f"unknown tournament kind {kind!r}")
        self.id = 0  # set from the stored record
        self.kind = kind
        self.organiser = organiser
        self.organiser_name = organiser_name
        self.settings = settings
        self.locale = locale
        self.nonce = nonce  # the registration buttons' (it changes when play starts)
        self.status = "registering"
        self.entrants: list[Entrant] = []
        self.stages: list[Stage] = []
        self.ranking: list[int] = []
        self.prizes: list[int] = []
        self.tables_opened = 0  # running table number (`Slot.number`)
        self.withdrawn: list[int] = []  # left after their table's match: they do not go on

    # --- snapshot -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe state."""
        settings = asdict(self.settings)
        settings["split"] = list(self.settings.split)
        return {
            "kind": self.kind,
            "organiser": self.organiser,
            "organiser_name": self.organiser_name,
            "settings": settings,
            "locale": self.locale,
            "nonce": self.nonce,
            "status": self.status,
            "entrants": [asdict(e) for e in self.entrants],
            "stages": [asdict(s) for s in self.stages],
            "ranking": list(self.ranking),
            "prizes": list(self.prizes),
            "tables_opened": self.tables_opened,
            "withdrawn": list(self.withdrawn),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], tournament_id: int = 0) -> Tournament:
        """Rebuild from `to_dict` output."""
        raw = dict(data["settings"])
        raw["split"] = tuple(raw["split"])
        raw["rules"] = tuple(raw.get("rules", ()))
        state = cls(
            data["kind"],
            data["organiser"],
            Settings(**raw),
            data["locale"],
            data["nonce"],
            data.get("organiser_name", ""),
        )
        state.id = tournament_id
        state.status = data["status"]
        state.entrants = [Entrant(**e) for e in data["entrants"]]
        state.stages = [
            Stage(**{**s, "tables": [Slot(**t) for t in s["tables"]]}) for s in data["stages"]
        ]
        state.ranking = list(data["ranking"])
        state.prizes = list(data["prizes"])
        state.tables_opened = data["tables_opened"]
        state.withdrawn = list(data.get("withdrawn", []))
        return state

    # --- queries --------------------------------------------------------------------------------

    def entrant(self, player_id: int) -> Entrant | None:
        """The registered player with this id, or None."""
        return next((e for e in self.entrants if e.player_id == player_id), None)

    def name(self, player_id: int) -> str:
        """An entrant's name (their id when unknown)."""
        found = self.entrant(player_id)
        return found.name if found is not None else str(player_id)

    @property
    def stage(self) -> Stage | None:
        """The stage being played (the last one), or None before the draw."""
        return self.stages[-1] if self.stages else None

    def pool(self) -> int:
        """Every fee paid in: what the prizes add up to."""
        return sum(e.paid for e in self.entrants)

    def slot_of(self, player_id: int) -> Slot | None:
        """The current stage's table where `player_id` sits, while its match is played."""
        stage = self.stage
        if stage is None:
            return None
        return next((s for s in stage.tables if player_id in s.players and s.order is None), None)

    def still_in(self, player_id: int) -> bool:
        """True while the player can still win: seated in the current stage and not out."""
        stage = self.stage
        return stage is not None and player_id in stage.players()

    # --- registration ---------------------------------------------------------------------------

    def join(self, entrant: Entrant) -> None:
        """Register a player (their fee is moved by the caller in the same commit)."""
        if self.status != "registering":
            raise Refusal("err.tournament_not_registering")
        if self.entrant(entrant.player_id) is not None:
            raise Refusal("err.tournament_joined")
        if len(self.entrants) >= self.settings.capacity(self.kind):
            raise Refusal("err.tournament_full", count=self.settings.capacity(self.kind))
        self.entrants.append(entrant)

    def leave(self, player_id: int) -> Entrant:
        """Unregister a player before play starts; returns them (their fee goes back)."""
        if self.status != "registering":
            raise Refusal("err.tournament_not_registering")
        found = self.entrant(player_id)
        if found is None:
            raise Refusal("err.tournament_not_entrant")
        self.entrants.remove(found)
        return found

    def withdraw(self, player_id: int) -> None:
        """A player whose table is over leaves the tournament: they do not advance."""
        if self.status != "running" or not self.still_in(player_id):
            raise Refusal("err.tournament_not_entrant")
        if player_id in self.withdrawn:
            raise Refusal("err.tournament_forfeited")
        self.withdrawn.append(player_id)

    def cancel(self) -> dict[int, int]:
        """Call the tournament off: every fee paid goes back (player id -> chips)."""
        if self.status not in ("registering", "running"):
            raise Refusal("err.tournament_over")
        self.status = "cancelled"
        return {e.player_id: e.paid for e in self.entrants if e.paid}

    # --- play -----------------------------------------------------------------------------------

    def start(self, seed: bytes, nonce: str) -> Stage:
        """Close registration and seat the first stage."""
        if self.status != "registering":
            raise Refusal("err.tournament_not_registering")
        if len(self.entrants) < 2:
            raise Refusal("err.tournament_need_players", count=2)
        self.status = "running"
        self.nonce = nonce
        return self._seat([e.player_id for e in self.entrants], seed)

    def _seat(self, players: list[int], seed: bytes) -> Stage:
        fill = self.settings.bots and is_knockout(self.kind)
        if is_knockout(self.kind):
            seating = draw.seat(players, seed, fill)
        else:  # a sit-and-go is one table
            seating = draw.Seating([draw.shuffled_players(players, seed)], [0])
        slots = []
        for players_at, bots in zip(seating.tables, seating.bots, strict=True):
            self.tables_opened += 1
            slots.append(Slot(self.tables_opened, players_at, bots))
        stage = Stage(
            number=len(self.stages) + 1,
            seed=seed.hex(),
            seed_hash=seed_hash(seed),
            tables=slots,
            tiebreak=draw.tiebreak(players, seed),
        )
        self.stages.append(stage)
        return stage

    def record(self, number: int, order: list[int], figures: dict[int, dict[str, int]]) -> bool:
        """A table's match is over: keep its order (entrants only) and figures; False when it
        was recorded already (a repeat after a restart changes nothing)."""
        stage = self.stage
        slot = (
            None if stage is None else next((s for s in stage.tables if s.number == number), None)
        )
        if slot is None or slot.order is not None:
            return False
        slot.order = [p for p in order if p in slot.players]
        slot.order += [p for p in slot.players if p not in slot.order]  # never lose anyone
        slot.figures = {str(p): dict(figures.get(p, {})) for p in slot.players}
        return True

    def next_stage(self, seed: bytes) -> Stage | None:
        """Once the current stage is complete: reveal its seed and either seat the next stage
        (returned) or, after the final (or with one player left), finish (None)."""
        stage = self.stage
        if self.status != "running" or stage is None or not stage.complete():
            raise Refusal("err.tournament_stage_running")
        stage.revealed = True
        if stage.final:
            stage.advanced = list(stage.tables[0].order or [])
            self._finish()
            return None
        stage.advanced = [
            p for slot in stage.tables for p in slot.advancing() if p not in self.withdrawn
        ]
        if len(stage.advanced) <= 1:
            self._finish()
            return None
        return self._seat(sorted(stage.advanced), seed)

    def _finish(self) -> None:
        """Rank every entrant once and split the fees among the best places."""
        last = self.stages[-1]
        ranking = list(last.advanced or [])
        for stage in reversed(self.stages):
            place = {p: (i, slot) for slot in stage.tables for i, p in enumerate(slot.order or [])}
            rest = [p for p in stage.players() if p not in ranking]

            def key(pid: int, place: dict[int, tuple[int, Slot]] = place, stage: Stage = stage):
                index, slot = place[pid]
                f = slot.figures.get(str(pid), {})
                drawn = stage.tiebreak.index(pid) if pid in stage.tiebreak else len(stage.tiebreak)
                out = int(bool(f.get("forfeit")) or pid in self.withdrawn)
                return (out, index, f.get("penalty", 0), -f.get("finishes", 0), drawn)

            ranking += sorted(rest, key=key)
        self.ranking = ranking
        split = self.settings.split if is_knockout(self.kind) else prizes.poker_split(len(ranking))
        self.prizes = prizes.split(self.pool(), split, len(ranking))
        self.status = "finished"

    def payouts(self) -> dict[int, int]:
        """Prize per player once finished (player id -> chips, only those who win some)."""
        return {p: c for p, c in zip(self.ranking, self.prizes, strict=False) if c}
