"""The history commands on every front, tested at the seam with the core: the words each front
hands to `core.handle` for `/history`, `/stats`, `/replay`, `/export` and `/leaderboard`, and an
`Outgoing` with an attachment (a hand's export) sent through each front's fakes: an ephemeral
file on Discord, `sendDocument` in the private chat on Telegram, a file in a folder on the
console. A private attachment never reaches a channel or group."""

from __future__ import annotations

import inspect
import io
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.adapters.console import Console, file_name
from bot.adapters.discord import DiscordAdapter
from bot.adapters.discord.commands import Translator, install_commands
from bot.adapters.discord.parts import Part, chunks, extra_kwargs
from bot.adapters.telegram.texts import MENU
from bot.core.messages import Command, Outgoing, OutKind
from testkit.fakes.discord_fakes import DiscordHarness, quick_boards
from testkit.fakes.telegram_harness import ScriptedCore, telegram_bot
from testkit.fakes.telegram_server import Upload

EXPORT = (
    "hand-12-3.jsonl",
    b'{"format": "turkish-table-history", "version": 1}\n{"event": "deal"}\n',
)
PNG = b"\x89PNG\r\n\x1a\n"
CHANNEL = 500_000_000_000_000_002
GROUP = -100500
AYSE, MEHMET = 201, 202
# The Turkish words of the spec for each command (the Discord name must be one of them).
SPEC_WORDS = {
    "history": {"geçmiş", "gecmis"},
    "stats": {"istatistik", "istatistikler"},
    "replay": {"tekrar", "izle"},
    "export": {"dışaaktar", "indir"},
}


def export_core() -> ScriptedCore:
    """A core that answers each history command privately; `/export` with the hand's file."""
    core = ScriptedCore()

    def private(text: str, attachment: tuple[str, bytes] | None = None):
        return lambda c: [Outgoing(OutKind.PRIVATE, text, user_id=c.user_id, attachment=attachment)]

    core.on_command["export"] = private("Hand 12-3: the history file", EXPORT)
    core.on_command["replay"] = private("Hand 12-3, step by step")
    core.on_command["history"] = private("Your last hands")
    return core


