"""Settings validation: good values load, bad ones stop start-up with one line naming the setting."""

import pytest

from bot.settings import DEFAULT_DATABASE_URL, SettingsError, load_settings


@pytest.fixture(autouse=True)
def clean_env(monkeypatch, tmp_path):
    for name in (
        "DISCORD_TOKEN",
        "TELEGRAM_TOKEN",
        "TELEGRAM_API_BASE_URL",
        "DATABASE_URL",
        "DEFAULT_LOCALE",
        "LOG_LEVEL",
        "MODERATOR_ROLE",
        "PICTURES",
        "TURN_SECONDS",
        "IDLE_CLOSE_SECONDS",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no stray .env


def test_defaults():
    settings = load_settings()
    assert settings.database_url == DEFAULT_DATABASE_URL
    assert settings.default_locale == "tr"
    assert settings.log_level == "INFO"
    assert settings.discord_token is None and settings.telegram_token is None
    assert settings.pictures is True


def test_environment_and_dotenv(monkeypatch, tmp_path):
    (tmp_path / ".env").write_text("TELEGRAM_TOKEN=123:abc\nDEFAULT_LOCALE=EN\n")
    monkeypatch.setenv("LOG_LEVEL", "debug")
    settings = load_settings()
    assert settings.telegram_token is not None
    assert settings.telegram_token.get_secret_value() == "123:abc"
    assert settings.default_locale == "en"
    assert settings.log_level == "DEBUG"


def test_token_is_not_shown_in_repr(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "very-secret-token")
    assert "very-secret-token" not in repr(load_settings())


def test_blank_token_means_unset(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "  ")
    assert load_settings().discord_token is None


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DEFAULT_LOCALE", "de"),
        ("LOG_LEVEL", "LOUD"),
        ("DATABASE_URL", "mysql://localhost/db"),
        ("TELEGRAM_API_BASE_URL", "ftp://example"),
        ("DISCORD_GUILD_ID", "not-a-number"),
        ("PICTURES", "sometimes"),
        ("TURN_SECONDS", "4"),
        ("IDLE_CLOSE_SECONDS", "0"),
    ],
)
def test_bad_value_names_the_setting(monkeypatch, name, value):
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as info:
        load_settings()
    message = str(info.value)
    assert message.startswith(f"setting {name}:")
    assert "\n" not in message


def test_postgres_url_accepted(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgresql+asyncpg://bot:pw@localhost/bot")
    assert load_settings().database_url.startswith("postgresql+asyncpg://")


@pytest.mark.parametrize(("value", "expected"), [("false", False), ("0", False), ("TRUE", True)])
def test_pictures_switch(monkeypatch, value, expected):
    monkeypatch.setenv("PICTURES", value)
    assert load_settings().pictures is expected


def test_time_limits(monkeypatch):
    settings = load_settings()
    assert (settings.turn_seconds, settings.idle_close_seconds) == (60, 900)
    monkeypatch.setenv("TURN_SECONDS", "5")
    monkeypatch.setenv("IDLE_CLOSE_SECONDS", "120")
    settings = load_settings()
    assert (settings.turn_seconds, settings.idle_close_seconds) == (5, 120)
