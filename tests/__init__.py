"""The test suite, mirroring the packages: `tests/games` (engines), `tests/storage` (SQLite and,
when `TEST_DATABASE_URL` is set, PostgreSQL), `tests/bot` (core, console, adapters, pictures) and
`tests/fakes` (the only fakes: the network edge of Telegram and Discord). `make test` runs it all.
"""
