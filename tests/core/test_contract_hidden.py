"""A table view (`Core.table_view`) never holds a card hidden from its viewer.

Hidden twins (`testkit.hidden`): a table is played to some point, copied twice, and in the
second copy the cards hidden from one viewer (the other players' cards or tiles, the stock) are
permuted before a core starts on it. Both cores must give that viewer, a seated player or a
spectator, the very same view. Açık poker, Türk pokeri and Okey, every viewer, several points of
a hand or round.
"""

from __future__ import annotations

import pytest
from hypothesis import event

from testkit.helpers import cmd
from testkit.hidden import (
    Bases,
    ViewerTwins,
    check_viewer_twins,
    okey_prelude,
    poker_prelude,
    run_examples,
    table_session,
)

PLAYERS = {
    "turkish": ("ayse", "mehmet", "cem", "deniz"),
    "acik": ("ayse", "mehmet", "cem"),
    "okey": ("ayse", "mehmet", "cem", "deniz"),
}
MOVES = (0, 1, 3, 6, 10)
SEEDS = (0, 1)


def prelude(game: str, seed: int) -> list[str]:
    """Open a table, seat the players, deal."""
    if game == "okey":
        return okey_prelude(PLAYERS[game], f"{1 + 2 * seed} 10")
    return poker_prelude(PLAYERS[game], game)


BASES = Bases("view", prelude, MOVES, SEEDS)


async def same_view(twins: ViewerTwins) -> None:
    """The viewer gets the same table view from both twins."""
    view_a = await twins.a.table_view(twins.table, "test", twins.viewer)
    view_b = await twins.b.table_view(twins.table, "test", twins.viewer)
    assert view_a is not None
    assert view_a == view_b
    event("spectator" if view_a.me is None else "seated")


@pytest.mark.parametrize("game", ["turkish", "acik", "okey"])
def test_a_view_never_depends_on_cards_hidden_from_its_viewer(game, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"view-{game}")

    async def check(data) -> None:
        await check_viewer_twins(tmp, await BASES.draw(tmp, game, data), data, same_view)

    run_examples(20, check)


# --- the previous hand's end (`TableView.last`) ---------------------------------------------------


def public_line(session) -> tuple[str, str]:
    """A move of the seat to act chosen from public information only (fold to a bet, the
    smallest bet, pass, check, stand pat), so that both twins play the very same moves."""
    index = session.engine.to_act()
    user = session.seat_of_engine(index).user_id
    specs = {spec.kind: spec for spec in session._public_specs(index)}
    kinds = list(specs)
    if "fold" in kinds and "call" in kinds:  # a bet to face (folding unbet is refused)
        return user, "/poker fold"
    if "bet" in kinds:  # the others then fold: the hand ends without a showdown
        return user, f"/poker bet {specs['bet'].min_amount}"
    for kind in ("pass", "check"):
        if kind in kinds:
            return user, f"/poker {kind}"
    if "draw" in kinds:
        return user, "/poker pat"
    return user, "/poker fold"


async def fold_out(core) -> tuple[bool, set[str]]:
    """Play the running hand to its end with `public_line` moves: (whether it ended at a
    showdown, the users who folded in it)."""
    session = table_session(core)
    hand = session.hand_no
    folded: set[str] = set()
    for _ in range(60):
        session = table_session(core)
        if session is None or session.hand_no != hand or session.actor() is None:
            break
        user, line = public_line(session)
        if line == "/poker fold":
            folded.add(user)
        await core.handle(cmd(user, line))
    session = table_session(core)
    ended = None if session is None else session.last
    shown = bool(ended) and any(p["shown"] for p in ended["players"])
    return shown, folded


