"""What the traffic benchmark measures for one game on one platform, and how it is printed next to
the targets of issue 14."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

# Targets (issue 14): channel traffic per human move and per hand, and press answer times.
MAX_GROUP_CALLS_PER_MOVE = 1.5
MAX_NEW_GROUP_PER_POKER_HAND = 2.5
MAX_NEW_GROUP_PER_OKEY_MOVE = 0.25
MAX_ANSWER_P99 = 1.0
MAX_ANSWER_WORST = 2.0


@dataclass
class Traffic:
    """Counts and timings of one game played on one platform (virtual seconds)."""

    platform: str
    game: str
    human_moves: int = 0  # accepted game actions of human players
    presses: int = 0  # every button press (amounts, draw picks, refused presses included)
    refused: int = 0  # presses answered with a refusal
    hands: int = 0  # hands (poker) or rounds (Okey) played
    group_calls: int = 0  # every request that writes to the group/channel (sends, edits, deletes)
    new_group: int = 0  # new messages in the group/channel
    private_calls: int = 0  # requests to a player's private chat, DMs or ephemeral replies
    answers: list[float] = field(default_factory=list)  # press -> its acknowledgement
    unanswered: int = 0  # presses never acknowledged
    table_lag: list[float] = field(default_factory=list)  # previous move done -> my turn shown
    worst_5s_new_group: int = 0  # most new channel messages in any 5 s
    group_kinds: dict[str, int] = field(default_factory=dict)  # group calls by method
    rate_limited: int | None = None  # requests the fake platform refused with a 429
    virtual_seconds: float = 0.0
    wall_seconds: float = 0.0

    def per_move(self, count: int) -> float:
        """`count` divided by the human moves (nan without moves)."""
        return count / self.human_moves if self.human_moves else math.nan

    def per_hand(self, count: int) -> float:
        """`count` divided by the hands or rounds played (nan without any)."""
        return count / self.hands if self.hands else math.nan


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (`share` in 0..1) of `values`; nan when empty."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(share * len(ordered)))
    return ordered[rank - 1]


def worst_window(times: list[float], seconds: float) -> int:
    """The most events within any window of `seconds` (events at `times`)."""
    ordered, best, start = sorted(times), 0, 0
    for end, at in enumerate(ordered):
        while at - ordered[start] >= seconds:
            start += 1
        best = max(best, end - start + 1)
    return best


def _mark(ok: bool) -> str:
    return "ok  " if ok else "MISS"


def report(t: Traffic) -> str:
    """Several lines: the figures of one game on one platform beside their targets."""
    answers = t.answers
    mean = sum(answers) / len(answers) if answers else math.nan
    p99, worst = percentile(answers, 0.99), max(answers, default=math.nan)
    lag = t.table_lag
    group_move = t.per_move(t.group_calls)
    new_move, new_hand = t.per_move(t.new_group), t.per_hand(t.new_group)
    if t.game == "okey":
        new_line = f"{new_move:6.2f} per human move   (target <= {MAX_NEW_GROUP_PER_OKEY_MOVE})"
        new_ok = new_move <= MAX_NEW_GROUP_PER_OKEY_MOVE
        other = f"{new_hand:.1f} per round"
    else:
        new_line = f"{new_hand:6.2f} per hand         (target <= {MAX_NEW_GROUP_PER_POKER_HAND})"
        new_ok = new_hand <= MAX_NEW_GROUP_PER_POKER_HAND
        other = f"{new_move:.2f} per human move"
    lines = [
        f"--- {t.game} on {t.platform}: {t.human_moves} human moves, {t.presses} presses "
        f"({t.refused} refused), {t.hands} {'rounds' if t.game == 'okey' else 'hands'}, "
        f"{t.virtual_seconds:.0f} s of play in {t.wall_seconds:.1f} s wall",
        f"  {_mark(group_move <= MAX_GROUP_CALLS_PER_MOVE)} group calls       "
        f"{group_move:6.2f} per human move   (target <= {MAX_GROUP_CALLS_PER_MOVE}; "
        f"{t.group_calls} in all"
        + (f"; {t.rate_limited} refused with a 429)" if t.rate_limited is not None else ")"),
        f"  {_mark(new_ok)} new group msgs    {new_line}; {other}; {t.new_group} in all, "
        f"at most {t.worst_5s_new_group} in 5 s",
        "       group calls by kind: "
        + ", ".join(f"{kind} {n}" for kind, n in sorted(t.group_kinds.items())),
        f"       private calls     {t.per_move(t.private_calls):6.2f} per human move   "
        f"({t.private_calls} in all)",
        f"  {_mark(p99 < MAX_ANSWER_P99 and worst <= MAX_ANSWER_WORST and not t.unanswered)} "
        f"press answer      mean {mean:.2f} s, p99 {p99:.2f} s, worst {worst:.2f} s "
        f"(target p99 < {MAX_ANSWER_P99} s, never > {MAX_ANSWER_WORST} s; "
        f"{t.unanswered} unanswered)",
        f"       turn shown after  mean {sum(lag) / len(lag) if lag else math.nan:.2f} s, "
        f"p99 {percentile(lag, 0.99):.2f} s, worst {max(lag, default=math.nan):.2f} s (previous move done -> my buttons)",
    ]
    return "\n".join(lines)


def summary(rows: list[Traffic]) -> str:
    """One line per game and platform with the figures the targets are about."""
    head = (
        f"{'game':8} {'platform':9} {'moves':>5} {'hands':>5} {'grp/move':>8} {'new/move':>8} "
        f"{'new/hand':>8} {'priv/move':>9} {'ans mean':>8} {'ans p99':>7} {'ans max':>7}"
    )
    lines = [head]
    for t in rows:
        mean = sum(t.answers) / len(t.answers) if t.answers else math.nan
        lines.append(
            f"{t.game:8} {t.platform:9} {t.human_moves:5d} {t.hands:5d} "
            f"{t.per_move(t.group_calls):8.2f} {t.per_move(t.new_group):8.2f} "
            f"{t.per_hand(t.new_group):8.2f} {t.per_move(t.private_calls):9.2f} "
            f"{mean:8.2f} {percentile(t.answers, 0.99):7.2f} {max(t.answers, default=math.nan):7.2f}"
        )
    lines.append(
        f"targets: grp/move <= {MAX_GROUP_CALLS_PER_MOVE}; new/hand <= "
        f"{MAX_NEW_GROUP_PER_POKER_HAND} (poker); new/move <= {MAX_NEW_GROUP_PER_OKEY_MOVE} (okey); "
        f"ans p99 < {MAX_ANSWER_P99} s, max <= {MAX_ANSWER_WORST} s"
    )
    return "\n".join(lines)
