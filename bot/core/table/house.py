"""House rules: the table options of each game, written `name=value` when a table opens.

The catalogue (`OPTIONS`) names every option: its canonical English name and Turkish aliases, the
games it belongs to, its values (canonical, with aliases), its default and the engine argument it
becomes. Names and values are matched after `commands.fold`. A table keeps its options in
`session.options` (the snapshot) under the canonical names, as canonical values (`rounds` as a
number, as Okey tables always stored it); a table stored before an option existed reads its
default. See docs/rules.md ("House rules").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

from bot.core.commands import fold
from bot.core.errors import Refusal
from bot.core.table.session import DEFAULT_AWAY_LIMIT, Msg, Note, Step, TableSession, Who, msg

SUIT_LETTERS = "hsdc"
_SUIT_SYMBOLS = {"♥": "h", "♡": "h", "♠": "s", "♤": "s", "♦": "d", "♢": "d", "♣": "c", "♧": "c"}
_SUIT_SHOWN = {"h": "♥", "s": "♠", "d": "♦", "c": "♣"}
ON_OFF = {
    "on": ("açık", "acik", "evet", "var", "yes", "true"),
    "off": ("kapalı", "kapali", "hayır", "hayir", "yok", "no", "false"),
}
POKER = ("turkish", "acik")
# options whose stored value is a number (`rounds` as Okey tables always stored it; 101's own)
NUMBER_OPTIONS = ("rounds", "rounds101", "open", "pairs_max", "away")
OKEY101 = ("okey101",)
EVERY_GAME = (*POKER, "okey", *OKEY101)
OPEN_MAX = 999  # the highest 101 opening threshold a table may set
AWAY_LIMITS = ("1", "2", "3", "5", "10")  # the `away` option's values (hands or rounds)


def _threshold(word: str) -> str | None:
    """A 101 opening threshold: a whole number from 101 to `OPEN_MAX`, or None."""
    text = word.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 3:
        return None
    return str(int(text)) if 101 <= int(text) <= OPEN_MAX else None


def _suit_order(word: str) -> str | None:
    """`hsdc`, `SHDC` or `♥♠♦♣` as the canonical letters (high to low), or None."""
    text = "".join(_SUIT_SYMBOLS.get(ch, ch) for ch in fold(word))
    return text if sorted(text) == sorted(SUIT_LETTERS) else None


@dataclass(frozen=True)
class HouseOption:
    """One house option: names, games, values and the engine argument it sets.

    `engine` says where the value goes: `rules` (the poker ranking rules), `hand` (a keyword of
    the poker hand engine), `match` (the Okey match options) or `table` (read by the table
    itself, not an engine: Açık's live odds), under `key`, converted by
    `convert`. `headed`: the table header shows it anyway, so the house-rules summary leaves it
    out.
    """

    name: str
    aliases: tuple[str, ...]
    games: tuple[str, ...]
    values: Mapping[str, tuple[str, ...]]  # canonical value -> its aliases (empty: free form)
    default: str
    engine: str
    key: str
    convert: Callable[[str], Any] = str
    read: Callable[[str], str | None] | None = None  # free-form values (suits)
    headed: bool = False
    words: dict[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        words = {fold(v): c for c, aliases in self.values.items() for v in (c, *aliases)}
        object.__setattr__(self, "words", words)

    def value(self, word: str) -> str | None:
        """The canonical value for a typed value, or None."""
        if self.read is not None:
            return self.read(word)
        return self.words.get(fold(word))

    def stored(self, value: str) -> Any:
        """A canonical value as the table's options keep it."""
        return int(value) if self.name in NUMBER_OPTIONS else value


OPTIONS: tuple[HouseOption, ...] = (
    HouseOption("deck", ("deste",), ("acik",), {"52": (), "32": ()}, "52", "rules", "deck", int),
    HouseOption(
        "suits",
        ("renk", "renkler"),
        POKER,
        {},
        SUIT_LETTERS,
        "rules",
        "suit_order",
        read=_suit_order,
    ),
    HouseOption(
        "twopair",
        ("ikiçift", "ikicift"),
        ("turkish",),
        {"kicker": ("yankart", "kiker"), "heart": ("kupa", "renk")},
        "kicker",
        "rules",
        "two_pair_heart_beats_kicker",
        lambda v: v == "heart",
    ),
    HouseOption(
        "flushfour",
        ("floş", "flos", "renkkare"),
        ("acik",),
        ON_OFF,
        "on",
        "rules",
        "flush_beats_four",
        lambda v: v == "on",
    ),
    HouseOption(
        "void",
        ("ölü", "olu", "ölübahis"),
        ("acik",),
        ON_OFF,
        "on",
        "hand",
        "void_bets",
        lambda v: v == "on",
    ),
    HouseOption(
        "peek",
        ("bakış", "bakis"),
        ("acik",),
        {"once": ("bir", "tek", "birkez"), "free": ("serbest",)},
        "free",
        "hand",
        "peek_once",
        lambda v: v == "once",
    ),
    HouseOption(
        "odds",
        ("şans", "sans", "olasılık", "olasilik"),
        ("acik",),
        ON_OFF,
        "on",
        "table",
        "odds",
        lambda v: v == "on",
    ),
    HouseOption(
        "preset",
        ("puanlama", "tür"),
        ("okey",),
        {"penalty": ("ceza",), "classic": ("klasik",)},
        "penalty",
        "match",
        "preset",
        headed=True,
    ),
    HouseOption(
        "rounds",
        ("el", "tur"),
        ("okey",),
        {"1": (), "3": ()},
        "1",
        "match",
        "rounds",
        int,
        headed=True,
    ),
    HouseOption(
        "takeback",
        ("geriat", "yerdengeri"),
        ("okey",),
        ON_OFF,
        "off",
        "match",
        "takeback",
        lambda v: v == "on",
    ),
)
OPTIONS += (
    # 101 Okey (games.okey101.check_options); its rounds are `rounds101` (typed `rounds=` too),
    # apart from classic Okey's `rounds` (1 or 3)
    HouseOption(
        "open",
        ("açış", "acis", "eşik", "esik"),
        OKEY101,
        {"101": (), "111": (), "121": (), "151": (), "201": ()},
        "101",
        "match",
        "open",
        int,
        read=_threshold,
        headed=True,
    ),
    HouseOption(
        "rounds101",
        ("rounds", "el", "tur", "elsayısı", "maç"),
        OKEY101,
        {n: () for n in ("1", "3", "5", "7", "9", "11")},
        "5",
        "match",
        "rounds",
        int,
        headed=True,
    ),
    HouseOption(
        "partners",
        ("eşli", "esli", "ortak"),
        OKEY101,
        ON_OFF,
        "off",
        "match",
        "partners",
        lambda v: v == "on",
    ),
    HouseOption(
        "doubling",
        ("katlama", "katlamalı", "katlamali"),
        OKEY101,
        ON_OFF,
        "on",
        "match",
        "doubling",
        lambda v: v == "on",
    ),
    HouseOption(
        "swap_okey",
        ("okeyal", "okeyalma", "swap"),
        OKEY101,
        ON_OFF,
        "on",
        "match",
        "swap_okey",
        lambda v: v == "on",
    ),
    HouseOption(
        "pairs_max",
        ("çiftsınırı", "ciftsiniri", "çift", "cift"),
        OKEY101,
        {n: () for n in ("0", "1", "2", "3", "4")},
        "3",
        "match",
        "pairs_max",
        int,
    ),
    HouseOption(
        "payout",
        ("ödeme", "odeme"),
        OKEY101,
        {"penalty": ("ceza",), "winner": ("kazanan", "galip")},
        "penalty",
        "match",
        "payout",
    ),
)
OPTIONS += (
    # the table's turn time (bot.core.table.speed), read by the table service, not an engine;
    # a tournament table keeps the bot's clock (refused by `change`)
    HouseOption(
        "speed",
        ("hız", "hiz"),
        EVERY_GAME,
        {
            "fast": ("hızlı", "hizli"),
            "normal": (),
            "slow": ("yavaş", "yavas"),
            "relaxed": ("rahat",),
        },
        "normal",
        "table",
        "speed",
    ),
)
OPTIONS += (
    # hands (poker) or rounds (Okey) a kept seat plays for an away player before they leave
    # (bot.core.table.kept); read by the table itself; a tournament table never stands one up
    HouseOption(
        "away",
        ("uzakta", "yokken"),
        EVERY_GAME,
        {n: () for n in AWAY_LIMITS},
        str(DEFAULT_AWAY_LIMIT),
        "table",
        "away",
        int,
    ),
)
BY_NAME = {o.name: o for o in OPTIONS}


def options_for(game: str) -> list[HouseOption]:
    """The house options of a game, in catalogue order."""
    return [o for o in OPTIONS if game in o.games]


def every_value(option: HouseOption) -> tuple[str, ...]:
    """Every canonical value of an option, as a front end offers them: the listed values in
    catalogue order; for the free-form suit order every order of the four suits, the default
    first."""
    if option.read is None or option.values:  # a free-form number offers its usual values
        return tuple(option.values)
    orders = ("".join(order) for order in permutations(SUIT_LETTERS))
    return (option.default, *(order for order in orders if order != option.default))


def is_setting(word: str) -> bool:
    """True for a `name=value` word."""
    return "=" in word


def _find(game: str, name: str) -> HouseOption | None:
    """The option of `game` called `name` (canonical or alias), or None."""
    want = fold(name)
    for option in options_for(game):
        if want in (fold(n) for n in (option.name, *option.aliases)):
            return option
    return None


def _names(game: str) -> Msg:
    """The option names of a game for a refusal: `deck (deste), suits (renk), …`."""
    items = ", ".join(f"{o.name} ({o.aliases[0]})" for o in options_for(game))
    return msg("house.list", items=items)


def _values(option: HouseOption) -> Msg:
    """The values of an option for a refusal: `on (açık), off (kapalı)`."""
    if option.read is not None:
        return msg(f"house.values.{option.name}")
    items = ", ".join(
        f"{value} ({aliases[0]})" if aliases else value for value, aliases in option.values.items()
    )
    return msg("house.list", items=items)


def _other_variant(game: str, name: str) -> str | None:
    """The other poker variant whose option `name` is when it is not one of `game`'s, or None
    (Okey has no sibling variant)."""
    if game not in POKER:
        return None
    for other in POKER:
        if other != game and _find(other, name) is not None:
            return other
    return None


def parse(game: str, words: Iterable[str], opening: bool = False) -> dict[str, str]:
    """`name=value` words as canonical name -> canonical value, for a table of `game`.

    Refused (nothing changes): a word that is not `name=value`, a name that is not an option of
    this game (listing the game's names; when `opening` a poker table and the name is an option
    of the other variant, showing the command that opens that variant instead), a bad value
    (listing the option's values), and the same option given twice.
    """
    out: dict[str, str] = {}
    for word in words:
        name, sep, typed = word.partition("=")
        if not sep:
            raise Refusal("err.house_form", word=word)
        option = _find(game, name)
        if option is None:
            other = _other_variant(game, name) if opening else None
            if other is not None:
                raise Refusal(f"err.house_variant.{other}", name=name, word=word)
            raise Refusal(
                "err.house_unknown", name=name, game=msg(f"game.{game}"), names=_names(game)
            )
        value = option.value(typed)
        if value is None:
            raise Refusal("err.house_value", value=typed, name=option.name, values=_values(option))
        if option.name in out:
            raise Refusal("err.house_twice", name=option.name)
        out[option.name] = value
    return out


def stored(changes: Mapping[str, str]) -> dict[str, Any]:
    """Parsed options as the table's options keep them."""
    return {name: BY_NAME[name].stored(value) for name, value in changes.items()}


def defaults(game: str) -> dict[str, Any]:
    """The stored defaults of a game's house options (Okey's `rounds` default is
    `CoreConfig.okey_rounds`, set when the table opens)."""
    return {o.name: o.stored(o.default) for o in options_for(game)}


def current(game: str, options: Mapping[str, Any]) -> dict[str, str]:
    """A table's house options as canonical values; missing ones (a table stored before the
    option existed) read the default."""
    return {o.name: str(options.get(o.name, o.default)) for o in options_for(game)}


def engine_args(game: str, options: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """What the engines need of a table's house options: `rules` (poker ranking rules), `hand`
    (poker hand keywords), `match` (Okey match options) and `table` (the table's own display
    options), each a dict."""
    out: dict[str, dict[str, Any]] = {"rules": {}, "hand": {}, "match": {}, "table": {}}
    values = current(game, options)
    for option in options_for(game):
        out[option.engine][option.key] = option.convert(values[option.name])
    return out


def deck_size(game: str, options: Mapping[str, Any]) -> int | None:
    """The Açık poker deck of a table (52 or 32); None for other games."""
    return int(current(game, options)["deck"]) if game == "acik" else None


def changed(game: str, options: Mapping[str, Any]) -> list[str]:
    """The options that differ from the defaults, as `name=value` (the header leaves out those
    it shows anyway)."""
    return [
        f"{o.name}={value}"
        for o, value in zip(options_for(game), current(game, options).values(), strict=True)
        if value != o.default and not o.headed
    ]


def summary(game: str, options: Mapping[str, Any]) -> Msg | None:
    """The header line `House rules: deck=32 · peek=once`, or None when all are defaults."""
    items = changed(game, options)
    return msg("house.summary", items=" · ".join(items)) if items else None


def _meaning(option: HouseOption, value: str) -> Msg:
    if option.name == "suits":
        return msg("house.mean.suits", order=" > ".join(_SUIT_SHOWN[s] for s in value))
    if option.name == "open":
        return msg("house.mean.open", need=value)
    return msg(f"house.mean.{option.name}.{value}")


def rules_lines(
    game: str, group: str, options: Mapping[str, Any], pending: Mapping[str, Any] | None = None
) -> list[Msg]:
    """Every house option of the game with its current value and what it means, each pending
    change under its option (`deck: 52 → 32 from the next hand`)."""
    values = current(game, options)
    later = {name: str(value) for name, value in (pending or {}).items()}
    lines = [msg(f"house.title.{group}")]
    for option in options_for(game):
        value = values[option.name]
        lines.append(
            msg(
                "house.line",
                name=option.name,
                alias=option.aliases[0],
                value=value,
                meaning=_meaning(option, value),
            )
        )
        if option.name in later:
            new = later[option.name]
            lines.append(
                msg(
                    f"house.pending_line.{group}",
                    name=option.name,
                    alias=option.aliases[0],
                    old=value,
                    new=new,
                    meaning=_meaning(option, new),
                )
            )
    return lines


def announce(who_name: str, changes: Mapping[str, str]) -> Step:
    """The step of an accepted `rules set`: one announcement and the table message refreshed."""
    step = Step(action={"kind": "rules", "set": dict(changes)})
    items = ", ".join(f"{name}={value}" for name, value in changes.items())
    step.announce("house.changed", moderator=who_name, changes=items)
    step.show_table()
    return step


def _items(changes: Mapping[str, Any]) -> str:
    """`deck=32, peek=once`."""
    return ", ".join(f"{name}={value}" for name, value in changes.items())


@dataclass
class Pending:
    """What a `rules set` asked during a hand or match does to the table's pending changes.

    `pending`: every pending change afterwards (stored values, catalogue order); `later`: the
    asked changes that now wait for the next hand or match; `cancelled`: pending changes the
    request set back to the value in force (name -> that value).
    """

    pending: dict[str, Any]
    later: dict[str, str]
    cancelled: dict[str, str]


def merge_pending(
    game: str, options: Mapping[str, Any], pending: Mapping[str, Any], changes: Mapping[str, str]
) -> Pending:
    """Merge parsed `changes` into a table's `pending` changes: the later value wins, and a
    value equal to the one in force cancels the option's pending change."""
    values = current(game, options)
    merged = {name: str(value) for name, value in pending.items()}
    later: dict[str, str] = {}
    cancelled: dict[str, str] = {}
    for name, value in changes.items():
        if value == values[name]:
            if merged.pop(name, None) is not None:
                cancelled[name] = value
        else:
            merged[name] = later[name] = value
    ordered = {o.name: merged[o.name] for o in options_for(game) if o.name in merged}
    return Pending(stored(ordered), later, cancelled)


def announce_pending(who_name: str, group: str, asked: Mapping[str, str], result: Pending) -> Step:
    """The step of a `rules set` accepted during a hand or match: one announcement of what now
    waits for the next hand (or match) and of what was cancelled, and the table refreshed."""
    step = Step(action={"kind": "rules", "set": dict(asked), "pending": dict(result.pending)})
    lines = []
    if result.later:
        lines.append(
            msg(f"house.changed_next.{group}", moderator=who_name, changes=_items(result.later))
        )
    if result.cancelled:
        lines.append(msg("house.cancelled", moderator=who_name, changes=_items(result.cancelled)))
    step.notes.append(Note(lines, announce=True))
    step.show_table()
    return step


def applied_line(changes: Mapping[str, Any]) -> Msg:
    """The hand-start line of pending changes now in force."""
    return msg("house.applied", changes=_items(changes))


def dropped_line(changes: Mapping[str, Any], reason: Refusal) -> Msg:
    """The hand-start line of pending changes that could not apply, with the reason."""
    return msg("house.dropped", changes=_items(changes), reason=msg(reason.key, **reason.params))


def change(session: TableSession, who: Who, words: Iterable[str]) -> Step:
    """A moderator's `rules set name=value ...` at `session` (the moderator check is the
    caller's): in force at once while no hand or match runs; else pending until the next one
    starts (`apply_pending`), merged with earlier pending changes, the running one untouched.
    Bad names or values are refused either way, and so is a change in force now that the table
    cannot take (`session.rules_problem`)."""
    words = tuple(words)
    if not words:
        raise Refusal(f"err.rules_usage.{session.group}")
    changes = parse(session.game, words)
    if "speed" in changes and session.options.get("tournament"):
        raise Refusal("err.house_speed_tournament")
    if session.running():
        result = merge_pending(session.game, session.options, session.pending, changes)
        if not result.later and not result.cancelled:
            raise Refusal("err.house_in_force", changes=_items(changes))
        session.pending = result.pending
        return announce_pending(who.name, session.group, changes, result)
    options = {**session.options, **stored(changes)}  # a new dict: the snapshot keeps its own
    problem = session.rules_problem(options)
    if problem is not None:
        raise problem
    session.options = options
    session.pending = {k: v for k, v in session.pending.items() if k not in changes}
    return announce(who.name, changes)


def apply_pending(session: TableSession) -> Msg | None:
    """Put `session`'s pending house rule changes in force as a hand or match starts; when the
    table cannot take them (`rules_problem`), they are dropped and the old rules stay. Returns
    the line for the start announcement, or None when nothing was pending."""
    if not session.pending:
        return None
    pending, session.pending = session.pending, {}
    options = {**session.options, **pending}
    problem = session.rules_problem(options)
    if problem is not None:
        return dropped_line(pending, problem)
    session.options = options
    return applied_line(pending)
