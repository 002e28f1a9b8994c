"""The message catalogues: every engine refusal code is translated in both languages, both
catalogues have the same keys and placeholders, and no text is left in the other language."""

from __future__ import annotations

import ast
import json
import re
import string
from pathlib import Path

import pytest

from bot.core import i18n
from games.poker.ranking import PokerRules, acik_rules, evaluate, turkish_rules

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "games"


def _call_name(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def engine_codes() -> dict[str, list[str]]:
    """Every `code` an engine raises: `IllegalAction("<code>", ...)` or a subclass of it, found by
    reading the source of `games/`, mapped to the places that raise it."""
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in GAMES.rglob("*.py")}
    classes = {"IllegalAction"}
    grown = True
    while grown:  # subclasses of subclasses, in any module
        grown = False
        for tree in trees.values():
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and node.name not in classes:
                    bases = {
                        b.id if isinstance(b, ast.Name) else getattr(b, "attr", None)
                        for b in node.bases
                    }
                    if bases & classes:
                        classes.add(node.name)
                        grown = True
    codes: dict[str, list[str]] = {}
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _call_name(node) in classes and node.args:
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                first = node.args[0]
                code = first.value if isinstance(first, ast.Constant) else ast.unparse(first)
                codes.setdefault(str(code), []).append(where)
    return codes


def placeholders(text: str) -> set[str]:
    """The `{names}` a text fills."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_the_scan_finds_the_known_codes():
    codes = engine_codes()
    # one from each engine module family, so a broken scan cannot pass silently
    for code in ("no_openers", "void_bet_dead", "bad_ante", "peek_used", "not_complete"):
        assert code in codes
    assert all(re.fullmatch(r"[a-z_]+", code) for code in codes), sorted(codes)


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_every_engine_code_is_translated(locale):
    texts = i18n.catalogue(locale)
    missing = {c: w for c, w in engine_codes().items() if f"illegal.{c}" not in texts}
    assert not missing, f"{locale}.json lacks: {missing}"


def test_both_catalogues_have_the_same_keys_and_placeholders():
    en, tr = i18n.catalogue("en"), i18n.catalogue("tr")
    assert sorted(set(en) ^ set(tr)) == []
    differ = {
        k: (placeholders(en[k]), placeholders(tr[k]))
        for k in en
        if placeholders(en[k]) != placeholders(tr[k])
    }
    assert differ == {}


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_catalogue_files_have_no_duplicate_keys(locale):
    seen: list[str] = []
    json.loads(
        (ROOT / "bot/core/locales" / f"{locale}.json").read_text(encoding="utf-8"),
        object_pairs_hook=lambda pairs: seen.extend(k for k, _ in pairs) or dict(pairs),
    )
    assert len(seen) == len(set(seen))


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_the_101_pages_own_open_first_is_the_servers_refusal(locale):
    """The 101 page says "Open first" itself on a meld tapped before opening (it only gets the
    `web.*` keys): in the very words the server refuses such a move with."""
    texts = i18n.catalogue(locale)
    assert texts["web.okey101.open_first"] == texts["illegal.not_opened"]


# English words that must not appear in a Turkish text (the game names and card notation aside)
ENGLISH = re.compile(
    r"\b(the|you|your|is|not|and|or|open|bet|raise|call|fold|check|draw|pass|take|discard|"
    r"finish|stock|chips?|table|hand|round)\b"
)


def test_turkish_texts_speak_turkish():
    english = {}
    for key, text in i18n.catalogue("tr").items():
        words = re.sub(r"\{[a-z_]+\}|/\w+(?: [\w|]+)?", " ", text)  # placeholders and commands
        if ENGLISH.search(words.lower()):
            english[key] = text
    assert english == {}


def test_turkish_rules_use_the_hand_names_of_the_ranking():
    # in Türk pokeri "renk" is a flush and "floş" a straight flush (rules/turkish-poker.txt)
    from games.poker.ranking import FLUSH, FULL_HOUSE, STRAIGHT, THREE_OF_A_KIND

    def name(category: str) -> str:
        return i18n.hand_name("tr", "turkish", category)

    text = i18n.catalogue("tr")["rules.turkish"].lower()
    flush, full = name(FLUSH).lower(), name(FULL_HOUSE).lower()
    trips, straight = name(THREE_OF_A_KIND).lower(), name(STRAIGHT).lower()
    assert f"{flush} {full}ü" in text and f"{trips} {straight}i yener" in text


def hand_name(cards: str, rules: PokerRules, locale: str) -> str:
    """The name a player reading `locale` sees for the hand `cards` under `rules`."""
    rank = evaluate(cards, rules)
    return i18n.hand_name(locale, rank.game, rank.category)


def test_hand_names_in_turkish_and_english() -> None:
    tr = turkish_rules(4)
    assert hand_name("Ah Kh Qh Jh Th", tr, "tr") == "Floş Royal"
    assert hand_name("Ah Ad As Kc Kd", tr, "tr") == "Ful"
    assert hand_name("Ah Ad Ks Kc Qh", tr, "tr_TR") == "Döper"
    assert hand_name("Ah Ad Ks Kc Qh", tr, "en") == "Two pair"
    ac = acik_rules()
    assert hand_name("5s 4s 3s 2s As", ac, "tr") == "Dizi Renk"
    assert hand_name("Ah Kd Qd Jd 9d", ac, "tr") == "Beş Benzemez"
    assert hand_name("Ah Kd Qd Jd 9d", ac, "en-US") == "High card"


def test_hand_names_fall_back_to_english() -> None:
    assert hand_name("Ah Ad Kh Qs Js", acik_rules(), "de") == "Pair"


@pytest.mark.parametrize("locale", i18n.LOCALES)
@pytest.mark.parametrize(
    "rules", [turkish_rules(4), acik_rules(52), acik_rules(52, flush_beats_four=False)]
)
def test_every_hand_category_is_named(locale: str, rules: PokerRules) -> None:
    texts = i18n.catalogue(locale)
    missing = [c for c in rules.categories if f"hand.{rules.game}.{c}" not in texts]
    assert missing == []
