"""A scratch PostgreSQL database for the benchmarks: BENCH_DATABASE_URL, or the CI throwaway cluster.

Without BENCH_DATABASE_URL, ``bash .ci/postgres.sh`` starts (or reuses) the same throwaway cluster
`.ci/run` uses for the tests (127.0.0.1:54329, fsync off) and a fresh database of the given name is
created on it, next to the tests' own. Either way the database's tables get dropped by the
benchmarks: never point BENCH_DATABASE_URL at a deployment.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

ROOT = Path(__file__).resolve().parents[1]
ENV = "BENCH_DATABASE_URL"


async def scratch_database(name: str) -> tuple[str | None, str]:
    """(URL of an empty scratch database, where it came from), or (None, why there is none)."""
    url = os.environ.get(ENV)
    if url:
        return url, f"{ENV}"
    try:
        started = subprocess.run(
            ["bash", str(ROOT / ".ci" / "postgres.sh")],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"cannot start the throwaway PostgreSQL: {exc}"
    lines = started.stdout.strip().splitlines()
    if started.returncode != 0 or not lines:
        why = (started.stderr.strip().splitlines() or ["no reason given"])[0]
        return None, f"the throwaway PostgreSQL did not start ({why}); or set {ENV}"
    url = await fresh_database(lines[-1], name)
    return url, "the throwaway cluster of .ci/postgres.sh (fsync=off)"


async def fresh_database(server: str, name: str) -> str:
    """The URL of database `name` on the server of URL `server`, dropped and created empty."""
    engine = create_async_engine(server, isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as conn:
            await conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            await conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    finally:
        await engine.dispose()
    return make_url(server).set(database=name).render_as_string(hide_password=False)
