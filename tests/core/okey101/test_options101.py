"""The 101 table's options: `/okey start 101` with positional rounds and stake and the house
options (`open`, `rounds`, `partners`, `doubling`, `swap_okey`, `pairs_max`, `payout`, English or
Turkish names and values), what the engine gets from them, `/okey rules` and `rules set`."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.core.config import CoreConfig
from bot.core.errors import Refusal
from bot.core.okey101.session import Okey101Session, is_variant_word
from bot.core.registry import open_session
from bot.core.table import house
from bot.core.table.session import Who
from games.okey101 import check_options
from testkit.helpers import cmd, errors, make_core

NOW = datetime(2026, 1, 5, tzinfo=UTC)
AYSE = Who(1, "ayse", "Ayse", "en")


def opened(line: str) -> Okey101Session:
    session, first = open_session("okey", tuple(line.split()), AYSE, CoreConfig(), NOW)
    assert isinstance(session, Okey101Session) and first == "join"
    return session


def test_the_variant_words():
    assert all(is_variant_word(w) for w in ("101", "yüzbir", "YUZBIR", "Yüzbir"))
    assert not is_variant_word("3")


def test_defaults_and_positional_words():
    session = opened("101")
    args = house.engine_args("okey101", session.options)["match"]
    assert check_options(args, 4) == {
        "open": 101,
        "pairs_max": 3,
        "doubling": True,
        "swap_okey": True,
        "partners": False,
        "rounds": 5,
        "payout": "penalty",
    }
    session = opened("yüzbir 3 40")
    assert session.options["rounds101"] == 3 and session.options["stake"] == 40


def test_every_option_in_english_and_turkish():
    session = opened(
        "101 open=121 rounds=7 partners=on doubling=off swap_okey=off pairs_max=2 payout=winner"
    )
    args = house.engine_args("okey101", session.options)["match"]
    assert args == {
        "open": 121,
        "rounds": 7,
        "partners": True,
        "doubling": False,
        "swap_okey": False,
        "pairs_max": 2,
        "payout": "winner",
    }
    turkish = opened(
        "101 açış=151 el=9 eşli=açık katlama=kapalı okeyal=yok çiftsınırı=0 ödeme=kazanan"
    )
    assert house.engine_args("okey101", turkish.options)["match"] == {
        **args,
        "open": 151,
        "rounds": 9,
        "pairs_max": 0,
    }
    # a free threshold within bounds
    assert opened("101 open=133").options["open"] == 133


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ("101 open=100", "err.house_value"),
        ("101 open=abc", "err.house_value"),
        ("101 rounds=4", "err.house_value"),
        ("101 pairs_max=5", "err.house_value"),
        ("101 takeback=on", "err.house_unknown"),  # classic Okey's option, not 101's
        ("101 4", "err.okey101_rounds"),
        ("101 1 2 3", "err.okey101_start_usage"),
        ("101 klasik", "err.okey101_start_usage"),
        ("101 open=121 open=131", "err.house_twice"),
    ],
)
def test_bad_words_are_refused_with_a_reason(line, key):
    with pytest.raises(Refusal) as found:
        opened(line)
    assert found.value.key == key


def test_a_house_rule_wins_over_the_positional_rounds_in_both_games():
    """Both tables open through one `TileSession.create`: the `name=value` rounds win over the
    positional number, which is then not checked on its own."""
    assert opened("101 4 rounds=7").options["rounds101"] == 7
    assert opened("101 3 40 el=9").options == {**opened("101 9 40").options}
    classic, _ = open_session("okey", ("2", "rounds=3"), AYSE, CoreConfig(), NOW)
    assert classic.options["rounds"] == 3
    with pytest.raises(Refusal) as found:
        open_session("okey", ("2",), AYSE, CoreConfig(), NOW)
    assert found.value.key == "err.okey_rounds"


def test_classic_okey_keeps_its_own_rounds():
    assert house.parse("okey", ["rounds=3"]) == {"rounds": "3"}
    with pytest.raises(Refusal):
        house.parse("okey", ["rounds=5"])
    assert house.parse("okey101", ["rounds=11"]) == {"rounds101": "11"}
    assert house.parse("okey101", ["el=3"]) == {"rounds101": "3"}
    assert house.stored({"rounds101": "11", "open": "121"}) == {"rounds101": 11, "open": 121}


async def test_rules_lines_and_rules_set(store):
    core = make_core(store)
    out = await core.handle(cmd("ayse", "/okey start 101 doubling=off"))
    assert not errors(out)
    assert "House rules: doubling=off" in out[-1].text
    out = await core.handle(cmd("ayse", "/okey rules"))
    body = out[0].text
    assert "open with melds worth 101 or five pairs" in body
    assert "an opening with melds must be worth at least 101" in body
    assert "no doublings (katlamasız)" in body
    out = await core.handle(cmd("ayse", "/okey rules set open=131", mod=True))
    assert not errors(out), errors(out)
    assert "open at 131" in out[-1].text
    out = await core.handle(cmd("ayse", "/okey rules set open=99", mod=True))
    assert "101 to 999" in errors(out)[0]
    out = await core.handle(cmd("ayse", "/okey kurallar", locale="tr"))
    assert "seriden açış en az 131 etmeli" in out[0].text
