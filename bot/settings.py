"""Bot configuration read from the environment and `.env` (pydantic-settings)."""

from __future__ import annotations

import re
from typing import Annotated, Literal, Self
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///data/bot.db"
SUPPORTED_DATABASE_PREFIXES = ("sqlite+aiosqlite://", "postgresql+asyncpg://")
# What Telegram accepts as a webhook's secret_token (setWebhook).
WEBHOOK_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")


class SettingsError(Exception):
    """A setting has a bad value; the message is one line naming the setting."""


class Settings(BaseSettings):
    """Every setting the bot reads; names match the environment variables."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", case_sensitive=False
    )

    discord_token: SecretStr | None = None
    discord_guild_id: int | None = Field(default=None, gt=0)
    discord_shards: int | None = Field(default=None, ge=1)  # deprecated: DISCORD_SHARD_COUNT
    discord_shard_count: int | None = Field(default=None, ge=1)
    # "0,1": this process runs only these shards (read as text, not JSON)
    discord_shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = None
    # the Discord Activity (bot/adapters/discord/activity.py): the app's OAuth2 client id and
    # secret; without both the table message has no "Open the table" button
    discord_client_id: int | None = Field(default=None, gt=0)
    discord_client_secret: SecretStr | None = None
    discord_api_base_url: str = "https://discord.com/api/v10"  # tests: a local fake
    telegram_token: SecretStr | None = None
    telegram_api_base_url: str | None = None
    telegram_webhook_url: str | None = None
    telegram_webhook_listen: str = "0.0.0.0"
    telegram_webhook_port: int = Field(default=8443, ge=1, le=65535)
    telegram_webhook_secret: SecretStr | None = None  # unset: derived from the token
    telegram_set_webhook: bool = True  # False: listen only; another process registers the URL
    database_url: str = DEFAULT_DATABASE_URL
    default_locale: Literal["tr", "en"] = "tr"
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "INFO"
    moderator_role: str | None = None
    pictures: bool = True  # attach card, rack and table pictures in the chat platforms
    turn_seconds: float = Field(default=60.0, ge=5)  # a player to act longer is timed out
    idle_close_seconds: float = Field(default=900.0, gt=0)  # a table nobody starts closes
    rematch_seconds: float = Field(default=600.0, gt=0)  # a stopped table's "Play again" stands
    # a table where only computer players moved for this many hands or rounds closes (0: off;
    # IDLE_CLOSE_SECONDS without a person acting closes it too)
    idle_close_hands: int = Field(default=3, ge=0)
    # what one community (server, group) may have at once; 0: no limit (bot.core.config)
    max_computers_per_table: int = Field(default=3, ge=0)
    max_computers_per_community: int = Field(default=12, ge=0)
    max_open_tables: int = Field(default=20, ge=0)
    max_running_tournaments: int = Field(default=2, ge=0)
    # a hand's whole seed (every card dealt) is shown this many hours after its table closed
    seed_reveal_hours: float = Field(default=24.0, ge=0)
    # closed tables' move logs and snapshots are pruned this many days on (0: kept forever);
    # results, the ledger and seeds stay (docs/storage.md, "Retention")
    retention_days: float = Field(default=365.0, ge=0)
    timezone: str = "Europe/Istanbul"  # the zone of a tournament's start time (`start=21:30`)
    # one member cannot flood a chat: per user and chat, a burst of commands then one per period;
    # 0 turns the budget off (bot.core.throttle)
    command_burst: int = Field(default=5, ge=0)
    command_refill_seconds: float = Field(default=2.0, gt=0)
    press_burst: int = Field(default=12, ge=0)
    press_refill_seconds: float = Field(default=0.25, gt=0)
    # the live web table (bot/adapters/web, docs/web.md)
    web_enabled: bool = True  # serve the web table beside the chat adapters
    web_port: int = Field(default=8080, ge=0, le=65535)
    web_listen: str = "127.0.0.1"  # loopback: a reverse proxy in front (docs/web.md)
    web_public_url: str | None = None  # https://... the players reach; None: loopback links
    web_secret: SecretStr | None = None  # unset: generated once and kept in the database
    telegram_webapp_name: str | None = None  # the Mini App's short name (BotFather /newapp)
    web_max_viewers_per_table: int = Field(default=100, ge=1)

    @field_validator(
        "discord_token", "telegram_token", "telegram_webhook_secret", "web_secret", mode="before"
    )
    @classmethod
    def _blank_token_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator(
        "telegram_api_base_url",
        "telegram_webhook_url",
        "moderator_role",
        "web_public_url",
        "telegram_webapp_name",
        mode="before",
    )
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError("must be an IANA time zone such as Europe/Istanbul") from None
        return value

    @field_validator("telegram_api_base_url", "telegram_webhook_url", "discord_api_base_url")
    @classmethod
    def _must_be_http_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("http://", "https://")):
            raise ValueError("must start with http:// or https://")
        return value

    @field_validator("web_public_url")
    @classmethod
    def _https_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith("https://"):
            raise ValueError("must start with https:// (Telegram opens Mini Apps only over https)")
        return None if value is None else value.rstrip("/")

    @field_validator("web_secret")
    @classmethod
    def _long_secret(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and len(value.get_secret_value()) < 16:
            raise ValueError("must be at least 16 characters (or unset: the bot makes one)")
        return value

    @field_validator("telegram_webapp_name")
    @classmethod
    def _app_name(cls, value: str | None) -> str | None:
        if value is not None and not re.fullmatch(r"[A-Za-z0-9_]{3,30}", value):
            raise ValueError("must be the Mini App's short name: 3-30 of A-Z, a-z, 0-9 and _")
        return value

    @field_validator("telegram_webhook_secret")
    @classmethod
    def _telegram_accepts_secret(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not WEBHOOK_SECRET.fullmatch(value.get_secret_value()):
            raise ValueError("must be 1 to 256 characters of A-Z, a-z, 0-9, _ and -")
        return value

    @field_validator("discord_shard_ids", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        if isinstance(value, int):
            return (value,)
        if not isinstance(value, str):
            return value
        if not value.strip():
            return None
        try:
            return tuple(int(part) for part in value.split(","))
        except ValueError:
            raise ValueError("must be shard numbers separated by commas, e.g. 0,1") from None

    @field_validator("discord_shard_ids")
    @classmethod
    def _distinct_shards(cls, value: tuple[int, ...] | None) -> tuple[int, ...] | None:
        if value is None:
            return None
        if any(shard < 0 for shard in value):
            raise ValueError("shard numbers start at 0")
        if len(set(value)) != len(value):
            raise ValueError("a shard is listed twice")
        return tuple(sorted(value))

    @field_validator("discord_shard_count", "discord_shards", "discord_client_id", mode="before")
    @classmethod
    def _blank_count_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("discord_client_secret", mode="before")
    @classmethod
    def _blank_secret_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        """Settings that only make sense together (each error names them)."""
        if self.discord_shards is not None:
            if self.discord_shard_count not in (None, self.discord_shards):
                raise SettingsError(
                    "setting DISCORD_SHARDS: the old name of DISCORD_SHARD_COUNT; set only that"
                )
            self.discord_shard_count = self.discord_shards
        if self.discord_shard_ids is not None:
            if self.discord_shard_count is None:
                raise SettingsError(
                    "setting DISCORD_SHARD_IDS: needs DISCORD_SHARD_COUNT (all processes' total)"
                )
            too_big = [i for i in self.discord_shard_ids if i >= self.discord_shard_count]
            if too_big:
                raise SettingsError(
                    f"setting DISCORD_SHARD_IDS: shard {too_big[0]} does not exist with "
                    f"DISCORD_SHARD_COUNT={self.discord_shard_count} (shards are 0 to "
                    f"{self.discord_shard_count - 1})"
                )
        if not self.telegram_set_webhook and not self.telegram_webhook_url:
            raise SettingsError(
                "setting TELEGRAM_SET_WEBHOOK: false needs TELEGRAM_WEBHOOK_URL (several "
                "processes share one webhook; long polling allows one process per token)"
            )
        return self

    @property
    def discord_activity(self) -> bool:
        """Whether the Discord Activity is on: DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET both
        set and the web table it shows enabled; the table message then offers "Open the table"."""
        return (
            self.discord_client_id is not None
            and self.discord_client_secret is not None
            and self.web_enabled
        )

    @property
    def discord_shards_deprecated(self) -> bool:
        """Whether the old DISCORD_SHARDS setting was used (start-up logs a warning)."""
        return self.discord_shards is not None

    @field_validator("database_url")
    @classmethod
    def _supported_database(cls, value: str) -> str:
        if not value.startswith(SUPPORTED_DATABASE_PREFIXES):
            raise ValueError("must start with " + " or ".join(SUPPORTED_DATABASE_PREFIXES))
        return value

    @field_validator("default_locale", mode="before")
    @classmethod
    def _lower_locale(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_level(cls, value: object) -> object:
        return value.strip().upper() if isinstance(value, str) else value


def load_settings(**overrides: object) -> Settings:
    """Read the settings; a bad value raises SettingsError with one line naming the setting."""
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except SettingsError:
        raise
    except ValidationError as exc:
        first = exc.errors()[0]
        name = str(first["loc"][0]).upper() if first.get("loc") else "settings"
        reason = first.get("msg", "invalid value").removeprefix("Value error, ")
        raise SettingsError(f"setting {name}: {reason}") from None
