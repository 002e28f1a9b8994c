"""Okey at a table: the session of a match (`session`)."""
