"""Okey at a table: the session of a match (`session` its state machine, `words` what a player
types, `messages` what the table says and shows)."""
