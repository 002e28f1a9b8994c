"""The console table: numbered choices typed by the named player, DMs and refusals, pictures
saved to files, and `--seed` making a whole session repeatable."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from bot.adapters.console import (
    CHANNEL,
    Choice,
    Console,
    ConsoleParseError,
    format_outgoing,
    parse_line,
    run_console,
)
from bot.core.messages import Button, Outgoing, OutKind
from bot.core.table.rooms import shared_room
from storage import Store
from testkit.helpers import make_core

ROOT = Path(__file__).resolve().parents[2]


def test_parse_line_and_choices():
    command = parse_line("Ayse: /poker katıl 200", "tr", moderators=("ayse",))
    assert command.name == "poker" and command.args == ("katıl", "200")
    assert command.user_id == "ayse" and command.is_moderator and command.locale == "tr"
    assert parse_line("mehmet: 3 40") == Choice("mehmet", "mehmet", 3, ("40",))
    assert parse_line("  # comment") is None
    bare = parse_line("/yardım", "tr")  # a newcomer forgets the name: it is the default player's
    assert (bare.user_id, bare.name, bare.args) == ("player", "yardım", ())
    assert parse_line("/table reset reason: spam").args == ("reset", "reason:", "spam")
    with pytest.raises(ConsoleParseError, match="at most 32"):  # too long to be stored
        parse_line("x" * 33 + ": /balance")


def test_numbered_buttons_and_private_choices():
    out = io.StringIO()
    console = Console(out)
    table = Outgoing(
        OutKind.EDIT_TABLE,
        "table",
        buttons=(
            (
                Button("Pass", "7", "pass", "n1"),
                Button("Open", "7", "open", "n1", needs="amount", min_amount=20, max_amount=40),
            ),
        ),
    )
    rack = Outgoing(
        OutKind.PRIVATE, "rack", user_id="ayse", buttons=((Button("R5", "7", "d.R5", "n1"),),)
    )
    console.show([table])
    assert "(1) Pass  (2) Open  → 2 <20-40>" in out.getvalue()
    only = Button("Open (20)", "7", "open", "n1", needs="amount", min_amount=20, max_amount=20)
    draw = Button("Draw", "7", "draw", "n1", needs="cards", max_cards=4)
    assert format_outgoing(Outgoing(OutKind.EDIT_TABLE, "t", buttons=((only, draw),)), {}) == (
        "[#table] t\n[#table]   (1) Open (20)  (2) Draw  → 2 [7c 9h …] (0-4)"
    )  # a single possible amount needs no hint: the choice number alone plays it
    console.show([rack])
    assert console.press_for(Choice("ayse", "Ayse", 1, ())).action == "d.R5"
    assert console.press_for(Choice("mehmet", "Mehmet", 2, ("30",))).args == ("30",)
    assert isinstance(console.press_for(Choice("mehmet", "Mehmet", 9, ())), str)
    assert format_outgoing(Outgoing(OutKind.ERROR, "no", user_id="x"), {"x": "X"}) == "[! X] no"


async def test_a_hand_typed_with_choice_numbers(tmp_path):
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path}/bot.db")
    lines = [
        "ayse: /poker open turkish 10",
        "ayse: /poker join 200",
        "mehmet: /poker join 200",
        "ayse: /poker start",
    ]
    out = io.StringIO()
    try:
        core = make_core(store, seed="console")
        console = await run_console(core, lines, out)
        session = core.tables.in_channel("console", "table").session
        actor = session.seats[session.actor()].user_id
        other = "mehmet" if actor == "ayse" else "ayse"
        pass_number = [b.action for b in console.public_choices].index("pass") + 1
        await console.feed(core, f"{other}: {pass_number}")  # not their turn
        await console.feed(core, f"{actor}: {pass_number}")
    finally:
        await store.close()
    text = out.getvalue()
    assert "[DM ayse] Hand 1-1 · Your cards:" in text
    assert "[DM mehmet] Hand 1-1 · Your cards:" in text
    assert f"[! {other}] It is not your turn" in text
    assert f"[#table] {actor} passes." in text


async def test_pictures_are_written_to_files(tmp_path):
    out = io.StringIO()
    console = Console(out, pictures=tmp_path / "pics")
    console.show([Outgoing(OutKind.PUBLIC, "table", picture=b"\x89PNG fake bytes")])
    saved = list((tmp_path / "pics").glob("*.png"))
    assert len(saved) == 1 and "[picture]" in out.getvalue()


def run_bot(tmp_path: Path, script: str, *args: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "--console", *args],
        input=script,
        capture_output=True,
        text=True,
        # no web table: its address line would depend on whether the port is free
        env={
            "PATH": "/usr/bin:/bin",
            "DEFAULT_LOCALE": "en",
            "PYTHONPATH": str(ROOT),
            "WEB_ENABLED": "false",
        },
        cwd=tmp_path,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_seed_makes_a_session_repeatable(tmp_path):
    script = "ayse: /poker open\nayse: /poker join\nmehmet: /poker join\nayse: /poker start\n"
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = run_bot(tmp_path / "a", script, "--seed", "demo")
    second = run_bot(tmp_path / "b", script, "--seed", "demo")
    assert "[DM ayse] Hand 1-1 · Your cards:" in first
    assert first == second


async def test_console_notes_speak_the_console_language():
    out = io.StringIO()
    console = Console(out, "tr")
    await console.feed(None, "ayse: 9")  # neither line reaches the core
    await console.feed(None, "merhaba")
    assert out.getvalue().splitlines() == [
        "[console] Ekranda (9) numaralı bir seçenek yok.",
        "[console] `isim: /komut` yaz, örn. `ayse: /yardım`, ya da 0-9 rakamlarıyla "
        "`isim: <seçenek numarası>`.",
    ]


def test_a_shared_rooms_lines_print_with_its_full_id():
    room = shared_room(CHANNEL, "t2")
    assert format_outgoing(Outgoing(OutKind.PUBLIC, "Round 1", room), {}) == "[#table#t2] Round 1"
    assert format_outgoing(Outgoing(OutKind.PUBLIC, "hi", CHANNEL), {}) == "[#table] hi"
    assert format_outgoing(Outgoing(OutKind.PUBLIC, "hi"), {}) == "[#table] hi"
