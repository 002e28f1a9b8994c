"""Every command a text names exists on the platform the text is sent on.

The core's catalogue (bot/core/locales) goes to every platform, in both languages, so each
`/command sub` it names must be a Discord slash command (by its English or its Turkish name, as a
Discord client shows one or the other) and a command the core's router takes (what Telegram and
the console send). Each adapter's own texts only need to hold on that adapter's platform.
"""

from __future__ import annotations

import asyncio
import json
import re
import string
from pathlib import Path

import discord
import pytest
from discord import app_commands

from bot.adapters.discord import texts as discord_texts
from bot.adapters.discord.commands import Translator, install_commands
from bot.adapters.telegram import texts as telegram_texts
from bot.adapters.telegram.parsing import parse_command
from bot.core.commands import SUBCOMMANDS, route

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ("en", "tr")

# `/poker open|join|leave` names three commands; `/okey take stock|discard` one with arguments.
WORD = r"[^\s/`'\"“”«»()\[\]<>,.;:!?|·—]+"
COMMAND = re.compile(
    rf"(?<![\w/}}])/((?![\d_]){WORD}|\{{\w+\}})((?: (?:{WORD}|\{{\w+\}})(?:\|{WORD})*)?)"
)

# Texts that stand for a command instead of naming one (`/command` in "type `name: /command`").
META_WORDS = {"command", "komut"}
# Keys whose `{command}` placeholder is filled with the word of these actions (`word.<action>`).
COMMAND_PLACEHOLDER = {"err.tile_usage": ("discard", "finish")}
# Keys that echo back what the user typed (`Unknown command: /{name}`).
ECHOES = {"err.unknown_command"}


class NoRunner:
    """The Discord tree needs a runner; these tests only read the tree's names."""

    async def run_command(self, interaction, name: str, args: tuple[str, ...]) -> None:
        raise AssertionError("not called")

    async def rack_choices(self, interaction, current: str):
        raise AssertionError("not called")

    async def command_failed(self, interaction, error: Exception) -> None:
        raise AssertionError("not called")


def catalogue(locale: str) -> dict[str, str]:
    path = ROOT / "bot/core/locales" / f"{locale}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def named_commands(key: str, text: str, locale: str) -> list[tuple[str, ...]]:
    """The commands a text names, each as its words: ("poker", "leave"), ("help",)."""
    found: list[tuple[str, ...]] = []
    for top, rest in COMMAND.findall(text):
        if top.lower() in META_WORDS or (top.startswith("{") and key in ECHOES):
            continue
        assert not top.startswith("{"), f"{key}: a command name from a placeholder: /{top}"
        subs = rest.split()[0].split("|") if rest.strip() else []
        if route(top, ()).group not in SUBCOMMANDS or not subs:
            found.append((top,))
            continue
        for sub in subs:
            if sub.startswith("{"):
                actions = COMMAND_PLACEHOLDER.get(key)
                assert actions, f"{key}: /{top} {sub}: say in COMMAND_PLACEHOLDER what fills it"
                words = catalogue(locale)
                found += [(top, words[f"word.{a}"]) for a in actions]
            else:
                found.append((top, sub))
    return found


def test_the_extraction_finds_what_a_reader_sees():
    help_en = "Type /help. /poker open|join · /okey take stock|discard, /balance."
    assert named_commands("k", help_en, "en") == [
        ("help",),
        ("poker", "open"),
        ("poker", "join"),
        ("okey", "take"),
        ("balance",),
    ]
    assert named_commands("k", "(/doğrula 12-3 ile kontrol et)", "tr") == [("doğrula",)]
    assert named_commands("k", "yaz `ayse: /komut`", "tr") == []
    assert named_commands("err.tile_usage", "/okey {command} <tile>", "en") == [
        ("okey", "discard"),
        ("okey", "finish"),
    ]
    assert named_commands("k", "cards 3/4, ({count}/4) and https://t.me/x", "en") == []
    assert named_commands("k", "/masa çıkar <oyuncu>", "tr") == [("masa", "çıkar")]


