"""The hand-category count table as the core words it (`python -m bot.core.poker.counts`): the
categories in the game's order, named in Turkish or English from the catalogue, and the total."""

from __future__ import annotations

import pytest

from bot.core.poker.counts import main


def test_cli_prints_the_table_in_game_order(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", "acik", "--deck", "52", "--lang", "tr"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["Dizi", "Renk", "40"]
    assert lines[2].split() == ["Renk", "5,108"]
    assert lines[-1].split() == ["Toplam", "2,598,960"]
    assert main(["--game", "turkish", "--players", "4"]) == 0
    out = capsys.readouterr().out
    assert "Minor straight flush" in out and "201,376" in out


def test_cli_rejects_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--game", "turkish", "--players", "7"])
    assert "2-5 players" in capsys.readouterr().err
