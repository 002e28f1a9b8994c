"""Persistence: SQLModel tables, async sessions, the chip ledger, table snapshots and the action log.

Runs on aiosqlite by default and on PostgreSQL through asyncpg; Alembic migrations own the schema.
May import `games` for types only.
"""
