"""``python -m storage upgrade|current|downgrade REV|audit [--url URL]``: manage the schema by
hand, or check the chips (``audit``: the ledger's invariants, then the house accounts' balances
and flows; exit status 1 when an invariant is broken).

The URL defaults to the DATABASE_URL environment variable, else the bot's default SQLite file.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

from storage import migrate
from storage.db import create_engine

DEFAULT_URL = "sqlite+aiosqlite:///data/bot.db"


async def audit(url: str) -> tuple[bool, str]:
    """The chip audit of the database at ``url``: whether it is sound, and the lines to print
    (each broken invariant, then each house account's balance and flows)."""
    from storage.store import Store

    store = await Store.open(url, migrate=False)
    try:
        problems = await store.audit()
        lines = problems or ["chips sound: every balance matches the ledger and all add up to 0"]
        for flows in await store.house_report():
            lines += flows.lines()
        return not problems, "\n".join(lines)
    finally:
        await store.close()


async def run(command: str, url: str, revision: str | None) -> str:
    """Carry out ``command`` on the database at ``url``; returns a line to print."""
    engine = create_engine(url)
    try:
        if command == "upgrade":
            await migrate.upgrade(engine, revision or "head")
        elif command == "downgrade":
            if not revision:
                raise SystemExit("downgrade needs a revision (e.g. base)")
            await migrate.downgrade(engine, revision)
        current = await migrate.current_revision(engine)
        return f"database at revision {current or 'none'} (newest: {migrate.head_revision()})"
    finally:
        await engine.dispose()


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run it."""
    parser = argparse.ArgumentParser(prog="python -m storage", description=__doc__)
    parser.add_argument("command", choices=["upgrade", "downgrade", "current", "audit"])
    parser.add_argument("revision", nargs="?")
    parser.add_argument("--url", default=os.environ.get("DATABASE_URL") or DEFAULT_URL)
    args = parser.parse_args(argv)
    if args.command == "audit":
        sound, text = asyncio.run(audit(args.url))
        print(text)
        return 0 if sound else 1
    print(asyncio.run(run(args.command, args.url, args.revision)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
