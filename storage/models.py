"""The database tables, declared with SQLModel; Alembic migrations create exactly these."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB
from sqlmodel import Field, SQLModel

# BIGINT keys on PostgreSQL; SQLite only auto-increments a column declared INTEGER.
BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
Json = sa.JSON().with_variant(JSONB(), "postgresql")
Time = sa.DateTime(timezone=True)

metadata = SQLModel.metadata
metadata.naming_convention = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Player(SQLModel, table=True):
    """A chat user on one platform."""

    __tablename__ = "players"
    __table_args__ = (
        sa.UniqueConstraint("platform", "user_id"),
        # `/stats <name>`: a name looked up ignoring case (migration 0007)
        sa.Index("ix_players_platform_lower_name", "platform", sa.text("lower(name)")),
    )

    id: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, primary_key=True))
    platform: str = Field(sa_column=sa.Column(sa.String(32), nullable=False))
    user_id: str = Field(sa_column=sa.Column(sa.String(64), nullable=False))
    name: str = Field(sa_column=sa.Column(sa.String(100), nullable=False))
    locale: str | None = Field(default=None, sa_column=sa.Column(sa.String(16)))
    created_at: datetime = Field(sa_column=sa.Column(Time, nullable=False))
    # tiles drawn with a shape per colour as well (`/tiles symbols`); None: never chosen (colours)
    tile_symbols: bool | None = Field(default=None, sa_column=sa.Column(sa.Boolean))


class GameTable(SQLModel, table=True):
    """A table in a channel with the latest engine snapshot and its version."""

    __tablename__ = "tables"
    __table_args__ = (
        sa.CheckConstraint("status IN ('open', 'closed')", name="status"),
        # At most one open table per channel.
        sa.Index(
            "uq_tables_open_channel",
            "platform",
            "channel_id",
            unique=True,
            sqlite_where=sa.text("status = 'open'"),
            postgresql_where=sa.text("status = 'open'"),
        ),
        sa.Index("ix_tables_status", "status"),
        sa.Index("ix_tables_deadline", "deadline"),
        # retention finds the closed tables it is due for (migration 0007)
        sa.Index("ix_tables_status_updated_at", "status", "updated_at"),
    )

    id: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, primary_key=True))
    platform: str = Field(sa_column=sa.Column(sa.String(32), nullable=False))
    channel_id: str = Field(sa_column=sa.Column(sa.String(64), nullable=False))
    game: str = Field(sa_column=sa.Column(sa.String(32), nullable=False))
    options: dict[str, Any] = Field(sa_column=sa.Column(Json, nullable=False))
    status: str = Field(sa_column=sa.Column(sa.String(8), nullable=False))
    snapshot: dict[str, Any] = Field(sa_column=sa.Column(Json, nullable=False))
    version: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    last_seq: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    created_at: datetime = Field(sa_column=sa.Column(Time, nullable=False))
    updated_at: datetime = Field(sa_column=sa.Column(Time, nullable=False))
    # when the table next needs the timer (a turn time-out, an idle close, a stalled computer
    # move); every commit writes it, processes claim due tables by it (docs/storage.md)
    deadline: datetime | None = Field(default=None, sa_column=sa.Column(Time, nullable=True))
    # the community the table plays in (Discord guild, Telegram group chat, "console"); None for
    # tables of before migration 0004 and chats that belong to no community (docs/storage.md)
    community: str | None = Field(default=None, sa_column=sa.Column(sa.String(64)))
    # the tournament this table plays a match of (migration 0006), None for an ordinary table:
    # the tournament finds its tables by it after a restart (docs/tournaments.md)
    tournament_id: int | None = Field(
        default=None,
        sa_column=sa.Column(sa.Integer, index=True),  # no foreign key: see migration 0006
    )
    # when retention removed this closed table's action log and snapshot (migration 0007)
    pruned_at: datetime | None = Field(default=None, sa_column=sa.Column(Time, nullable=True))


class Tournament(SQLModel, table=True):
    """A tournament in a channel: its state machine's snapshot and version (compare-and-set
    like a table's); its entry fees are held by the ledger account ``tournament:<id>``."""

    __tablename__ = "tournaments"
    __table_args__ = (
        sa.CheckConstraint(
            "status IN ('registering', 'running', 'finished', 'cancelled')", name="status"
        ),
        sa.CheckConstraint("kind IN ('okey', 'turkish', 'acik')", name="kind"),
        sa.Index("ix_tournaments_status", "status"),
        sa.Index("ix_tournaments_platform_channel_id", "platform", "channel_id"),
    )

    id: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, primary_key=True))
    platform: str = Field(sa_column=sa.Column(sa.String(32), nullable=False))
    channel_id: str = Field(sa_column=sa.Column(sa.String(64), nullable=False))
    community: str | None = Field(default=None, sa_column=sa.Column(sa.String(64)))
    kind: str = Field(sa_column=sa.Column(sa.String(16), nullable=False))
    status: str = Field(sa_column=sa.Column(sa.String(16), nullable=False))
    snapshot: dict[str, Any] = Field(sa_column=sa.Column(Json, nullable=False))
    version: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    deadline: datetime | None = Field(default=None, sa_column=sa.Column(Time, nullable=True))
    created_at: datetime = Field(sa_column=sa.Column(Time, nullable=False))
    updated_at: datetime = Field(sa_column=sa.Column(Time, nullable=False))