async def twins_after_fold_out(tmp, game: str, data, compare) -> None:
    """Hidden twins of a hand in play, played on to its end by the same public moves; then
    `compare(core_a, core_b, table, viewer, showdown, folded)`."""

    async def check(twins: ViewerTwins) -> None:
        showdown_a, folded = await fold_out(twins.a)
        showdown_b, folded_b = await fold_out(twins.b)
        assert folded == folded_b
        showdown = showdown_a or showdown_b
        await compare(twins.a, twins.b, twins.table, twins.viewer, showdown, folded)
        event("showdown" if showdown else "folded out")

    saved = await BASES.draw(tmp, game, data)
    await check_viewer_twins(tmp, saved, data, check, hand_in_play=True)


async def same_last(core_a, core_b, table: str, viewer: str, showdown: bool, folded) -> None:
    """The viewer sees the same previous hand in both twins unless it ended at a showdown
    (which shows cards the twins hold differently); a folded hand is never in it."""
    view_a = await core_a.table_view(table, "test", viewer)
    view_b = await core_b.table_view(table, "test", viewer)
    assert view_a is not None and view_b is not None
    assert view_a.last is not None and view_b.last is not None
    for last in (view_a.last, view_b.last):
        assert all(p.shown == () for p in last.players if p.user_id in folded)
    if not showdown:
        assert view_a.last == view_b.last


@pytest.mark.parametrize("game", ["turkish", "acik"])
def test_the_previous_hand_never_depends_on_cards_hidden_from_its_viewer(game, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"last-{game}")

    async def check(data) -> None:
        await twins_after_fold_out(tmp, game, data, same_last)

    run_examples(12, check)


# --- reactions (issue 37) ----------------------------------------------------------------------


async def reactions_seen(core, table: str, viewer: str) -> tuple[object, ...]:
    """What a viewer gets of every seated player's reactions: the reaction frames' data (table,
    seat, reaction), their own picker and answers (or refusals), and, once the next public
    move commits, the table message and the viewer's move log with the reactions folded in."""
    from bot.core.messages import Sender
    from bot.core.moves import React
    from bot.core.reactions import REACTIONS

    heard: list[tuple[str, int, str]] = []
    core.watch_reactions(lambda *told: heard.append(told))
    session = table_session(core)
    answers = []
    for index, seat in enumerate(session.seats):
        if seat.bot:
            continue
        sender = Sender("test", "c1", seat.user_id, seat.name, "en")
        reaction = REACTIONS[index % len(REACTIONS)]
        answers.append(await core.act(table, sender, "any", React(reaction)))
    mine = Sender("test", "c1", viewer, viewer.capitalize(), "en")
    picker = await core.act(table, mine, "any", React(None))
    answers.append(
        [(o.kind, o.user_id, o.text, [[b.action for b in r] for r in o.buttons]) for o in picker]
    )
    user, line = public_line(session)
    out = await core.handle(cmd(user, line))
    table_text = [o.text for o in out if o.kind.value == "edit_table"]
    view = await core.table_view(table, "test", viewer)
    return tuple(heard), tuple(map(str, answers)), tuple(table_text), view.moves if view else None


@pytest.mark.parametrize("game", ["turkish", "acik"])
def test_reactions_never_depend_on_cards_hidden_from_their_viewer(game, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"reactions-{game}")

    async def same_reactions(twins: ViewerTwins) -> None:
        hand = table_session(twins.a).hand_no
        seen_a = await reactions_seen(twins.a, twins.table, twins.viewer)
        seen_b = await reactions_seen(twins.b, twins.table, twins.viewer)
        assert seen_a[0] and seen_a[:2] == seen_b[:2]  # the frames, the picker, the answers
        session = table_session(twins.a)
        if session is not None and session.running() and session.hand_no == hand:
            # the same hand plays on (no showdown, no new deal): nothing else differs, and the
            # move log holds the reactions folded into one line
            assert seen_a == seen_b
            assert any(" · " in line for line in seen_a[3] or ())
        event("seated" if twins.seated else "spectator")

    async def check(data) -> None:
        saved = await BASES.draw(tmp, game, data)
        await check_viewer_twins(tmp, saved, data, same_reactions, hand_in_play=True)

    run_examples(10, check)
