"""101 Okey at a table: the session of a match (`session` its state machine, `words` what a
player types, `messages` what the table says and shows, `plays` the one-press moves worked out
from the solver, `view` the typed view of it)."""