class Season(SQLModel, table=True):
    """A community's current season (docs/seasons.md): its number, length (``length_days``
    None: calendar months), when it started and ends, and ``deadline``, the timer every process
    claims like a table's (a claim moves it a lease ahead; the end's transaction moves the
    number on by one from the number it read, so a season ends once)."""

    __tablename__ = "seasons"
    __table_args__ = (sa.Index("ix_seasons_deadline", "deadline"),)

    platform: str = Field(sa_column=sa.Column(sa.String(32), primary_key=True))
    community: str = Field(sa_column=sa.Column(sa.String(64), primary_key=True))
    number: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    length_days: int | None = Field(default=None, sa_column=sa.Column(sa.Integer))
    started_at: datetime = Field(sa_column=sa.Column(Time, nullable=False))
    ends_at: datetime = Field(sa_column=sa.Column(Time, nullable=False))
    deadline: datetime = Field(sa_column=sa.Column(Time, nullable=False))
    # where the end is announced: the channel a moderator set the length in, else the channel
    # of the community's table that enrolled it
    channel_id: str | None = Field(default=None, sa_column=sa.Column(sa.String(64)))
    locale: str | None = Field(default=None, sa_column=sa.Column(sa.String(8)))


class SeasonStanding(SQLModel, table=True):
    """One place of a finished season's final standings in one game: the player, the rating
    shown then (conservative) and their rated games."""

    __tablename__ = "season_standings"

    platform: str = Field(sa_column=sa.Column(sa.String(32), primary_key=True))
    community: str = Field(sa_column=sa.Column(sa.String(64), primary_key=True))
    season: int = Field(sa_column=sa.Column(sa.Integer, primary_key=True, autoincrement=False))
    game: str = Field(sa_column=sa.Column(sa.String(16), primary_key=True))
    rank: int = Field(sa_column=sa.Column(sa.Integer, primary_key=True, autoincrement=False))
    # no foreign key: the rows are copied from `ratings`, whose player_id has one, and a
    # season's end writes 10,000s of them at once (the check doubled its time on PostgreSQL)
    player_id: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    rating: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    games: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))


class Wallet(SQLModel, table=True):
    """The cached balance of one ledger account (player wallet, table escrow or the house)."""

    __tablename__ = "wallets"

    account: str = Field(sa_column=sa.Column(sa.String(40), primary_key=True))
    player_id: int | None = Field(
        default=None,
        sa_column=sa.Column(sa.Integer, sa.ForeignKey("players.id"), index=True, unique=True),
    )
    table_id: int | None = Field(
        default=None,
        sa_column=sa.Column(sa.Integer, sa.ForeignKey("tables.id"), index=True, unique=True),
    )
    balance: int = Field(sa_column=sa.Column(sa.BigInteger, nullable=False))
    updated_at: datetime = Field(sa_column=sa.Column(Time, nullable=False))


