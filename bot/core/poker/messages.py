"""What a poker table says and shows, as functions of data: the table message (`table_lines`
of a `PokerTable` record) and its turn buttons, each engine event in words
(`PokerPresenter.describe`), a player's own cards (texts and pictures), the rules and
`/verify`. Nothing here reads a session: the live table, `/replay` and the web moves list call
the same functions with the same data and get the same lines. Public lines read only public
information (`view(None)`); a player's cards go only to that player.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.errors import Refusal
from bot.core.i18n import hand_name
from bot.core.messages import NEEDS_AMOUNT, NEEDS_CARDS
from bot.core.moves import Ask
from bot.core.poker import odds_cache
from bot.core.poker.words import AMOUNT_KINDS
from bot.core.sketch import Sketch
from bot.core.table import house, last, pictures
from bot.core.table.fairness import check_seed
from bot.core.table.kept import away_note
from bot.core.table.session import ButtonSpec, Msg, Seat, msg
from bot.render import text as show
from games.base import Action, ActionSpec, Event, seed_from_hex, shuffled
from games.poker import acik, turkish
from games.poker.odds import Odds

BET_EVENTS = ("bet", "checked", "called", "raised", "folded")


@dataclass(frozen=True)
class PokerTable:
    """What a poker table's message is built from: the table's game, id, options and seats,
    each player's chips behind, the player ids of the running hand's engine seats, its public
    view (`view(None)`, None between hands) and public odds, the table seat to act, the
    carried pot and the hand's id."""

    game: str
    table_id: int
    options: dict[str, Any]
    seats: Sequence[Seat]
    chips: Mapping[str, int]
    in_hand: Sequence[int]
    view: dict[str, Any] | None
    odds: Odds | None
    actor: int | None
    carried: int
    hand_id: str


@dataclass(frozen=True)
class PokerPresenter:
    """Poker events in words for one variant (`game`: a showdown names the hands by its
    rules); `names` are the players of the hand's engine seats, in seat order."""

    game: str

    def describe(self, event: Event, names: Sequence[str], locale: str) -> list[Msg]:
        """One public engine event as lines; only the fields named here are ever shown."""
        line = self._line(event, names, locale)
        return line if isinstance(line, list) else [line]

    def own(self, event: Event) -> list[Msg]:
        """A private event (of the player it was dealt to) as lines: their cards."""
        data = event.data
        if event.kind == "hand":
            return [msg("poker.your_cards", cards=show.cards(data["cards"]))]
        if event.kind == "hole":
            return [msg("poker.your_down_card", card=show.card(data["card"]))]
        if event.kind == "drew_cards":
            if not data["received"]:
                return []  # stood pat: the public line says so and the cards did not change
            return [
                msg(
                    "poker.you_drew",
                    received=show.cards(data["received"]) or "—",
                    cards=show.cards(data["hand"]),
                )
            ]
        if "cards" in data:
            return [msg("poker.your_cards", cards=show.cards(data["cards"]))]
        return []

    def _line(self, event: Event, names: Sequence[str], locale: str) -> Msg | list[Msg]:
        d = event.data
        kind = event.kind
        if kind == "hand_started":
            return msg(
                "ev.hand_started", hash=d["seed_hash"], pot=d["pot"], carried=d["carried_pot"]
            )
        if kind in ("opened", "passed"):
            return msg(f"ev.{kind}", name=names[d["seat"]], stake=d["stake"], pot=d["pot"])
        if kind in BET_EVENTS and "action" in d:
            allin = msg("ev.all_in") if d.get("all_in") else ""
            added = d.get("added", d["stake"])  # a call names the chips added, like its button
            return msg(
                f"ev.{d['action']}",
                name=names[d["seat"]],
                stake=d["stake"],
                added=added,
                pot=d["pot"],
                all_in=allin,
            )
        if kind == "opening_was_legal":
            return msg("ev.opening_legal", name=names[d["seat"]])
        if kind == "carried":
            return msg("ev.carried", pot=d["pot"])
        if kind == "won":
            key = "ev.won_uncontested" if d.get("uncontested") else "ev.won"
            return msg(key, name=names[d["seat"]], amount=d["amount"])
        if kind == "returned":
            return msg("ev.returned", name=names[d["seat"]], amount=d["amount"])
        if kind == "draw_started":
            return msg("ev.draw_started")
        if kind == "drew":
            if not d["count"]:
                return msg("ev.pat", name=names[d["seat"]])
            return msg("ev.drew", name=names[d["seat"]], count=d["count"])
        if kind == "openers_split":
            return msg("ev.openers_split", name=names[d["seat"]])
        if kind == "fourth_card":
            return msg("ev.fourth_card", name=names[d["seat"]])
        if kind == "reshuffled":
            return msg("ev.reshuffled", cards=d["cards"])
        if kind == "round_started":
            return msg("ev.round_started", round=d["round"])
        if kind == "dealt_up":
            ups = ", ".join(f"{names[c['seat']]} {show.card(c['card'])}" for c in d["cards"])
            return msg("ev.dealt_up", street=d["street"], cards=ups)
        if kind == "speaks_first":
            return msg("ev.speaks_first", name=names[d["seat"]], cards=show.cards(d["cards"]))
        if kind == "showdown":
            rows = [
                msg(
                    "ev.shows",
                    name=names[h["seat"]],
                    cards=show.cards(h["cards"]),
                    hand=hand_name(locale, self.game, h["category"]),
                )
                for h in d["hands"]
            ]
            return [msg("ev.showdown"), *rows]
        return []


