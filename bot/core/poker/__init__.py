"""Poker at a table: the Türk pokeri and Açık poker session (`session` its state machine, `words`
what a player types, `messages` what the table says and shows) and the sit-and-go, a poker
tournament's one table (`sng` its blinds and standings, `sng_table` its session, `sng_messages`
its words on top of a poker table)."""