class LedgerEntry(SQLModel, table=True):
    """One chip transfer; rows are only ever appended."""

    __tablename__ = "ledger"
    __table_args__ = (sa.CheckConstraint("amount > 0", name="amount_positive"),)

    id: int | None = Field(default=None, sa_column=sa.Column(BigId, primary_key=True))
    src: str = Field(sa_column=sa.Column(sa.String(40), nullable=False, index=True))
    dst: str = Field(sa_column=sa.Column(sa.String(40), nullable=False, index=True))
    amount: int = Field(sa_column=sa.Column(sa.BigInteger, nullable=False))
    reason: str = Field(sa_column=sa.Column(sa.String(200), nullable=False))
    idempotency_key: str | None = Field(default=None, sa_column=sa.Column(sa.String(200)))
    created_at: datetime = Field(sa_column=sa.Column(Time, nullable=False))


class AppliedKey(SQLModel, table=True):
    """An idempotency key already applied, with the result it produced (a table version)."""

    __tablename__ = "applied_keys"

    key: str = Field(sa_column=sa.Column(sa.String(200), primary_key=True))
    result: int | None = Field(default=None, sa_column=sa.Column(sa.Integer))
    created_at: datetime = Field(sa_column=sa.Column(Time, nullable=False))


class ActionLog(SQLModel, table=True):
    """Every accepted action of a table, numbered from 1."""

    __tablename__ = "action_log"
    __table_args__ = (sa.UniqueConstraint("table_id", "seq"),)

    id: int | None = Field(default=None, sa_column=sa.Column(BigId, primary_key=True))
    table_id: int = Field(
        sa_column=sa.Column(sa.Integer, sa.ForeignKey("tables.id"), nullable=False)
    )
    seq: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    seat: int | None = Field(default=None, sa_column=sa.Column(sa.Integer))
    player_id: int | None = Field(
        default=None, sa_column=sa.Column(sa.Integer, sa.ForeignKey("players.id"))
    )
    action: dict[str, Any] = Field(sa_column=sa.Column(Json, nullable=False))
    at: datetime = Field(sa_column=sa.Column(Time, nullable=False))


class GameResultRow(SQLModel, table=True):
    """A player's chip result of one hand or match, in the community of its table."""

    __tablename__ = "game_results"
    __table_args__ = (
        # a player's history and statistics, newest first, over all games or one
        sa.Index("ix_game_results_player_id_at", "player_id", "at"),
        sa.Index("ix_game_results_player_id_game_at", "player_id", "game", "at"),
        # the chips board of a community: who played here (the wins boards read win_tallies)
        sa.Index("ix_game_results_community_player_id", "community", "player_id"),
    )

    id: int | None = Field(default=None, sa_column=sa.Column(BigId, primary_key=True))
    table_id: int = Field(
        sa_column=sa.Column(sa.Integer, sa.ForeignKey("tables.id"), nullable=False)
    )
    player_id: int = Field(
        sa_column=sa.Column(sa.Integer, sa.ForeignKey("players.id"), nullable=False)
    )
    game: str = Field(sa_column=sa.Column(sa.String(32), nullable=False))
    chips_delta: int = Field(sa_column=sa.Column(sa.BigInteger, nullable=False))
    hand_id: str | None = Field(default=None, sa_column=sa.Column(sa.String(64)))
    detail: dict[str, Any] = Field(sa_column=sa.Column(Json, nullable=False))
    at: datetime = Field(sa_column=sa.Column(Time, nullable=False))
    community: str | None = Field(default=None, sa_column=sa.Column(sa.String(64)))


NO_COMMUNITY = ""  # the tallies' community of results without one (a key column cannot be null)


class WinTally(SQLModel, table=True):
    """How many of a player's results in one community won chips (``chips_delta > 0``).

    Kept by ``Store.commit`` in the transaction that writes the results, so the wins boards read
    one row per player and community instead of counting results (docs/storage.md).
    """

    __tablename__ = "win_tallies"
    __table_args__ = (sa.Index("ix_win_tallies_community_wins", "community", "wins"),)

    player_id: int = Field(
        sa_column=sa.Column(
            sa.Integer, sa.ForeignKey("players.id"), primary_key=True, autoincrement=False
        )
    )
    community: str = Field(sa_column=sa.Column(sa.String(64), primary_key=True))
    wins: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))


class Okey101Tally(SQLModel, table=True):
    """A player's 101 Okey rounds in one community: how many, and their scores added up.

    Kept by ``Store.commit`` with the round results, so the 101 board (average score per round)
    reads one row per player and community instead of the rounds (docs/storage.md).
    """

    __tablename__ = "okey101_tallies"
    # the 101 board of a community reads its players' rows from this index alone
    __table_args__ = (
        sa.Index("ix_okey101_tallies_community_rounds", "community", "rounds", "penalty"),
    )

    player_id: int = Field(
        sa_column=sa.Column(
            sa.Integer, sa.ForeignKey("players.id"), primary_key=True, autoincrement=False
        )
    )
    community: str = Field(sa_column=sa.Column(sa.String(64), primary_key=True))
    rounds: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    penalty: int = Field(sa_column=sa.Column(sa.BigInteger, nullable=False))


