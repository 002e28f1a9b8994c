"""Bot configuration read from the environment and `.env` (pydantic-settings)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///data/bot.db"
SUPPORTED_DATABASE_PREFIXES = ("sqlite+aiosqlite://", "postgresql+asyncpg://")


class SettingsError(Exception):
    """A setting has a bad value; the message is one line naming the setting."""


class Settings(BaseSettings):
    """Every setting the bot reads; names match the environment variables."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", case_sensitive=False
    )

    discord_token: SecretStr | None = None
    discord_guild_id: int | None = Field(default=None, gt=0)
    discord_shards: int | None = Field(default=None, ge=1)
    telegram_token: SecretStr | None = None
    telegram_api_base_url: str | None = None
    telegram_webhook_url: str | None = None
    telegram_webhook_port: int = Field(default=8443, ge=1, le=65535)
    database_url: str = DEFAULT_DATABASE_URL
    default_locale: Literal["tr", "en"] = "tr"
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "INFO"
    moderator_role: str | None = None
    pictures: bool = True  # attach card, rack and table pictures in the chat platforms
    turn_seconds: float = Field(default=60.0, ge=5)  # a player to act longer is timed out
    idle_close_seconds: float = Field(default=900.0, gt=0)  # a table nobody starts closes

    @field_validator("discord_token", "telegram_token", mode="before")
    @classmethod
    def _blank_token_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator(
        "telegram_api_base_url", "telegram_webhook_url", "moderator_role", mode="before"
    )
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("telegram_api_base_url", "telegram_webhook_url")
    @classmethod
    def _must_be_http_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("http://", "https://")):
            raise ValueError("must start with http:// or https://")
        return value

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
    except ValidationError as exc:
        first = exc.errors()[0]
        name = str(first["loc"][0]).upper() if first.get("loc") else "settings"
        reason = first.get("msg", "invalid value").removeprefix("Value error, ")
        raise SettingsError(f"setting {name}: {reason}") from None
