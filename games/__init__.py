"""Pure rules engines for Türk pokeri, Açık poker and Okey.

Everything here is deterministic game logic: no I/O, no asyncio, no clock, no database and no chat
library. `games.base` holds the protocol every engine follows (actions, legal-action specs, events,
illegal-action errors, seeded shuffles); `games.poker` and `games.okey` hold the engines.
"""