ALL_COMMUNITIES = "*"  # the ratings' community of a player's global rating in a game


class Rating(SQLModel, table=True):
    """A player's skill rating in one game (openskill Weng-Lin Plackett-Luce: ``mu``, ``sigma``)
    in one community, or over every community (``community`` = ``ALL_COMMUNITIES``).

    Kept by ``Store.commit`` in the transaction that writes the rated results (storage/ratings.py,
    docs/ratings.md). ``conservative`` is ``mu - 3 * sigma``, stored so that the rating board
    reads it in order from ``ix_ratings_game_community_conservative``.
    """

    __tablename__ = "ratings"
    __table_args__ = (
        # the board, best first (ties: the higher player id), read backwards along the index
        sa.Index(
            "ix_ratings_game_community_conservative",
            "game",
            "community",
            "conservative",
            "player_id",
        ),
    )

    player_id: int = Field(
        sa_column=sa.Column(
            sa.Integer, sa.ForeignKey("players.id"), primary_key=True, autoincrement=False
        )
    )
    game: str = Field(sa_column=sa.Column(sa.String(32), primary_key=True))
    community: str = Field(sa_column=sa.Column(sa.String(64), primary_key=True))
    mu: float = Field(sa_column=sa.Column(sa.Float, nullable=False))
    sigma: float = Field(sa_column=sa.Column(sa.Float, nullable=False))
    conservative: float = Field(sa_column=sa.Column(sa.Float, nullable=False))
    games: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    updated_at: datetime = Field(sa_column=sa.Column(Time, nullable=False))


class RatingOpponent(SQLModel, table=True):
    """One of the first distinct people a player met in a game's results (at most
    ``storage.ratings.MIN_OPPONENTS`` rows per player and game): the alt-account rule reads how
    many there are (docs/ratings.md, "Abuse")."""

    __tablename__ = "rating_opponents"

    player_id: int = Field(
        sa_column=sa.Column(
            sa.Integer, sa.ForeignKey("players.id"), primary_key=True, autoincrement=False
        )
    )
    game: str = Field(sa_column=sa.Column(sa.String(32), primary_key=True))
    opponent_id: int = Field(
        sa_column=sa.Column(
            sa.Integer, sa.ForeignKey("players.id"), primary_key=True, autoincrement=False
        )
    )


class OkeyPenalty(SQLModel, table=True):
    """A player's Okey penalty total in one match."""

    __tablename__ = "okey_penalties"
    __table_args__ = (
        sa.UniqueConstraint("player_id", "match_id"),
        # the Okey boards sum the points from an index alone (a community's, or everyone's)
        sa.Index("ix_okey_penalties_community_player_id", "community", "player_id", "points"),
        sa.Index("ix_okey_penalties_player_id_points", "player_id", "points"),
    )

    id: int | None = Field(default=None, sa_column=sa.Column(sa.Integer, primary_key=True))
    player_id: int = Field(
        sa_column=sa.Column(sa.Integer, sa.ForeignKey("players.id"), nullable=False)
    )
    match_id: str = Field(sa_column=sa.Column(sa.String(64), nullable=False))
    table_id: int = Field(
        sa_column=sa.Column(sa.Integer, sa.ForeignKey("tables.id"), nullable=False)
    )
    points: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    updated_at: datetime = Field(sa_column=sa.Column(Time, nullable=False))
    community: str | None = Field(default=None, sa_column=sa.Column(sa.String(64)))


class HandSeed(SQLModel, table=True):
    """The fair-shuffle commitment of a hand: its hash at once, the seed when the hand ends."""

    __tablename__ = "hand_seeds"

    hand_id: str = Field(sa_column=sa.Column(sa.String(64), primary_key=True))
    table_id: int = Field(
        sa_column=sa.Column(sa.Integer, sa.ForeignKey("tables.id"), nullable=False, index=True)
    )
    seed_hash: str = Field(sa_column=sa.Column(sa.String(64), nullable=False))
    seed_hex: str | None = Field(default=None, sa_column=sa.Column(sa.String(256)))
    created_at: datetime = Field(sa_column=sa.Column(Time, nullable=False))
    revealed_at: datetime | None = Field(default=None, sa_column=sa.Column(Time))
    # the action log entry (seq) that dealt the hand; None for hands of before migration 0007
    deal_seq: int | None = Field(default=None, sa_column=sa.Column(sa.Integer))


