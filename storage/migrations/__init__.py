"""Alembic migration environment of the storage package."""
