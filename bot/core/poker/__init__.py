"""Poker at a table: the Türk pokeri and Açık poker session (`session`) and the sit-and-go, a
poker tournament's one table (`sng` its blinds and standings, `sng_table` its session)."""
