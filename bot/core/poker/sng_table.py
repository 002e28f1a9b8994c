"""A poker sit-and-go table: the one table of a poker tournament (`bot.core.registry.sit_and_go`).

Every entrant is seated with the same TOURNAMENT chips: no wallet is touched and nothing moves in
the ledger (the entry fee and the prizes are the tournament's). The ante of each hand comes from
the level the table's clock has reached when it is dealt (`bot.core.poker.sng`). A player left without
chips when a hand ends is out, in the next place from the bottom; when one player holds every
chip the table closes and `outcome()` is final. Leaving is a forfeit: the seat stays, the
computer plays it (cautiously) until it is out. Joining, adding a computer or changing the rules
are refused for the whole tournament. What the table says on top of a poker table (the ante
levels, forfeits, the eliminated) comes from the pure functions of `bot.core.poker.sng_messages`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from bot.core.api import TournamentView
from bot.core.errors import Refusal
from bot.core.moves import Move
from bot.core.poker import sng, sng_messages
from bot.core.poker.session import ENGINES, MAX_SEATS, PokerSession
from bot.core.poker.sng_view import sng_view
from bot.core.table import ai
from bot.core.table.session import (
    Msg,
    Seat,
    Step,
    TableOutcome,
    Who,
    from_iso,
    is_computer,
    iso,
    msg,
)

MIN_PLAYERS = 2


class SitAndGoSession(PokerSession):
    """A poker table playing a sit-and-go with tournament chips (see the module docstring)."""

    def __init__(self, game: str, locale: str, options: dict[str, Any], created: datetime) -> None:
        super().__init__(game, locale, options, created)
        self.started: datetime | None = None  # when the first hand was dealt: level 0 starts
        self.level = 0  # the level the running (or last) hand's ante comes from
        # the eliminated, first out first: player id, name, place and the hand they lost in
        self.out: list[dict[str, Any]] = []
        self.forfeit_ids: list[int] = []  # player ids who left: the computer plays their seats

    @classmethod
    def seat_entrants(
        cls,
        game: str,
        entrants: Sequence[Who | Seat],
        settings: dict[str, Any],
        locale: str,
        now: datetime,
        tournament_id: Any,
    ) -> SitAndGoSession:
        """A table with every entrant (a `Who`, or a `Seat` as the tournament service builds
        them) seated with the starting tournament chips, not yet dealt; refused when the
        variant, the number of entrants or the settings do not fit."""
        if game not in ENGINES:
            raise Refusal("err.game_unavailable")
        options = sng.table_options(game, settings, tournament_id)
        ids = [who.player_id for who in entrants]
        limit = MAX_SEATS[game]
        if not MIN_PLAYERS <= len(ids) <= limit or len(set(ids)) != len(ids):
            raise Refusal("err.sng_entrants", min=MIN_PLAYERS, max=limit)
        level = settings.get("bot_level", ai.DEFAULT_LEVEL)
        if level not in ai.LEVELS:
            raise Refusal("err.sng_bot_level")
        session = cls(game, locale, options, now)
        for who in entrants:
            computer = is_computer(who)
            seat = Seat(who.player_id, who.user_id, who.name, who.locale, bot=computer)
            if computer:
                seat.level = level
            session.seats.append(seat)
            session.chips[str(who.player_id)] = options["chips"]
        return session

    # --- snapshot -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The poker snapshot plus the sit-and-go's state under `sng`."""
        data = super().to_dict()
        data["sng"] = {
            "started": iso(self.started),
            "level": self.level,
            "out": [dict(o) for o in self.out],
            "forfeit": list(self.forfeit_ids),
        }
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SitAndGoSession:
        """Rebuild a sit-and-go table from `to_dict` output."""
        session = super().from_dict(data)
        assert isinstance(session, SitAndGoSession)
        state = data["sng"]
        session.started = from_iso(state["started"])
        session.level = state["level"]
        session.out = [dict(o) for o in state["out"]]
        session.forfeit_ids = list(state["forfeit"])
        return session

    # --- commands -------------------------------------------------------------------------------

    def command(self, who: Who, sub: str, args: tuple[str, ...]) -> Step:
        """`start` deals the first hand (the tournament opens the table with it); `leave` is a
        forfeit; `join` is refused; moves as at any poker table, except from a forfeited seat."""
        if sub == "join":
            raise Refusal("err.sng_no_join")
        self._refuse_forfeited(who)
        if sub == "start" and not args and self.started is None:
            return self._begin()
        if sub == "leave" and not args:
            return self._leave(who)
        return super().command(who, sub, args)

    def start_match(self) -> Step:
        """Deal the first hand (what the tournament service runs once the table is stored);
        refused once the table has begun."""
        if self.started is not None:
            raise Refusal("err.already_playing")
        return self._begin()

    def act(self, who: Who, move: Move) -> Step:
        """A typed move, unless the player has forfeited."""
        self._refuse_forfeited(who)
        return super().act(who, move)

    def add_bot(self, bot: Who, args: tuple[str, ...]) -> Step:
        """Refused: the entrants are the only players of a tournament table."""
        raise Refusal("err.sng_no_addbot")

    def set_rules(self, who: Who, words: tuple[str, ...]) -> Step:
        """Refused: a tournament's rules hold for the whole tournament."""
        raise Refusal("err.sng_no_rules")

    def back(self, who: Who) -> Step:
        """Back from being away (timed out), but never from a forfeit."""
        self._refuse_forfeited(who)
        return super().back(who)

    def _refuse_forfeited(self, who: Who) -> None:
        if who.player_id in self.forfeit_ids and self.find(who.player_id) is not None:
            raise Refusal("err.sng_forfeited")

    def _leave(self, who: Who) -> Step:
        """Leaving is a forfeit: the seat stays and the computer plays it until it is out."""
        return self.forfeit(who.player_id)

    def forfeit(self, player_id: int) -> Step:
        """`player_id` leaves the tournament (`/poker leave` here, `/tournament leave` from the
        tournament service): the seat stays and the computer plays it until it is out."""
        index = self.find(player_id)
        if index is None:
            raise Refusal("err.not_seated")
        if player_id in self.forfeit_ids:
            raise Refusal("err.sng_forfeited")
        step = Step(action={"kind": "forfeit"}, seat=index, player_id=player_id)
        self._mark_forfeit(index, step)
        return step

    def kick(self, index: int) -> Step:
        """A moderator removes a player: a forfeit, as when they leave."""
        seat = self.seats[index]
        if seat.player_id in self.forfeit_ids:
            raise Refusal("err.sng_already_forfeited", name=seat.name)
        step = Step(seat=index)
        step.say("poker.kicked", name=seat.name)
        self._mark_forfeit(index, step)
        return step

    def _mark_forfeit(self, index: int, step: Step) -> None:
        seat = self.seats[index]
        self.forfeit_ids.append(seat.player_id)
        seat.away = seat.kicked = True  # (no kept seat: `back` cannot undo a forfeit)
        step.announce("sng.forfeit", name=seat.name)
        step.show_table()

    def auto_seat(self) -> int | None:
        """The seat to act when the computer plays it: a computer, an away player or a forfeit."""
        index = self.actor()
        if index is None:
            return None
        seat = self.seats[index]
        if seat.bot or seat.away or seat.leaving or seat.player_id in self.forfeit_ids:
            return index
        return None

    def auto_move(self, index: int, afk: bool) -> Step:
        """The computer acts for seat `index`; a forfeited seat is played cautiously."""
        return super().auto_move(index, afk or self.seats[index].player_id in self.forfeit_ids)

    # --- the hand loop --------------------------------------------------------------------------

    def _begin(self) -> Step:
        """The first hand: the clock of the ante levels starts now."""
        step = Step(action={"kind": "sng_start"})
        self.phase = "playing"
        self.started = self.now
        step.announce(
            "sng.started",
            game=msg(f"game.{self.game}"),
            players=len(self.seats),
            chips=self.options["chips"],
            wait=sng_messages.duration(self.options["level_seconds"]),
        )
        self._deal(step)
        return step

    def table_lines(self) -> list[Msg]:
        """The poker table with the ante level and the next one, forfeited seats marked and
        the eliminated listed (`sng_messages.table_lines`)."""
        poker = super().table_lines()
        return sng_messages.table_lines(
            poker, self.seats, self.forfeit_ids, self._level_line(), self.out
        )

    def _level_line(self) -> Msg | None:
        """The ante level line while the sit-and-go runs."""
        if self.started is None or self.phase == "closed":
            return None
        now = self._clock_level()
        wait = (now + 1) * self.options["level_seconds"] - (self.now - self.started).total_seconds()
        upcoming = self._ante(now if now > self.level else now + 1)
        return sng_messages.level_line(self.level, self.options["ante"], now, upcoming, wait)

    def rules_lines(self) -> list[Msg]:
        """The sit-and-go's terms, then the game's rules and house rules as at any poker table."""
        players = len(self.seats) + len(self.out)
        return sng_messages.rules_lines(self.game, self.options, players, super().rules_lines())

    def _clock_level(self) -> int:
        assert self.started is not None
        return sng.level_at(self.started, self.now, self.options["level_seconds"])

    def _ante(self, level: int) -> int:
        return sng.ante_for(level, self.options["chips"], self.options["antes"])

    def _deal(self, step: Step) -> None:
        """Deal with the ante of the level the clock has reached."""
        self.level = self._clock_level()
        ante = self._ante(self.level)
        if ante != self.options["ante"]:
            step.announce("sng.ante_up", level=self.level + 1, ante=ante)
        self.options["ante"] = ante
        super()._deal(step)

    def _finish(self, step: Step) -> None:
        """Settle the hand, put out those left without chips, then deal on or crown the winner."""
        dealt = list(zip(self.in_hand, self.start_stacks, strict=True))
        seed = self.engine.seed
        self._settle(step)
        # tournament chips are not wallet chips: the hand is in the player's history, but its
        # result moves no chips there (nor counts as a chip win on the boards)
        step.results = [
            replace(r, chips_delta=0, detail={**r.detail, "tournament_chips": r.chips_delta})
            for r in step.results
        ]
        self._eliminate(dealt, seed, step)
        if len(self.seats) >= 2:
            self._deal(step)
        else:
            self._crown(step)

    def _eliminate(self, dealt: list[tuple[int, int]], seed: bytes, step: Step) -> None:
        """Those of the hand left without chips are out: more chips at the deal place higher,
        equal stacks by a draw from the hand's (now revealed) seed; the worst place first."""
        busted = [(pid, start) for pid, start in dealt if self.chips.get(str(pid), 0) == 0]
        if not busted:
            return
        order = sng.bust_order(busted, seed)  # best place first
        alive = len(self.seats) - len(order)
        if alive == 0:  # cannot happen (a won pot or a pass leaves someone chips); never empty
            order.pop(0)
            alive = 1
        for offset, pid in reversed(list(enumerate(order))):
            index = self.find(pid)
            assert index is not None
            place = alive + 1 + offset
            seat = self._take_seat(index)
            self.out.append(
                {"player": pid, "name": seat.name, "place": place, "hand": self.hand_id()}
            )
            step.announce("sng.out", name=seat.name, place=msg(f"ord.{place}"))

    def _take_seat(self, index: int) -> Seat:
        """Remove the seat at `index` (no chips to pay: they have none), keeping the button on
        the seat before it so that the next dealer is the next player round the table."""
        seat = self.seats.pop(index)
        self.chips.pop(str(seat.player_id), None)
        if self.button is not None:
            if index < self.button:
                self.button -= 1
            elif index == self.button:
                self.button = (index - 1) % len(self.seats) if self.seats else None
        return seat

    def _crown(self, step: Step) -> None:
        """One player holds every chip (with any carried pot): the table closes."""
        winner = self.seats[0]
        key = str(winner.player_id)
        self.chips[key] = self.chips.get(key, 0) + self.carried
        self.carried = 0
        self.phase = "closed"
        step.status = "closed"
        step.announce("sng.winner", name=winner.name, chips=self.chips[key])
        step.show_table()

    # --- standing -------------------------------------------------------------------------------

    def stack(self, player_id: int) -> int:
        """A seated player's tournament chips now: behind, or in the running hand their stack
        plus what they have put in the pot."""
        index = self.engine_seat(player_id)
        if index is None:
            return self.chips.get(str(player_id), 0)
        view = self.engine.view(None)
        return view["stacks"][index] + view["committed"][index]

    def tournament_chips(self) -> int:
        """Every tournament chip at the table: stacks behind, the carried pot and the running
        hand's stacks and pot; always the entrants times the starting chips."""
        total = sum(self.chips.values()) + self.carried
        if self.running():
            view = self.engine.view(None)
            total += sum(view["stacks"]) + view["pot"]
        return total

    def outcome(self) -> TableOutcome:
        """The players best first (by chips, then the eliminated, the last one out first) with
        their chips; final once one player holds them all."""
        alive = [(s.player_id, self.stack(s.player_id)) for s in self.seats]
        order = sng.standing(alive, [o["player"] for o in self.out])
        figures = {pid: {"chips": chips} for pid, chips in alive}
        figures.update({o["player"]: {"chips": 0} for o in self.out})
        return TableOutcome(self.phase == "closed", order, figures)

    def tournament_view(self) -> TournamentView:
        """The sit-and-go as the table's page shows it (`sng_view`): the level, the next one
        and when it starts, the standing."""
        level = None
        if self.started is not None and self.phase != "closed":
            level = (self.started, self.level, self.now)
        return sng_view(self.options, self.seats, self.outcome(), self.out, self.forfeit_ids, level)

    # --- money: none of it is in the ledger -----------------------------------------------------

    def held(self) -> int:
        """Chips this table holds in escrow: none (tournament chips are not wallet chips)."""
        return 0

    def refunds(self) -> dict[int, int]:
        """Nothing to pay back from the table: the entry fees are the tournament's."""
        return {}

    def close(self) -> Step:
        """Close the table before its first hand (an idle close): no chips to pay back."""
        if self.running():
            raise Refusal("err.already_playing")
        step = Step(action={"kind": "close"}, status="closed")
        step.announce("sng.idle_closed")
        return step


PokerSession.restored_as["sng"] = SitAndGoSession  # a sit-and-go snapshot restores as one