# ---- Discord: the command tree -------------------------------------------------------------
class Recorder:
    """Records the words each command hands to the adapter (and so to the core)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[str, ...]]] = []

    async def run_command(self, interaction: Any, name: str, args: tuple[str, ...]) -> None:
        self.calls.append((name, args))

    async def rack_choices(self, interaction: Any, current: str) -> list[Any]:
        return []

    async def command_failed(self, interaction: Any, error: Exception) -> None:
        self.calls.append(("error", (type(error).__name__,)))

    async def refuse(self, interaction: Any, key: str) -> None:
        self.calls.append(("refused", (key,)))


@pytest.fixture
def tree_and_runner():
    runner = Recorder()
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    install_commands(tree, runner)
    return tree, runner


async def payloads(tree: Any) -> dict[str, dict]:
    translator = Translator()
    return {c.name: await c.get_translated_payload(tree, translator) for c in tree.get_commands()}


async def call(tree: Any, name: str, **options: Any) -> None:
    command = tree.get_command(name)
    await command.callback(None, **options)


@pytest.mark.parametrize(
    ("name", "options", "expected"),
    [
        ("history", {}, ()),
        ("history", {"game": "okey"}, ("okey",)),
        ("stats", {}, ()),
        ("stats", {"game": "acik"}, ("acik",)),
        ("stats", {"player": SimpleNamespace(id=777), "game": "turkish"}, ("<@777>", "turkish")),
        ("replay", {"hand": " 12-3 "}, ("12-3",)),
        ("export", {"hand": "12-3"}, ("12-3",)),
        ("leaderboard", {}, ("chips",)),
        ("leaderboard", {"board": "wins"}, ("wins",)),
        ("leaderboard", {"board": "okey", "scope": "global"}, ("okey", "global")),
        ("leaderboard", {"scope": "community"}, ("chips",)),
    ],
)
async def test_discord_commands_hand_the_core_their_words(tree_and_runner, name, options, expected):
    tree, runner = tree_and_runner
    await call(tree, name, **options)
    assert runner.calls == [(name, expected)]


async def test_discord_history_commands_are_named_in_both_languages(tree_and_runner):
    tree, _ = tree_and_runner
    found = await payloads(tree)
    for name, turkish in SPEC_WORDS.items():
        payload = found[name]
        assert payload["name_localizations"]["tr"] in turkish, name
        assert payload["dm_permission"] is True  # asked anywhere, answered privately
    options = {o["name"]: o for o in found["leaderboard"]["options"]}
    assert [c["value"] for c in options["board"]["choices"]] == [
        "chips",
        "okey",
        "101",
        "wins",
        "rating",
    ]
    assert [c["value"] for c in options["scope"]["choices"]] == ["community", "global"]
    assert options["scope"]["name_localizations"]["tr"] == "kapsam"
    game = {o["name"]: o for o in found["history"]["options"]}["game"]
    assert [c["value"] for c in game["choices"]] == ["turkish", "acik", "okey", "101"]
    stats = {o["name"]: o for o in found["stats"]["options"]}
    assert stats["player"]["type"] == discord.AppCommandOptionType.user.value
    assert {o["name"]: o["required"] for o in found["export"]["options"]} == {"hand": True}


# ---- Discord: the adapter ------------------------------------------------------------------
def file_bytes(file: discord.File) -> bytes:
    return file.fp.getvalue()  # type: ignore[attr-defined]


def discord_harness(core: Any) -> DiscordHarness:
    return DiscordHarness(DiscordAdapter(core, default_locale="en", boards=quick_boards()))


async def test_discord_export_is_an_ephemeral_file_for_the_asker_only():
    core = export_core()
    harness = discord_harness(core)
    ayse = harness.user(AYSE, "Ayşe")
    await harness.slash(ayse, "export", CHANNEL, hand=" 12-3 ")
    [command] = core.commands
    assert (command.name, command.args, command.user_id) == ("export", ("12-3",), str(AYSE))
    [reply] = [d for d in harness.log.deliveries if d.files]
    assert (reply.audience, reply.target) == ("ephemeral", AYSE)
    assert reply.text == "Hand 12-3: the history file"
    [file] = reply.files
    assert (file.filename, file_bytes(file)) == EXPORT
    assert harness.log.channel_texts(CHANNEL) == []
    assert harness.unanswered() == []


async def test_discord_private_file_for_another_user_goes_by_dm_and_a_public_one_to_the_channel():
    harness = discord_harness(ScriptedCore())
    harness.user(MEHMET, "Mehmet")
    await harness.adapter.deliver(
        [
            Outgoing(OutKind.PRIVATE, "your export", user_id=str(MEHMET), attachment=EXPORT),
            Outgoing(OutKind.PUBLIC, "a public file", channel_id=str(CHANNEL), attachment=EXPORT),
        ]
    )
    await harness.settle()
    by_audience = {d.audience: d for d in harness.log.deliveries}
    dm, post = by_audience["dm"], by_audience["channel"]
    assert (dm.target, dm.text) == (MEHMET, "your export")
    assert (post.target, post.text) == (CHANNEL, "a public file")
    for delivery in (dm, post):
        [file] = delivery.files
        assert (file.filename, file_bytes(file)) == EXPORT


def test_discord_file_kwargs_fit_discord_py_and_keep_a_message_of_their_own():
    both = Part("replay", picture=PNG, attachment=EXPORT)
    sent = extra_kwargs(both)
    assert [f.filename for f in sent["files"]] == ["hand.png", EXPORT[0]]
    assert [file_bytes(f) for f in sent["files"]] == [PNG, EXPORT[1]]
    only = extra_kwargs(Part("export", attachment=EXPORT))
    assert only["file"].filename == EXPORT[0] and "files" not in only
    edited = extra_kwargs(Part("export", attachment=EXPORT), edit=True)
    assert [f.filename for f in edited["attachments"]] == [EXPORT[0]]
    for method, kwargs in (
        (discord.Webhook.send, sent),
        (discord.abc.Messageable.send, only),
        (discord.Interaction.edit_original_response, edited),
        (discord.Message.edit, edited),
    ):
        inspect.signature(method).bind(None, content="x", **kwargs)
    # A file is never merged into another text's message (it would move to other words).
    parts = chunks([Part("a"), Part("export", attachment=EXPORT), Part("b")])
    assert [p.text for p in parts] == ["a", "export", "b"]


# ---- Telegram ------------------------------------------------------------------------------
def documents(server: Any) -> list[Any]:
    return server.calls_to("sendDocument")


async def test_telegram_export_typed_in_a_group_is_a_document_in_the_private_chat():
    core = export_core()
    async with telegram_bot(core) as (server, bot):
        ayse = server.user(AYSE, "Ayşe", "en")
        server.started_users.add(AYSE)
        await bot.feed(server.message_update(server.group(GROUP), ayse, "/export 12-3"))
        [command] = core.commands
        assert (command.name, command.args, command.user_id) == ("export", ("12-3",), str(AYSE))
        [sent] = documents(server)
        assert sent.ok and sent.chat_id == AYSE
        assert sent.params["document"] == Upload(*EXPORT)
        assert sent.params["caption"] == "Hand 12-3: the history file"
        assert server.sent_to(GROUP, delivered=False) == []


async def test_telegram_menu_words_reach_the_core_as_typed():
    core = export_core()
    async with telegram_bot(core) as (server, bot):
        ayse = server.user(AYSE, "Ayşe", "tr")
        server.started_users.add(AYSE)
        group = server.group(GROUP)
        for typed in (
            "/history okey",
            "/stats @mehmet acik",
            "/replay 12-3",
            "/leaderboard wins global",
            "/geçmiş",
        ):
            await bot.feed(server.message_update(group, ayse, typed))
        assert [(c.name, c.args) for c in core.commands] == [
            ("history", ("okey",)),
            ("stats", ("@mehmet", "acik")),
            ("replay", ("12-3",)),
            ("leaderboard", ("wins", "global")),
            ("geçmiş", ()),  # the core folds and routes the Turkish word
        ]
    menu = {name: (turkish, english) for name, turkish, english in MENU}
    for name in ("history", "stats", "replay", "export", "leaderboard"):
        assert name in menu
    assert "wins" in menu["leaderboard"][1] and "global" in menu["leaderboard"][1]


async def test_telegram_export_with_a_long_text_sends_the_text_then_the_document():
    core = ScriptedCore()
    long_text = "step\n" * 400  # longer than a caption may be
    core.on_command["export"] = lambda c: [
        Outgoing(OutKind.PRIVATE, long_text, user_id=c.user_id, attachment=EXPORT)
    ]
    async with telegram_bot(core) as (server, bot):
        ayse = server.user(AYSE, "Ayşe", "en")
        server.started_users.add(AYSE)
        await bot.feed(server.message_update(server.private_chat(ayse), ayse, "/export 12-3"))
        sent = server.sent_to(AYSE)
        assert [c.method for c in sent] == ["sendMessage", "sendDocument"]
        assert sent[0].params["text"] == long_text
        assert sent[1].params["document"] == Upload(*EXPORT)
        assert "caption" not in sent[1].params


async def test_telegram_export_for_a_user_without_a_private_chat_never_reaches_the_group():
    async with telegram_bot(export_core()) as (server, bot):
        ayse = server.user(AYSE, "Ayşe", "en")  # never pressed Start
        await bot.feed(server.message_update(server.group(GROUP), ayse, "/export 12-3"))
        [tried] = documents(server)
        assert not tried.ok and tried.chat_id == AYSE  # refused: no private chat yet
        [reply] = server.sent_to(GROUP)  # the usual short "start the private chat" reply
        assert reply.method == "sendMessage"
        assert "history" not in reply.visible_text() and EXPORT[0] not in reply.visible_text()


# ---- Console -------------------------------------------------------------------------------
class ConsoleCore(ScriptedCore):
    async def start(self) -> list[Outgoing]:
        return []

    async def tick(self) -> list[Outgoing]:
        return []


async def test_console_writes_an_attachment_into_the_folder_and_prints_its_path(tmp_path):
    core = ConsoleCore()
    core.on_command["export"] = export_core().on_command["export"]
    out = io.StringIO()
    console = Console(out, files=tmp_path)
    await console.feed(core, "ayse: /export 12-3")
    await console.feed(core, "ayse: /export 12-3")
    first, _again = core.commands
    assert isinstance(first, Command) and (first.name, first.args) == ("export", ("12-3",))
    written = [tmp_path / EXPORT[0], tmp_path / "hand-12-3-2.jsonl"]
    assert [p.read_bytes() for p in written] == [EXPORT[1], EXPORT[1]]  # never overwritten
    printed = out.getvalue().splitlines()
    assert "[DM ayse] Hand 12-3: the history file" in printed
    assert [line for line in printed if line.startswith("[file]")] == [
        f"[file] {path}" for path in written
    ]


@pytest.mark.parametrize(
    ("given", "safe"),
    [
        ("hand-12-3.jsonl", "hand-12-3.jsonl"),
        ("../../etc/passwd", "passwd"),
        ("..\\..\\boot.ini", "boot.ini"),
        (".bashrc", "bashrc"),
        ("..", "attachment"),
        ("el 12-3 ışık.jsonl", "el_12-3_k.jsonl"),
    ],
)
def test_console_file_names_stay_inside_the_folder(given, safe):
    assert file_name(given) == safe
