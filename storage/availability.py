"""Whether a database that could not be opened is away (try again later) or wrong (raise),
and where it is, for a log line that names no user or password."""

from __future__ import annotations

from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from storage.errors import Unavailable

# PostgreSQL's SQLSTATE classes of a server that is not there yet or cannot take us now:
# 08 connection exception, 53 insufficient resources (too many connections), 57 operator
# intervention (57P03: "the database system is starting up").
AWAY_CLASSES = ("08", "53", "57")


def database_target(url: str) -> str:
    """Where the database is, for a log line: `host:port/name` of a server, the path of a SQLite
    file; never the user name or the password."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        return parsed.database or ":memory:"
    port = f":{parsed.port}" if parsed.port else ""
    return f"{parsed.host or 'localhost'}{port}/{parsed.database or ''}"


def database_away(error: BaseException) -> bool:
    """Whether an error opening the store means the database is not there (yet): try again.
    Anything else (a bad URL, a failing migration) is raised."""
    if isinstance(error, Unavailable):
        return True
    if isinstance(error, DBAPIError):
        state = getattr(error.orig, "sqlstate", None) or getattr(error.orig, "pgcode", None)
        return isinstance(state, str) and state.startswith(AWAY_CLASSES)
    return False
