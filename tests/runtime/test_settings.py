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
        "SEED_REVEAL_HOURS",
        "DISCORD_SHARDS",
        "DISCORD_SHARD_COUNT",
        "DISCORD_SHARD_IDS",
        "TELEGRAM_WEBHOOK_URL",
        "TELEGRAM_WEBHOOK_SECRET",
        "TELEGRAM_SET_WEBHOOK",
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
        ("SEED_REVEAL_HOURS", "-1"),
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


def test_seed_reveal_hours_reach_the_core(monkeypatch):
    from bot.adapters.runtime import core_config

    assert load_settings().seed_reveal_hours == 24
    monkeypatch.setenv("SEED_REVEAL_HOURS", "0.5")
    assert core_config(load_settings(), "telegram").seed_reveal_hours == 0.5


# ---- several processes ------------------------------------------------------------------------


def test_one_process_runs_some_shards(monkeypatch):
    monkeypatch.setenv("DISCORD_SHARD_COUNT", "4")
    monkeypatch.setenv("DISCORD_SHARD_IDS", " 3, 1")
    settings = load_settings()
    assert settings.discord_shard_count == 4
    assert settings.discord_shard_ids == (1, 3)


def test_shard_count_alone_runs_every_shard(monkeypatch):
    monkeypatch.setenv("DISCORD_SHARD_COUNT", "2")
    settings = load_settings()
    assert settings.discord_shard_count == 2 and settings.discord_shard_ids is None


def test_the_old_shards_setting_is_the_shard_count(monkeypatch):
    monkeypatch.setenv("DISCORD_SHARDS", "3")
    settings = load_settings()
    assert settings.discord_shard_count == 3 and settings.discord_shards_deprecated
    monkeypatch.delenv("DISCORD_SHARDS")
    assert not load_settings(discord_shard_count=3).discord_shards_deprecated


@pytest.mark.parametrize(
    ("env", "name", "says"),
    [
        ({"DISCORD_SHARD_IDS": "0,1"}, "DISCORD_SHARD_IDS", "needs DISCORD_SHARD_COUNT"),
        ({"DISCORD_SHARD_IDS": "1,4", "DISCORD_SHARD_COUNT": "4"}, "DISCORD_SHARD_IDS", "0 to 3"),
        ({"DISCORD_SHARD_IDS": "1,1", "DISCORD_SHARD_COUNT": "4"}, "DISCORD_SHARD_IDS", "twice"),
        ({"DISCORD_SHARD_IDS": "-1", "DISCORD_SHARD_COUNT": "4"}, "DISCORD_SHARD_IDS", "at 0"),
        ({"DISCORD_SHARD_IDS": "one", "DISCORD_SHARD_COUNT": "4"}, "DISCORD_SHARD_IDS", "commas"),
        ({"DISCORD_SHARD_COUNT": "0"}, "DISCORD_SHARD_COUNT", "greater than or equal to 1"),
        ({"DISCORD_SHARDS": "2", "DISCORD_SHARD_COUNT": "4"}, "DISCORD_SHARDS", "old name"),
        ({"TELEGRAM_SET_WEBHOOK": "false"}, "TELEGRAM_SET_WEBHOOK", "TELEGRAM_WEBHOOK_URL"),
        ({"TELEGRAM_SET_WEBHOOK": "maybe"}, "TELEGRAM_SET_WEBHOOK", "boolean"),
        ({"TELEGRAM_WEBHOOK_SECRET": "has space"}, "TELEGRAM_WEBHOOK_SECRET", "A-Z"),
        ({"TELEGRAM_WEBHOOK_SECRET": "x" * 257}, "TELEGRAM_WEBHOOK_SECRET", "256"),
    ],
)
def test_settings_for_several_processes_are_checked(monkeypatch, env, name, says):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(SettingsError) as info:
        load_settings()
    message = str(info.value)
    assert message.startswith(f"setting {name}:") and says in message
    assert "\n" not in message


def test_a_listening_process_leaves_the_webhook_to_another(monkeypatch):
    monkeypatch.setenv("TELEGRAM_WEBHOOK_URL", "https://bot.example.org/telegram")
    monkeypatch.setenv("TELEGRAM_SET_WEBHOOK", "false")
    monkeypatch.setenv("TELEGRAM_WEBHOOK_SECRET", "same-in-every_process-42")
    settings = load_settings()
    assert settings.telegram_set_webhook is False
    assert settings.telegram_webhook_secret.get_secret_value() == "same-in-every_process-42"
    assert "same-in-every_process-42" not in repr(settings)


def test_webhook_defaults(monkeypatch):
    monkeypatch.setenv("TELEGRAM_WEBHOOK_SECRET", " ")
    settings = load_settings()
    assert settings.telegram_set_webhook is True
    assert settings.telegram_webhook_secret is None  # derived from the token
    assert settings.telegram_webhook_listen == "0.0.0.0"
