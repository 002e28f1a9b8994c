"""Any input: every parser accepts what it documents (numbers written with the digits 0-9) and
refuses everything else with a usage line. Hypothesis writes the words from all of Unicode
(other scripts' digits such as `²`, `①`, `٣`, which `str.isdigit` passes and `int` refuses),
very long words and numbers thousands of digits long; they go through the parsers, through the
core (every command name and sub-command, at a table in each state) and through the console
process. Never a traceback, never the internal-error answer, and a refusal changes nothing."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.adapters.console import Choice, ConsoleParseError, parse_line
from bot.adapters.telegram.parsing import parse_command
from bot.core.commands import MAX_DIGITS, SUBCOMMANDS, TOP, parse_int
from bot.core.errors import Refusal
from bot.core.i18n import t
from bot.core.messages import Command, OutKind, Press
from storage import escrow
from testkit.drive import live_session
from testkit.helpers import cmd, make_core
from testkit.stores import open_memory_store

ROOT = Path(__file__).resolve().parents[2]
INTERNAL = t("en", "err.internal")
OTHER_DIGITS = "²³¹①⑳٠١٢٣٤٥٦٧٨٩۰۱۲۳४५६๑๒໓༣၄០᠕᧖᪇᭘᮹᱀꘠꣐꤁꧒꩓꯴０１２３𝟎𝟙𝟤𝟯𝟺"

unicode_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
odd_digits = st.text(st.sampled_from(OTHER_DIGITS + "0123456789.,_-+"), min_size=1, max_size=8)
huge_number = st.text(st.sampled_from("0123456789"), min_size=MAX_DIGITS + 1, max_size=6000)
long_word = st.text(st.characters(blacklist_categories=("Cs",)), min_size=300, max_size=3000)
plain_number = st.integers(min_value=-5, max_value=10**MAX_DIGITS - 1).map(str)
word = st.one_of(unicode_text, odd_digits, huge_number, long_word, plain_number)


def command_names() -> list[str]:
    """Every command word the core knows, aliases included."""
    return sorted(TOP)


def sub_commands() -> list[tuple[str, str]]:
    """Every (group word, sub-command word) pair, aliases included."""
    return [(group, sub) for group, table in SUBCOMMANDS.items() for sub in sorted(table)]


def canonical_commands() -> list[tuple[str, ...]]:
    """Every command and sub-command once, by its canonical name."""
    tops = [(name,) for name in sorted(set(TOP.values())) if name not in SUBCOMMANDS]
    subs = [(g, sub) for g, table in SUBCOMMANDS.items() for sub in sorted(set(table.values()))]
    return tops + subs


# --- the parsers --------------------------------------------------------------------------------


@settings(max_examples=400)
@given(st.one_of(word, st.text()))
def test_parse_int_reads_ascii_digits_only(text):
    try:
        number = parse_int(text)
    except Refusal as refusal:
        assert refusal.key == "err.number_too_big"
        digits = text.strip().replace(".", "").replace(",", "").replace("_", "")
        assert digits.isascii() and digits.isdigit() and len(digits.lstrip("0")) > MAX_DIGITS
        return
    if number is not None:
        digits = text.strip().replace(".", "").replace(",", "").replace("_", "")
        assert digits.isascii() and digits.isdigit()
        assert number == int(digits) and 0 <= number < 10**MAX_DIGITS


@pytest.mark.parametrize("text", ["²", "①", "٣", "１２", "𝟙", "12²", "-5", "1e3", "", "٣٠٠"])
def test_parse_int_refuses_other_digits(text):
    assert parse_int(text) is None


def test_parse_int_reads_grouped_numbers_and_refuses_huge_ones():
    assert parse_int("1.000") == parse_int("1,000") == parse_int("1_000") == 1000
    assert parse_int("9" * MAX_DIGITS) == 10**MAX_DIGITS - 1
    assert parse_int("000" + "9" * MAX_DIGITS) == 10**MAX_DIGITS - 1
    for huge in ("1" + "0" * MAX_DIGITS, "7" * 5000):
        with pytest.raises(Refusal) as refused:
            parse_int(huge)
        assert refused.value.key == "err.number_too_big"


@settings(max_examples=400)
@given(st.one_of(st.text(), st.builds(lambda n, w: f"{n}: {w}", unicode_text, word)))
def test_console_lines_parse_or_are_refused(line):
    try:
        parsed = parse_line(line)
    except ConsoleParseError:
        return
    assert parsed is None or isinstance(parsed, Command | Choice)
    if isinstance(parsed, Choice):
        assert 0 <= parsed.number < 10**9


@pytest.mark.parametrize("line", ["ayse: ²", "ayse: ① 40", "ayse: ٣", "ayse: " + "9" * 5000])
def test_console_choice_numbers_are_ascii(line):
    with pytest.raises(ConsoleParseError):
        parse_line(line)


@settings(max_examples=300)
@given(st.one_of(st.text(), st.builds(lambda w: "/" + w, st.text())))
def test_telegram_commands_parse_or_are_ignored(text):
    parsed = parse_command(text, "tablebot")
    if parsed is not None:
        name, args = parsed
        assert isinstance(name, str) and all(isinstance(a, str) for a in args)


# --- through the core ---------------------------------------------------------------------------

PRELUDES = {
    "no table": [],
    "poker waiting": ["ayse: /poker open turkish 5", "ayse: /poker join"],
    "turkish playing": [
        "ayse: /poker open turkish 5",
        "ayse: /poker join",
        "mehmet: /poker join",
        "cem: /poker join",
        "ayse: /poker start",
    ],
    "acik playing": [
        "ayse: /poker open acik 5",
        "ayse: /poker join",
        "mehmet: /poker join",
        "ayse: /poker start",
    ],
    "okey waiting": ["ayse: /okey start", "mehmet: /okey join"],
    "okey playing": ["ayse: /okey start", "mehmet: /okey join", "ayse: /okey begin"],
}
USERS = ("ayse", "mehmet", "cem", "zeynep")

any_command = st.one_of(
    st.tuples(st.sampled_from(command_names()), st.lists(word, max_size=3)),
    st.tuples(st.sampled_from(sub_commands()), st.lists(word, max_size=3)).map(
        lambda t: (t[0][0], [t[0][1], *t[1]])
    ),
    st.tuples(word, st.lists(word, max_size=2)),  # an unknown command name
)
any_press = st.tuples(
    st.one_of(st.none(), word),  # None: the table's own id
    st.one_of(st.none(), word),  # None: a button the table shows
    st.lists(word, max_size=3),
)


async def state_of(store, core) -> tuple:
    """What a refusal must leave as it was: the table and the chips in its escrow (the ledger
    is audited once at the end of each test)."""
    session = live_session(core)
    if session is None:
        return (None,)
    return (session.to_dict(), await store.balance(escrow(session.table_id)))


async def prepared(prelude: list[str]):
    store = await open_memory_store()
    core = make_core(store, seed="any-input")
    for line in prelude:
        user, _, text = line.partition(": ")
        out = await core.handle(cmd(user, text))
        assert not [o for o in out if o.kind is OutKind.ERROR], out
    return store, core


def check_answer(out, before, after, what: object = None) -> None:
    assert out, f"every command gets an answer: {what}"
    texts = [o.text for o in out]
    assert INTERNAL not in texts, (what, texts)
    if all(o.kind is OutKind.ERROR for o in out):
        assert after == before, f"a refusal changed the table: {what}"


NASTY_ARGS = (
    ("²",),
    ("①", "40"),
    ("٣٠٠",),
    ("１２",),
    ("9" * 5000,),
    ("1" + "0" * MAX_DIGITS,),
    ("ş" * 3000,),
    ("40", "²"),
)


async def test_every_command_refuses_odd_digits_and_huge_numbers_at_every_table_state():
    """Every command and sub-command, with each nasty argument list, at a table in each state:
    an answer, never the internal error, and a refusal changes nothing."""
    redone: list[tuple] = []
    for state, prelude in PRELUDES.items():
        store, core = await prepared(prelude)
        try:
            for words in canonical_commands():
                for args in NASTY_ARGS:
                    before = await state_of(store, core)
                    line = Command("test", "c1", "ayse", "Ayse", words[0], (*words[1:], *args))
                    out = await core.handle(line)
                    after = await state_of(store, core)
                    check_answer(out, before, after, (state, words, args))
                    if after != before:  # it did something: start again from the prelude
                        assert await store.audit() == []
                        await store.close()
                        store, core = await prepared(prelude)
                        redone.append((state, words, args))
            assert await store.audit() == []
        finally:
            await store.close()


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(sorted(PRELUDES)),
    st.sampled_from(USERS),
    st.booleans(),
    any_command,
)
def test_any_command_words_get_an_answer_and_refusals_change_nothing(state, user, mod, command):
    asyncio.run(_command(PRELUDES[state], user, mod, command))


async def _command(prelude, user, mod, command) -> None:
    store, core = await prepared(prelude)
    try:
        name, args = command
        before = await state_of(store, core)
        line = Command("test", "c1", user, user.capitalize(), name, tuple(args), "en", mod)
        out = await core.handle(line)
        check_answer(out, before, await state_of(store, core))
        assert await store.audit() == []
    finally:
        await store.close()


@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(PRELUDES)), st.sampled_from(USERS), any_press)
def test_any_button_press_gets_an_answer_and_refusals_change_nothing(state, user, press):
    asyncio.run(_press(PRELUDES[state], user, press))


async def _press(prelude, user, press) -> None:
    store, core = await prepared(prelude)
    try:
        table_id, action, args = press
        session = live_session(core)
        nonce = session.nonce if session is not None else "n"
        if table_id is None:
            table_id = str(session.table_id) if session is not None else "1"
        if action is None:
            action = "bet"
        before = await state_of(store, core)
        pressed = Press(
            "test", "c1", user, user.capitalize(), table_id, action, nonce, tuple(args), "en"
        )
        out = await core.press(pressed)
        check_answer(out, before, await state_of(store, core))
        assert await store.audit() == []
    finally:
        await store.close()


# --- through the console process ----------------------------------------------------------------

console_line = st.one_of(
    st.builds(
        lambda u, c, a: f"{u}: /{c} " + " ".join(a),
        st.sampled_from(USERS),
        st.sampled_from(command_names()),
        st.lists(word, max_size=3),
    ),
    st.builds(
        lambda u, gs, a: f"{u}: /{gs[0]} {gs[1]} " + " ".join(a),
        st.sampled_from(USERS),
        st.sampled_from(sub_commands()),
        st.lists(word, max_size=3),
    ),
    st.builds(lambda u, w: f"{u}: {w}", st.sampled_from(USERS), word),
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=60),
)


@settings(max_examples=3, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.sampled_from(sorted(PRELUDES)), st.lists(console_line, min_size=20, max_size=60))
def test_random_lines_never_break_the_console_process(tmp_path_factory, state, lines):
    tmp = tmp_path_factory.mktemp("console")
    script = "\n".join([*PRELUDES[state], *lines]).encode("utf-8", "surrogatepass")
    nasty = ["ayse: ²", "ayse: ① 40", "ayse: ٣", "ayse: " + "9" * 5000, "ayse: /poker join ²"]
    script += ("\n" + "\n".join(nasty)).encode()
    script += b"\nayse: \xff\xfe broken bytes\n"  # not UTF-8 at all
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "--console"],
        input=script,
        capture_output=True,
        env={
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": str(ROOT),
            "DEFAULT_LOCALE": "en",
            "DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/bot.db",
        },
        cwd=tmp,
        timeout=120,
    )
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    out = proc.stdout.decode("utf-8")
    assert INTERNAL not in out and out.rstrip().endswith("[console] bye")
