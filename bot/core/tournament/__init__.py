"""Tournaments: multi-table Okey tournaments (and the poker sit-and-go's registration).

`state` is the pure state machine, `draw` the provably-fair seating, `prizes` the split,
`options` the command words, `view` the living message and `service` the storage, locks,
commands, presses and tables. See docs/tournaments.md.
"""

from bot.core.tournament.service import TournamentService
from bot.core.tournament.view import is_tournament_id

__all__ = ["TournamentService", "is_tournament_id"]
