"""What a tournament table's page shows of its tournament (`TournamentView`), from the pure
builders: a sit-and-go's level (running, next, due), its standing with the eliminated and the
forfeits; a knockout's table standing with who would go on (never a computer or a forfeit)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.core.api import StandingView
from bot.core.okey.tile_tournament import knockout_view
from bot.core.poker import sng
from bot.core.poker.sng_view import sng_view
from bot.core.table.session import Seat, TableOutcome

START = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
OPTIONS = {"tournament": 4, "chips": 1000, "level_seconds": 60, "antes": None, "ante": 10}


def seat(pid: int, name: str, bot: bool = False) -> Seat:
    return Seat(pid, f"bot-{pid}" if bot else f"u{pid}", name, "en", bot=bot)


def test_a_sit_and_go_counts_to_its_next_level_then_says_it_is_due():
    seats = [seat(1, "Ayşe"), seat(2, "Mehmet")]
    outcome = TableOutcome(False, [2, 1], {1: {"chips": 800}, 2: {"chips": 1200}})
    running = sng_view(OPTIONS, seats, outcome, [], [], (START, 0, START + timedelta(seconds=20)))
    assert (running.id, running.kind, running.level, running.ante) == (4, "sng", 1, 10)
    assert running.next_ante == sng.ante_for(1, 1000, None) == 15
    assert running.next_level == START + timedelta(seconds=60)
    assert running.standing == (StandingView("Mehmet", 1, 1200), StandingView("Ayşe", 0, 800))
    # a long hand: the clock is two levels on, the next hand deals at the level it reached
    due = sng_view(OPTIONS, seats, outcome, [], [], (START, 0, START + timedelta(seconds=130)))
    assert due.next_level is None and due.next_ante == sng.ante_for(2, 1000, None) == 25
    before = sng_view(OPTIONS, seats, outcome, [], [], None)  # not dealt yet, or closed
    assert before.level is None and before.next_level is None and before.chips == 1000


def test_a_sit_and_go_standing_lists_the_eliminated_after_those_in_and_marks_forfeits():
    seats = [seat(1, "Ayşe"), seat(3, "Can")]
    out = [
        {"player": 4, "name": "Deniz", "place": 4, "hand": "9-3"},
        {"player": 2, "name": "Mehmet", "place": 3, "hand": "9-5"},
    ]
    order = [3, 1, 2, 4]
    figures = {3: {"chips": 3000}, 1: {"chips": 1000}, 2: {"chips": 0}, 4: {"chips": 0}}
    view = sng_view(OPTIONS, seats, TableOutcome(False, order, figures), out, [1], None)
    assert view.entrants == 4
    assert view.standing == (
        StandingView("Can", 1, 3000),
        StandingView("Ayşe", 0, 1000, forfeit=True),
        StandingView("Mehmet", None, 0, 3),
        StandingView("Deniz", None, 0, 4),
    )


def test_a_knockout_table_says_who_would_go_on_never_a_computer_or_a_forfeit():
    seats = [seat(1, "Ayşe"), seat(2, "Mehmet"), seat(3, "Can"), seat(9, "Bot", bot=True)]
    figures = {
        9: {"penalty": 0, "forfeit": 0},
        2: {"penalty": 5, "forfeit": 0},
        3: {"penalty": 9, "forfeit": 0},
        1: {"penalty": 2, "forfeit": 1},
    }
    outcome = TableOutcome(False, [9, 2, 3, 1], figures)
    view = knockout_view({"tournament": 7, "slot": 3}, 3, 2, seats, outcome)
    assert (view.id, view.kind, view.table, view.round, view.rounds) == (7, "knockout", 3, 2, 3)
    assert view.entrants == 3  # the computer fills the table, it is no entrant
    assert [(s.name, s.value, s.advancing, s.forfeit) for s in view.standing] == [
        ("Bot", 0, False, False),
        ("Mehmet", 5, True, False),
        ("Can", 9, True, False),  # 3 entrants: the better half rounded up is 2
        ("Ayşe", 2, False, True),
    ]
    assert [s.seat for s in view.standing] == [3, 1, 2, 0]