class TableMessageRow(SQLModel, table=True):
    """The living message that shows a table on a chat platform, shared by every process: its
    chat and message ids and the table version it showed when posted (docs/storage.md)."""

    __tablename__ = "table_messages"

    platform: str = Field(sa_column=sa.Column(sa.String(32), primary_key=True))
    table_id: str = Field(sa_column=sa.Column(sa.String(64), primary_key=True))
    chat_id: str = Field(sa_column=sa.Column(sa.String(64), nullable=False))
    message_id: str = Field(sa_column=sa.Column(sa.String(64), nullable=False))
    version: int = Field(sa_column=sa.Column(sa.Integer, nullable=False))
    picture: bool = Field(sa_column=sa.Column(sa.Boolean, nullable=False))
    updated_at: datetime = Field(sa_column=sa.Column(Time, nullable=False))


class WebSecret(SQLModel, table=True):
    """A secret the bot generated for itself and every process shares (the web table's signing
    key when `WEB_SECRET` is unset), by name."""

    __tablename__ = "web_secrets"

    name: str = Field(sa_column=sa.Column(sa.String(32), primary_key=True))
    value: str = Field(sa_column=sa.Column(sa.String(128), nullable=False))
    created_at: datetime = Field(sa_column=sa.Column(Time, nullable=False))


class RackLayout(SQLModel, table=True):
    """How an Okey player laid out their rack on the web table (30 slots, tiles or null), for
    one round (`hand_id`) of one table; a new round replaces it."""

    __tablename__ = "rack_layouts"

    table_id: int = Field(
        sa_column=sa.Column(sa.Integer, sa.ForeignKey("tables.id"), primary_key=True)
    )
    player_id: int = Field(
        sa_column=sa.Column(sa.Integer, sa.ForeignKey("players.id"), primary_key=True)
    )
    hand_id: str = Field(sa_column=sa.Column(sa.String(64), nullable=False))
    slots: list[Any] = Field(sa_column=sa.Column(Json, nullable=False))
    updated_at: datetime = Field(sa_column=sa.Column(Time, nullable=False))


class RoomChoice(SQLModel, table=True):
    """The shared room (a tournament table's `<channel>#<label>`) a user last opened the Discord
    Activity on in a channel, shared by every process until `expires_at` (docs/storage.md)."""

    __tablename__ = "room_choices"
    __table_args__ = (sa.Index("ix_room_choices_expires_at", "expires_at"),)

    platform: str = Field(sa_column=sa.Column(sa.String(32), primary_key=True))
    channel_id: str = Field(sa_column=sa.Column(sa.String(64), primary_key=True))
    user_id: str = Field(sa_column=sa.Column(sa.String(64), primary_key=True))
    room: str = Field(sa_column=sa.Column(sa.String(64), nullable=False))
    expires_at: datetime = Field(sa_column=sa.Column(Time, nullable=False))


def _table(model: type[SQLModel]) -> sa.Table:
    """The Core table SQLModel made for ``model`` (its ``__table__``, which the stubs omit)."""
    table: sa.Table = model.__table__  # type: ignore[attr-defined]
    return table


players = _table(Player)
tables = _table(GameTable)
wallets = _table(Wallet)
ledger = _table(LedgerEntry)
applied_keys = _table(AppliedKey)
action_log = _table(ActionLog)
game_results = _table(GameResultRow)
win_tallies = _table(WinTally)
okey101_tallies = _table(Okey101Tally)
ratings = _table(Rating)
rating_opponents = _table(RatingOpponent)
okey_penalties = _table(OkeyPenalty)
seasons = _table(Season)
season_standings = _table(SeasonStanding)
hand_seeds = _table(HandSeed)
table_messages = _table(TableMessageRow)
web_secrets = _table(WebSecret)
rack_layouts = _table(RackLayout)
room_choices = _table(RoomChoice)
tournaments = _table(Tournament)
