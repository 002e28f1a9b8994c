"""Builders that turn an engine's `view()` dict into a scene.

Public scenes (`poker_table_scene`, `okey_table_scene`, `okey_finish_scene`) read only what a
public view holds, so they cannot show a hidden card as long as they are given `view(None)`;
private scenes (`poker_hand_scene`, `okey_rack_scene`) need the seat's own view (its `"hand"`).
Display names and hand names are the caller's (the core knows user names and receives the
showdown events with the hand names in both languages).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.render.pictures.okey101 import MeldRow, Okey101RackScene, Okey101TableScene
from bot.render.pictures.scenes import (
    HandScene,
    OkeyRackScene,
    OkeyTableScene,
    PokerSeat,
    PokerTableScene,
)
from games.okey import arrange


def _names(view: Mapping[str, Any], names: Sequence[str] | None) -> tuple[str, ...]:
    players = list(view["players"])
    if names is None:
        return tuple(str(p) for p in players)
    if len(names) != len(players):
        raise ValueError(f"names needs one entry per seat ({len(players)}), got {len(names)}")
    return tuple(names)


def poker_hand_scene(view: Mapping[str, Any], label: str | None = None) -> HandScene:
    """A player's own cards from their private view (`view(seat)["hand"]`); in Açık poker the
    down card (first in the hand, when the player may see it) is framed as the hole card."""
    if "hand" not in view:
        raise ValueError("a hand picture needs a seat's private view (it has no 'hand')")
    hole = 1 if view.get("game") == "acik" and view.get("down") else 0
    return HandScene(tuple(view["hand"]), label=label, hole=hole)


def _poker_winners(view: Mapping[str, Any]) -> set[int]:
    """The seats paid from a pot they contested, from the view's `payouts` (both games).

    A pot handed back whole to its only contributor (an uncalled bet, the engines' `returned`
    event) is no win. Only the last pot can be one: pots are nested by level, so a single
    eligible seat above the main pot holds the top level alone. The main pot, a split pot and
    any pot below the last are contested. The last side pot paid to one seat cannot be told
    from an uncalled bet by the finished view (it no longer holds the pots' eligible seats), so
    it is not counted: a loser is never framed; a caller holding the `won` events can mark the
    rare seat that won only that pot.
    """
    payouts = view.get("payouts") or (view.get("result") or {}).get("payouts") or []
    paid = [p for p in payouts if p.get("amount", 0) > 0]
    if not paid:
        return set()
    last = max(p["pot"] for p in paid)
    payees: dict[int, set[int]] = {}
    for p in paid:
        payees.setdefault(p["pot"], set()).add(p["seat"])
    return {
        seat
        for pot, seats in payees.items()
        if pot == 0 or pot < last or len(seats) > 1
        for seat in seats
    }


def _poker_cards(view: Mapping[str, Any], seat: int) -> tuple[tuple[str, ...], int]:
    """(face-up cards, face-down count) of a seat as the public may see them."""
    folded = view["folded"][seat]
    if view.get("game") == "acik":
        result = view.get("result") or {}
        shown = result.get("hands", {}).get(str(seat))
        if shown:
            return tuple(shown), 0
        up = tuple(view["up"][seat])
        if folded:
            return (), 0
        return up, 1 if up else 0
    shown = view.get("shown", {}).get(str(seat))
    if shown:
        return tuple(shown), 0
    return (), 0 if folded else view["cards"][seat]


def poker_table_scene(
    view: Mapping[str, Any],
    names: Sequence[str] | None = None,
    hand_labels: Mapping[int, str] | None = None,
    showdown_label: str | None = None,
    odds: Sequence[int | None] | None = None,
) -> PokerTableScene:
    """The public table from `view(None)` of a Türk pokeri or Açık poker hand.

    `names` are display names in seat order (default: the player ids); `hand_labels` the hand
    name per seat at showdown and `showdown_label` the caption (both from the showdown events).
    Folded seats show no cards; a seat's down cards are drawn as backs until they are shown.
    `odds` are Açık poker's public live odds as whole percentages in seat order (the core's
    figures, from `view(None)` only); a folded seat and a finished hand show none.
    """
    game = view.get("game")
    if game not in ("turkish", "acik"):
        raise ValueError(f"not a poker view: game={game!r}")
    labels = hand_labels or {}
    display = _names(view, names)
    finished = bool(view.get("finished"))
    if odds is not None and len(odds) != len(display):
        raise ValueError(f"odds needs one entry per seat ({len(display)}), got {len(odds)}")
    shown_odds = odds if odds is not None and not finished else [None] * len(display)
    winners = _poker_winners(view) if finished else set()
    # Açık poker's view has no all-in list: a live seat with no chips behind is all-in.
    all_in = view.get("all_in") or [
        not finished and stack == 0 and not folded
        for stack, folded in zip(view["stacks"], view["folded"], strict=True)
    ]
    seats = []
    for seat, name in enumerate(display):
        up, down = _poker_cards(view, seat)
        seats.append(
            PokerSeat(
                name=name,
                stack=view["stacks"][seat],
                stake=view["stakes"][seat],
                cards_up=up,
                cards_down_count=down,
                folded=view["folded"][seat],
                all_in=bool(all_in[seat]) and not view["folded"][seat],
                winner=seat in winners,
                hand_label=labels.get(seat),
                odds=None if view["folded"][seat] else shown_odds[seat],
            )
        )
    return PokerTableScene(
        game=game,
        seats=tuple(seats),
        pot=view["pot"],
        to_act=view.get("to_act"),
        dealer=view.get("dealer"),
        showdown_label=showdown_label,
    )


def okey_rack_scene(view: Mapping[str, Any], mode: str = "runs") -> OkeyRackScene:
    """A player's rack from their private view, laid out by `games.okey.arrange` in `mode`
    ("runs" for seri diz, "pairs" for çift diz): melds apart, loose tiles at the end."""
    if "hand" not in view:
        raise ValueError("a rack picture needs a seat's private view (it has no 'hand')")
    indicator = view["indicator"]
    layout = arrange(view["hand"], indicator, mode)
    return OkeyRackScene(
        melds=tuple(tuple(m) for m in layout.melds),
        loose=tuple(layout.loose),
        indicator=indicator,
        okey=view.get("okey"),
    )


def okey_table_scene(view: Mapping[str, Any], names: Sequence[str] | None = None) -> OkeyTableScene:
    """The public Okey table from `view(None)`: discard tops, stock, indicator, turn, penalties.

    `names` are display names in seat order (default: the player ids). Penalties are the match
    totals when the view has them (an OkeyMatch view), else the round's penalties.
    """
    if view.get("game") != "okey":
        raise ValueError(f"not an Okey view: game={view.get('game')!r}")
    display = _names(view, names)
    result = view.get("result") or {}
    totals = view.get("totals") or view.get("penalties")
    return OkeyTableScene(
        names=display,
        discard_tops=tuple(
            pile[-1] if pile else None for pile in view.get("discard_piles", [[]] * len(display))
        ),
        stock_count=view.get("stock", 0),
        indicator=view.get("indicator"),
        to_act=view.get("to_act"),
        penalties=None if totals is None else tuple(totals),
        hand_counts=None if view.get("rack_sizes") is None else tuple(view["rack_sizes"]),
        okey=view.get("okey"),
        winner=result.get("winner"),
        score_word="points"
        if (view.get("options") or {}).get("preset") == "classic"
        else "penalty",
    )


def okey_finish_scene(view: Mapping[str, Any]) -> OkeyRackScene | None:
    """The winner's laid-down hand (public once the round is finished), or None if nobody
    finished. The finishing discard is shown as the one loose tile."""
    result = view.get("result") or {}
    if result.get("reason") != "finished":
        return None
    return OkeyRackScene(
        melds=tuple(tuple(m) for m in result["melds"]),
        loose=(result["discard"],),
        indicator=view.get("indicator"),
        okey=view.get("okey"),
    )


def okey101_table_scene(
    view: Mapping[str, Any], names: Sequence[str] | None = None
) -> Okey101TableScene:
    """The public 101 table from `view(None)` (a round's or a match's): the classic table (discard
    tops, stock, indicator, turn, totals) and the melds lying on the table, each labelled with
    its owner and how they opened (series and value, or pairs)."""
    if view.get("game") != "okey101":
        raise ValueError(f"not a 101 view: game={view.get('game')!r}")
    classic = okey_table_scene({**view, "game": "okey"}, names)
    totals, charged = view.get("totals"), view.get("penalties")
    if totals is not None and charged is not None and view.get("result") is None:
        # a round in play: the match totals with this round's +101 penalties so far
        running = tuple(t + p for t, p in zip(totals, charged, strict=True))
        classic = dataclasses.replace(classic, penalties=running)
    display = classic.names
    opened = view.get("opened") or [None] * len(display)
    values = view.get("opening_values") or [0] * len(display)

    def owner(seat: int) -> str:
        how = opened[seat]
        if how == "pairs":  # "2×": opened with pairs, in both languages
            return f"{display[seat]} (2×)"
        return f"{display[seat]} ({values[seat]})" if how == "series" else display[seat]

    melds = tuple(
        MeldRow(k, owner(int(m["owner"])), tuple(m["tiles"]))
        for k, m in enumerate(view.get("table") or [], start=1)
    )
    return Okey101TableScene(classic, melds)


def okey101_rack_scene(view: Mapping[str, Any], marked: Iterable[str]) -> Okey101RackScene:
    """A 101 player's rack from their own view, by colour and number, the `marked` tiles (those
    that can be laid) flagged."""
    if "hand" not in view:
        raise ValueError("a rack picture needs a seat's private view (it has no 'hand')")
    chosen = set(marked)
    tiles = tuple(sorted(view["hand"], key=_rack_order))
    return Okey101RackScene(
        tiles=tiles,
        marked=tuple(t in chosen for t in tiles),
        indicator=view.get("indicator"),
        okey=view.get("okey"),
    )


def _rack_order(tile: str) -> tuple[int, int]:
    if tile == "F":
        return (9, 0)
    return ("RYBK".index(tile[0]), int(tile[1:]))
