"""The test suite, by what each folder tests: `tests/games` (engines), `tests/storage` (SQLite
and, when `TEST_DATABASE_URL` is set, PostgreSQL), `tests/core` (the core through its commands),
`tests/tournament`, `tests/discord`, `tests/telegram`, `tests/console`, `tests/adapters` (what
every front shares), `tests/runtime` (`python -m bot`, settings, shutdown), `tests/render`
(pictures) and `tests/benchmarks` (the benchmarks' tools). Fakes, drivers and random players
come from the `testkit` package. `make test` runs it all.
"""