def turn_buttons(specs: Sequence[ActionSpec], view: dict[str, Any], index: int) -> list[ButtonSpec]:
    """Buttons of the move kinds engine seat `index` may make (`specs`: the moves it is offered
    in public), from the hand's public view."""
    out = []
    for spec in specs:
        kind = spec.kind
        if kind in AMOUNT_KINDS:
            out.append(
                ButtonSpec(
                    Ask(kind),
                    msg(f"btn.{kind}", range=_range(spec.min_amount, spec.max_amount)),
                    "primary",
                    NEEDS_AMOUNT,
                    spec.min_amount,
                    spec.max_amount,
                )
            )
        elif kind == "draw":
            out.append(
                ButtonSpec(
                    Ask("draw"),
                    msg("btn.draw", max=spec.max_cards),
                    "primary",
                    NEEDS_CARDS,
                    max_cards=spec.max_cards,
                )
            )
            out.append(ButtonSpec(Action("draw"), msg("btn.pat")))
        elif kind == "call":
            owed = min(view["current_bet"] - view["stakes"][index], view["stacks"][index])
            out.append(ButtonSpec(Action("call"), msg("btn.call", amount=owed), "success"))
        else:
            out.append(
                ButtonSpec(
                    Action(kind), msg(f"btn.{kind}"), "danger" if kind == "fold" else "secondary"
                )
            )
    return out


def table_lines(table: PokerTable) -> list[Msg]:
    """Header, each seat's chips and state, pot, and whose turn it is."""
    o = table.options
    lines = [
        msg(
            "poker.head",
            game=msg(f"game.{table.game}"),
            table=table.table_id,
            ante=o["ante"],
            structure=msg(f"structure.{o['structure']}"),
        )
    ]
    rules = house.summary(table.game, o)
    if rules is not None:
        lines.append(rules)
    view = table.view
    for i, seat in enumerate(table.seats):
        marker = "▶" if i == table.actor else "·"
        chips = table.chips.get(str(seat.player_id), 0)
        notes: list[Msg] = []
        if view is not None and seat.player_id in table.in_hand:
            e = table.in_hand.index(seat.player_id)
            chips = view["stacks"][e]
            notes += _hand_notes(view, e, table.odds)
        elif view is not None:
            notes.append(msg("seat.next_hand"))
        if seat.bot:
            notes.append(msg("seat.bot_level", level=msg(f"level.{seat.level}")))
        if seat.away:
            notes.append(away_note(seat))
        if seat.leaving:
            notes.append(msg("seat.leaving"))
        lines.append(msg("poker.seat", marker=marker, name=seat.name, chips=chips, notes=notes))
    if view is not None:
        lines.append(msg("poker.pot", pot=view["pot"], hand=table.hand_id))
        if table.actor is not None:
            name = table.seats[table.actor].name
            lines.append(msg("poker.turn", name=name, phase=_phase(view)))
    else:
        if table.carried:
            lines.append(msg("poker.carried", pot=table.carried))
        lines.append(msg("poker.idle", min=o["min_buy_in"]))
    return lines


def _hand_notes(view: dict[str, Any], e: int, odds: Odds | None) -> list[Msg]:
    """The notes on engine seat `e`'s line while a hand runs (from its public view)."""
    notes: list[Msg] = []
    if view["folded"][e]:
        notes.append(msg("seat.folded"))
    elif view["all_in"][e]:
        notes.append(msg("seat.all_in"))
    if view["stakes"][e]:
        notes.append(msg("seat.stake", stake=view["stakes"][e]))
    if view.get("drew") and view["drew"][e] is not None:
        drew = view["drew"][e]
        notes.append(msg("seat.drew", count=drew) if drew else msg("seat.pat"))
    if view.get("up") and view["up"][e]:
        notes.append(msg("seat.up", cards=show.cards(view["up"][e])))
    if odds is not None and odds.percent(e) is not None:
        notes.append(msg("seat.odds", percent=odds.percent(e)))
    if e == view["dealer"]:
        notes.append(msg("seat.dealer"))
    return notes


def odds_shown(game: str, options: dict[str, Any], view: dict[str, Any] | None) -> bool:
    """True when the table shows live odds for this public view: an Açık hand not over yet at
    a table with `odds=on`."""
    if game != "acik" or view is None or view["finished"]:
        return False
    return bool(house.engine_args(game, options)["table"]["odds"])


def public_odds(game: str, options: dict[str, Any], view: dict[str, Any] | None) -> Odds | None:
    """Açık poker's live odds from public information (`view(None)`), when the table shows
    them; kept until a card is dealt or a player folds."""
    if not odds_shown(game, options, view):
        return None
    assert view is not None
    return odds_cache.odds(view)  # kept per position (`bot.core.poker.odds_cache`)


