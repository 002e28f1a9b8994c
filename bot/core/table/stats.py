"""Per-hand statistics a player's `/stats` adds up, written into `game_results.detail`.

Poker: a tally per engine seat is kept while the hand is played (`poker_tally`, fed every public
event; the session stores it in its snapshot so a restart mid-hand keeps it), and turned into
each seat's detail when the hand ends (`poker_details`). Okey: each finished round's detail is
read off the round itself (`okey_round_details`). The keys are documented in docs/storage.md
("Hand statistics"); `DETAIL_VERSION` grows when their meaning changes.

Only public facts are recorded (who opened, how many cards were drawn, whose hand was shown),
never a card, so nothing in a detail is hidden from anyone.
"""

from __future__ import annotations

from typing import Any

from games.base import Event

DETAIL_VERSION = 1
# `detail.kind` of a carried pot a player takes when the table ends before anyone won it: in the
# player's history, never a hand played or won (`storage.history`, `storage.tallies`)
CARRIED = "carried"


def new_tally(seats: int) -> list[dict[str, Any]]:
    """An empty tally for a hand of `seats` engine seats."""
    return [
        {
            "opened": False,
            "passed": False,
            "drew": None,
            "folded": None,
            "showdown": False,
            "won": 0,
            "returned": 0,
        }
        for _ in range(seats)
    ]


def poker_tally(tally: list[dict[str, Any]], event: Event) -> None:
    """Count one public engine event of a poker hand into `tally` (private events are ignored)."""
    if event.seat is not None or not tally:
        return
    d = event.data
    kind = event.kind
    if kind == "opened":
        tally[d["seat"]]["opened"] = True
    elif kind == "passed":
        tally[d["seat"]]["passed"] = True
    elif kind == "drew":
        tally[d["seat"]]["drew"] = d["count"]
    elif d.get("action") == "fold" and "seat" in d:
        # Türk pokeri names the betting round (1 before the draw, 2 after), Açık the street
        tally[d["seat"]]["folded"] = d.get("street", d.get("round"))
    elif kind == "showdown":
        for shown in d["hands"]:
            tally[shown["seat"]]["showdown"] = True
    elif kind == "won":
        tally[d["seat"]]["won"] += d["amount"]
    elif kind == "returned":
        tally[d["seat"]]["returned"] += d["amount"]


def poker_details(game: str, tally: list[dict[str, Any]], pot: int) -> list[dict[str, Any]]:
    """Each engine seat's detail of a finished hand; `pot` is every chip the hand paid out
    (won and returned), or the pot carried to the next hand when nobody opened."""
    out = []
    for seat in tally:
        detail: dict[str, Any] = {
            "v": DETAIL_VERSION,
            "won": seat["won"] > 0,
            "pot_won": seat["won"],
            "pot": pot,
            "showdown": seat["showdown"],
            "showdown_won": seat["showdown"] and seat["won"] > 0,
            "folded": seat["folded"],
        }
        if game == "turkish":
            detail.update(
                opened=seat["opened"],
                passed=seat["passed"],
                drew=seat["drew"],
            )
        out.append(detail)
    return out


def hand_pot(tally: list[dict[str, Any]], carried_pot: int) -> int:
    """The size of the hand's pot: what it paid out, or what it carried to the next hand."""
    return sum(s["won"] + s["returned"] for s in tally) or carried_pot


def okey_round_details(round_view: dict[str, Any], match_id: str) -> list[dict[str, Any]]:
    """Each seat's detail of a finished Okey round, from the round's public `view(None)`."""
    result = round_view.get("result") or {}
    finished = result.get("reason") == "finished"
    winner = result.get("winner") if finished else None
    shown_by = round_view.get("indicator_shown_by")
    return [
        {
            "v": DETAIL_VERSION,
            "kind": "round",
            "match": match_id,
            "won": seat == winner,
            "okey_discard": seat == winner and bool(result.get("okey_discard")),
            "pairs": seat == winner and bool(result.get("seven_pairs")),
            "penalty": penalty,
            "indicator": seat == shown_by,
        }
        for seat, penalty in enumerate(round_view["penalties"])
    ]


def okey101_round_details(round_view: dict[str, Any], match_id: str) -> list[dict[str, Any]]:
    """Each seat's detail of a finished 101 round, from the round's public `view(None)`: its
    score (`penalty`), whether it finished (`won`, `okey_finish`, `by_hand`), how it opened
    (`opened`: `series`, `pairs` or None, and `opening` its value) and its +101 discard
    penalties (`discard_penalties`)."""
    result = round_view.get("result") or {}
    winner = result.get("winner") if result.get("reason") == "finished" else None
    charged = [0] * len(round_view["penalties"])
    for entry in round_view.get("penalty_log", []):
        charged[int(entry["seat"])] += 1
    return [
        {
            "v": DETAIL_VERSION,
            "kind": "round",
            "match": match_id,
            "won": seat == winner,
            "okey_finish": seat == winner and bool(result.get("okey_finish")),
            "by_hand": seat == winner and bool(result.get("by_hand")),
            "penalty": penalty,
            "opened": round_view["opened"][seat],
            "series": round_view["opened"][seat] == "series",
            "pairs": round_view["opened"][seat] == "pairs",
            "opening": round_view["opening_values"][seat],
            "discard_penalties": charged[seat],
        }
        for seat, penalty in enumerate(round_view["penalties"])
    ]
