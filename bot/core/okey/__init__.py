"""Okey at a table: the session of a match (`session` its state machine, `words` what a player
types, `messages` what the table says and shows, `view` the typed view of it), and what the
classic and the 101 tables share (`tile_session` the tile table, `tile_messages` its shared
lines)."""