@pytest.fixture(scope="module")
def discord_commands() -> set[tuple[str, ...]]:
    """Every command path of the Discord tree as an English client and as a Turkish client
    shows it: {("poker", "leave"), ("poker", "ayrıl"), ("help",), ("yardım",), ...}."""
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    install_commands(tree, NoRunner())

    async def payloads() -> list[dict]:
        translator = Translator()
        return [await c.get_translated_payload(tree, translator) for c in tree.get_commands()]

    paths: set[tuple[str, ...]] = set()
    for payload in asyncio.run(payloads()):
        for lang in ("en", "tr"):
            top = payload["name"] if lang == "en" else payload["name_localizations"]["tr"]
            subs = [o for o in payload.get("options", []) if o["type"] == 1]
            if not subs:
                paths.add((top,))
            for sub in subs:
                name = sub["name"] if lang == "en" else sub["name_localizations"]["tr"]
                paths.add((top, name))
    return paths


def on_discord(command: tuple[str, ...], tree: set[tuple[str, ...]]) -> bool:
    return tuple(w.lower() for w in command) in tree


def routed(command: tuple[str, ...]) -> bool:
    """True when the core's router takes the command (what Telegram and the console send)."""
    top, *rest = command
    r = route(top, tuple(rest))
    return r.group is not None and (r.group not in SUBCOMMANDS or r.sub is not None)


def on_telegram(command: tuple[str, ...]) -> bool:
    """True when a Telegram message naming the command reaches the router as that command."""
    parsed = parse_command("/" + " ".join(command), "the_bot")
    return parsed is not None and routed((parsed[0], *parsed[1]))


def test_the_discord_tree_is_read_in_both_languages(discord_commands):
    assert ("poker", "leave") in discord_commands and ("poker", "ayrıl") in discord_commands
    assert ("table", "kick") in discord_commands and ("masa", "çıkar") in discord_commands
    assert ("yardım",) in discord_commands
    assert ("poker", "draw") not in discord_commands  # moves are buttons on Discord


@pytest.mark.parametrize("locale", LOCALES)
def test_catalogue_texts_name_only_commands_of_every_platform(locale, discord_commands):
    wrong: dict[str, list[str]] = {}
    for key, text in catalogue(locale).items():
        for command in named_commands(key, text, locale):
            places = [
                name
                for name, ok in (
                    ("discord", on_discord(command, discord_commands)),
                    ("telegram/console", routed(command) and on_telegram(command)),
                )
                if not ok
            ]
            if places:
                wrong.setdefault(key, []).append(f"/{' '.join(command)} not on {places}")
    assert wrong == {}


@pytest.mark.parametrize("locale", LOCALES)
def test_discord_texts_name_only_discord_commands(locale, discord_commands):
    wrong = {
        key: command
        for key, text in discord_texts.TEXTS[locale].items()
        for command in named_commands(key, text, locale)
        if not on_discord(command, discord_commands)
    }
    assert wrong == {}


@pytest.mark.parametrize("locale", LOCALES)
def test_telegram_texts_name_only_telegram_commands(locale):
    wrong = {
        key: command
        for key, text in telegram_texts.TEXTS[locale].items()
        for command in named_commands(key, text, locale)
        if not on_telegram(command)
    }
    assert wrong == {}


def test_the_telegram_menu_names_routed_commands():
    for name, turkish, english in telegram_texts.MENU:
        assert re.fullmatch(r"[a-z0-9_]{1,32}", name), name
        assert on_telegram((name,)), name
        assert turkish and english


def test_placeholder_fillers_exist_in_both_catalogues():
    for locale in LOCALES:
        words = catalogue(locale)
        for key, actions in COMMAND_PLACEHOLDER.items():
            fields = {f for _, f, _, _ in string.Formatter().parse(words[key]) if f}
            assert "command" in fields, key
            assert all(f"word.{a}" in words for a in actions), key
