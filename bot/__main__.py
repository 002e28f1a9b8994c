"""Start the bot: Discord and/or Telegram when their tokens are set, else the console table."""

from __future__ import annotations

import argparse
import logging
import sys

from bot.logs import kv, setup_logging
from bot.settings import SettingsError, load_settings

log = logging.getLogger("bot")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options of `python -m bot`."""
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    parser.add_argument("--console", action="store_true", help="run the local console table")
    parser.add_argument("--seed", help="hex seed for repeatable console games")
    parser.add_argument("--pictures", action="store_true", help="write pictures to files")
    return parser.parse_args(argv)


def choose_platforms(has_discord: bool, has_telegram: bool, force_console: bool) -> list[str]:
    """Which front ends to start for the configured tokens."""
    if force_console:
        return ["console"]
    platforms = [name for name, on in (("discord", has_discord), ("telegram", has_telegram)) if on]
    return platforms or ["console"]


def main(argv: list[str] | None = None) -> int:
    """Run the bot until it is stopped; returns the process exit code."""
    args = parse_args(argv)
    try:
        settings = load_settings()
    except SettingsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    setup_logging(settings.log_level)
    platforms = choose_platforms(
        settings.discord_token is not None, settings.telegram_token is not None, args.console
    )
    log.info(kv(event="start", platforms=",".join(platforms)))
    if platforms == ["console"]:
        from bot.adapters import console
        from bot.core.app import Core

        console.main(Core(settings.default_locale).handle, settings.default_locale)
        return 0
    for name in platforms:
        print(f"The {name} adapter is not built yet; use --console meanwhile.", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
