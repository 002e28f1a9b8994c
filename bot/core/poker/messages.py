"""What a poker table says and shows: the table message and its turn buttons, each engine
event in words, a player's own cards (texts and pictures), the rules and `/verify`. Public lines
read only public information (`view(None)`); a player's cards go only to that player.

`PokerMessages` is mixed into `bot.core.poker.session.PokerSession`, whose state it reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.core.errors import Refusal
from bot.core.i18n import hand_name
from bot.core.messages import NEEDS_AMOUNT, NEEDS_CARDS
from bot.core.moves import Ask
from bot.core.poker import odds_cache
from bot.core.poker.words import AMOUNT_KINDS
from bot.core.sketch import Sketch
from bot.core.table import house, pictures
from bot.core.table.fairness import check_seed
from bot.core.table.session import ButtonSpec, Msg, TableSession, msg
from bot.render import text as show
from games.base import Action, Event, seed_from_hex, shuffled
from games.poker import acik, turkish
from games.poker.odds import Odds

BET_EVENTS = ("bet", "checked", "called", "raised", "folded")


class PokerMessages(TableSession):
    """The poker table's lines, buttons and pictures (mixed into `PokerSession`)."""

    # the state of `PokerSession` these are built from
    chips: dict[str, int]
    engine: Any
    in_hand: list[int]
    carried: int

    if TYPE_CHECKING:  # provided by `PokerSession`

        def engine_seat(self, player_id: int) -> int | None: ...

        def name(self, index: int) -> str: ...

        def public_odds(self, view: dict[str, Any] | None) -> Odds | None: ...

    def buttons(self) -> list[ButtonSpec]:
        """Buttons of the move kinds the seat to act may make."""
        if not self.running():
            return []
        index = self.engine.to_act()
        if index is None:
            return []
        view = self.engine.view(None)
        out = []
        public_specs = getattr(self.engine, "public_legal_actions", self.engine.legal_actions)
        for spec in public_specs(index):
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
                        Action(kind),
                        msg(f"btn.{kind}"),
                        "danger" if kind == "fold" else "secondary",
                    )
                )
        return out

    def table_lines(self) -> list[Msg]:
        """Header, each seat's chips and state, pot, and whose turn it is."""
        lines = [
            msg(
                "poker.head",
                game=msg(f"game.{self.game}"),
                table=self.table_id,
                ante=self.options["ante"],
                structure=msg(f"structure.{self.options['structure']}"),
            )
        ]
        rules = house.summary(self.game, self.options)
        if rules is not None:
            lines.append(rules)
        view = self.engine.view(None) if self.running() else None
        odds = self.public_odds(view)
        actor = self.actor()
        for i, seat in enumerate(self.seats):
            marker = "▶" if i == actor else "·"
            notes: list[Msg] = []
            chips = self.chips.get(str(seat.player_id), 0)
            if view is not None and seat.player_id in self.in_hand:
                e = self.in_hand.index(seat.player_id)
                chips = view["stacks"][e]
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
            elif view is not None:
                notes.append(msg("seat.next_hand"))
            if seat.bot:
                notes.append(msg("seat.bot_level", level=msg(f"level.{seat.level}")))
            if seat.away:
                notes.append(msg("seat.away"))
            if seat.leaving:
                notes.append(msg("seat.leaving"))
            lines.append(msg("poker.seat", marker=marker, name=seat.name, chips=chips, notes=notes))
        if view is not None:
            lines.append(msg("poker.pot", pot=view["pot"], hand=self.hand_id()))
            if actor is not None:
                lines.append(
                    msg(
                        "poker.turn",
                        name=self.seats[actor].name,
                        phase=_phase(view),
                    )
                )
        else:
            if self.carried:
                lines.append(msg("poker.carried", pot=self.carried))
            lines.append(msg("poker.idle", min=self.options["min_buy_in"]))
        return lines

    def private_lines(self, index: int, sub: str, args: tuple[str, ...]) -> list[Msg]:
        """`/poker hand`: the player's cards in the running hand."""
        seat = self.seats[index]
        if not self.running():
            raise Refusal("err.no_hand")
        e = self.engine_seat(seat.player_id)
        if e is None:
            raise Refusal("err.not_in_hand")
        view = self.engine.view(e)
        if view["folded"][e]:
            return [msg("poker.you_folded")]
        if view.get("down_hidden"):  # peek=once: the deal's message was the one look
            raise Refusal("illegal.peek_used")
        if "down" in view:  # Açık poker: the down card, then the up cards everyone sees
            down = show.card(view["down"]) if view["down"] else "?"
            lines = [msg("poker.your_acik", down=down, up=show.cards(view["up"][e]) or "—")]
            public = self.public_odds(self.engine.view(None))
            if public is not None and public.percent(e) is not None:
                mine = odds_cache.odds(view).percent(e)  # kept per position
                lines.append(msg("poker.your_odds", percent=mine, public=public.percent(e)))
            return lines
        lines = [msg("poker.your_cards", cards=show.cards(view["hand"]) or "—")]
        if view.get("has_openers") and view["phase"] == "bet1":
            lines.append(msg("poker.can_open"))
        return lines

    def rules_lines(self) -> list[Msg]:
        """The table's options: ante, structure, buy-in and seats, the game's rules in short,
        then every house rule with its value and meaning."""
        return [
            msg(
                "poker.rules",
                game=msg(f"game.{self.game}"),
                ante=self.options["ante"],
                structure=msg(f"structure.{self.options['structure']}"),
                min=self.options["min_buy_in"],
                seats=self.max_seats,
            ),
            msg(f"rules.{self.game}"),
            *house.rules_lines(self.game, self.group, self.options, self.pending),
        ]

    def _private_event(self, event: Event) -> list[Msg]:
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

    def _public_event(self, event: Event) -> list[Msg]:
        """One public engine event as lines; only the fields named here are ever shown."""
        line = self._public_line(event)
        return line if isinstance(line, list) else [line]

    def _public_line(self, event: Event) -> Msg | list[Msg]:
        d = event.data
        kind = event.kind
        if kind == "hand_started":
            return msg(
                "ev.hand_started", hash=d["seed_hash"], pot=d["pot"], carried=d["carried_pot"]
            )
        if kind in ("opened", "passed"):
            return msg(f"ev.{kind}", name=self.name(d["seat"]), stake=d["stake"], pot=d["pot"])
        if kind in BET_EVENTS and "action" in d:
            key = f"ev.{d['action']}"
            allin = msg("ev.all_in") if d.get("all_in") else ""
            added = d.get("added", d["stake"])  # a call names the chips added, like its button
            return msg(
                key,
                name=self.name(d["seat"]),
                stake=d["stake"],
                added=added,
                pot=d["pot"],
                all_in=allin,
            )
        if kind == "opening_was_legal":
            return msg("ev.opening_legal", name=self.name(d["seat"]))
        if kind == "carried":
            return msg("ev.carried", pot=d["pot"])
        if kind == "won":
            key = "ev.won_uncontested" if d.get("uncontested") else "ev.won"
            return msg(key, name=self.name(d["seat"]), amount=d["amount"])
        if kind == "returned":
            return msg("ev.returned", name=self.name(d["seat"]), amount=d["amount"])
        if kind == "draw_started":
            return msg("ev.draw_started")
        if kind == "drew":
            if not d["count"]:
                return msg("ev.pat", name=self.name(d["seat"]))
            return msg("ev.drew", name=self.name(d["seat"]), count=d["count"])
        if kind == "openers_split":
            return msg("ev.openers_split", name=self.name(d["seat"]))
        if kind == "fourth_card":
            return msg("ev.fourth_card", name=self.name(d["seat"]))
        if kind == "reshuffled":
            return msg("ev.reshuffled", cards=d["cards"])
        if kind == "round_started":
            return msg("ev.round_started", round=d["round"])
        if kind == "dealt_up":
            ups = ", ".join(f"{self.name(c['seat'])} {show.card(c['card'])}" for c in d["cards"])
            return msg("ev.dealt_up", street=d["street"], cards=ups)
        if kind == "speaks_first":
            return msg("ev.speaks_first", name=self.name(d["seat"]), cards=show.cards(d["cards"]))
        if kind == "showdown":
            rows = [
                msg(
                    "ev.shows",
                    name=self.name(h["seat"]),
                    cards=show.cards(h["cards"]),
                    hand=hand_name(self.locale, self.game, h["category"]),
                )
                for h in d["hands"]
            ]
            return [msg("ev.showdown"), *rows]
        return []

    def _names(self) -> list[str]:
        return [self.name(i) for i in range(len(self.in_hand))]

    def _showdown_sketch(self, event: Event, won: set[int]) -> Sketch | None:
        """The public table at showdown: shown hands named, the seats that won a pot framed
        and their hand name as the caption."""
        labels = {
            h["seat"]: hand_name(self.locale, self.game, h["category"]) for h in event.data["hands"]
        }
        return pictures.poker_table(self.engine.view(None), self._names(), self.locale, labels, won)

    def table_sketch(self) -> Sketch | None:
        """The public table of the running hand (from `view(None)`), when pictures are on."""
        if not self.running() or not self.draws_for(None):
            return None
        view = self.engine.view(None)
        odds = self.public_odds(view)
        percents = None if odds is None else [odds.percent(e) for e in range(len(self.in_hand))]
        return pictures.poker_table(view, self._names(), self.locale, odds=percents)

    def private_sketch(self, index: int, sub: str, args: tuple[str, ...]) -> Sketch | None:
        """`/poker hand`'s picture: the player's own cards (none once folded)."""
        seat = self.seats[index]
        e = self.engine_seat(seat.player_id)
        if e is None or not self.draws_for(seat):
            return None
        view = self.engine.view(e)
        return None if view["folded"][e] else pictures.poker_hand(view, seat.locale)

    @classmethod
    def verify_lines(cls, info: dict[str, Any], seed_hex: str, posted_hash: str) -> list[Msg]:
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