def own_lines(view: dict[str, Any], e: int, public: Odds | None) -> list[Msg]:
    """`/poker hand`: engine seat `e`'s cards from its own `view` (`public`: the table's public
    odds, shown beside their own in Açık poker)."""
    if view["folded"][e]:
        return [msg("poker.you_folded")]
    if view.get("down_hidden"):  # peek=once: the deal's message was the one look
        raise Refusal("illegal.peek_used")
    if "down" in view:  # Açık poker: the down card, then the up cards everyone sees
        down = show.card(view["down"]) if view["down"] else "?"
        lines = [msg("poker.your_acik", down=down, up=show.cards(view["up"][e]) or "—")]
        if public is not None and public.percent(e) is not None:
            mine = odds_cache.odds(view).percent(e)  # kept per position
            lines.append(msg("poker.your_odds", percent=mine, public=public.percent(e)))
        return lines
    lines = [msg("poker.your_cards", cards=show.cards(view["hand"]) or "—")]
    if view.get("has_openers") and view["phase"] == "bet1":
        lines.append(msg("poker.can_open"))
    return lines


def rules_lines(
    game: str, group: str, options: dict[str, Any], pending: dict[str, Any], seats: int
) -> list[Msg]:
    """The table's options: ante, structure, buy-in and seats, the game's rules in short, then
    every house rule with its value and meaning."""
    return [
        msg(
            "poker.rules",
            game=msg(f"game.{game}"),
            ante=options["ante"],
            structure=msg(f"structure.{options['structure']}"),
            min=options["min_buy_in"],
            seats=seats,
        ),
        msg(f"rules.{game}"),
        *house.rules_lines(game, group, options, pending),
    ]


def showdown_sketch(
    game: str,
    view: dict[str, Any],
    names: Sequence[str],
    locale: str,
    event: Event,
    won: set[int],
) -> Sketch | None:
    """The public table at showdown: shown hands named, the seats that won a pot framed and
    their hand name as the caption."""
    labels = {h["seat"]: hand_name(locale, game, h["category"]) for h in event.data["hands"]}
    return pictures.poker_table(view, list(names), locale, labels, won)


def table_sketch(
    view: dict[str, Any], names: Sequence[str], locale: str, odds: Odds | None
) -> Sketch | None:
    """The public table of the running hand (from `view(None)`)."""
    percents = None if odds is None else [odds.percent(e) for e in range(len(names))]
    return pictures.poker_table(view, list(names), locale, odds=percents)


def last_players(
    view: dict[str, Any], seats: Sequence[Seat], start_stacks: Sequence[int]
) -> list[dict[str, Any]]:
    """A finished hand's players as the live table keeps its end (`bot.core.table.last`), from
    its public view: each engine seat's name, the cards it showed (the engine's public `shown`:
    never a folded hand) and the chips it won or lost."""
    players = []
    for index, seat in enumerate(seats):
        delta = view["stacks"][index] - start_stacks[index]
        shown = view["shown"].get(str(index), ())
        players.append(
            last.player(seat.name, seat.user_id, shown=shown, delta=delta, winner=delta > 0)
        )
    return players


def verify_lines(info: dict[str, Any], seed_hex: str, posted_hash: str) -> list[Msg]:
    """Recompute the deck order and each player's five dealt cards from the seed."""
    lines = [msg("verify.ok" if check_seed(seed_hex, posted_hash) else "verify.bad")]
    players = info["players"]
    seed = seed_from_hex(seed_hex)
    chosen = info.get("rules") or {}  # hands dealt before house rules: the defaults
    if info["game"] == "acik":
        rules = acik.acik_rules(**chosen)
        order = acik.deck_order(rules, seed)
        downs = acik.down_cards(rules, seed, len(players), info["dealer"])
        lines.append(msg("verify.deck", cards=show.cards(str(c) for c in order)))
        lines += [
            msg("verify.down", name=name, cards=show.card(card))
            for name, card in zip(players, downs, strict=True)
        ]
        return lines
    order = shuffled(turkish.turkish_rules(len(players), **chosen).deck, seed, "deal")
    n = len(players)
    first = (info["dealer"] + 1) % n
    hands: list[list[str]] = [[] for _ in range(n)]
    for i in range(turkish.HAND_SIZE * n):
        hands[(first + i) % n].append(str(order[i]))
    lines.append(msg("verify.deck", cards=show.cards(str(c) for c in order)))
    lines += [
        msg("verify.hand", name=name, cards=show.cards(h))
        for name, h in zip(players, hands, strict=True)
    ]
    return lines


def _range(low: int | None, high: int | None) -> str:
    """`30` for a single possible amount, else `30-120`."""
    return str(low) if low == high else f"{low}-{high}"


def _phase(view: dict[str, Any]) -> Msg:
    """The betting phase or Açık street of a view, in words."""
    if "street" in view:
        return msg("phase.street", street=view["street"])
    return msg(f"phase.{view['phase']}")
