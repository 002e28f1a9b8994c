"""`Core.act`: the one way a front end makes a typed move. A move is checked like a press
(nonce, platform, turn, legality) and changes nothing when refused; a button that needs an
answer comes back with the question as data (`Outgoing.prompt`), to the presser alone."""

from __future__ import annotations

from bot.core.i18n import t
from bot.core.messages import NEEDS_AMOUNT, NEEDS_CARDS, WARNING, OutKind, Sender
from bot.core.moves import Ask, ConfirmDiscard, Plan
from games.base import Action
from testkit.drive import live_session
from testkit.helpers import buttons_for, cmd, errors, make_core, press, public_text


def sender(user: str, platform: str = "test") -> Sender:
    return Sender(platform, "c1", user, user.capitalize(), "en")


async def poker_table(core) -> None:
    await core.handle(cmd("ayse", "/poker open turkish 10"))
    await core.handle(cmd("ayse", "/poker join 200"))
    await core.handle(cmd("mehmet", "/poker join 200"))
    await core.handle(cmd("ayse", "/poker start"))


def actor(session) -> str:
    return session.seats[session.actor()].user_id


async def play_until(core, done) -> object:
    """Play on (open when the seat to act may, else pass, check or call) until `done(session)`
    holds; the session then."""
    for _ in range(300):
        session = live_session(core)
        if done(session):
            return session
        index = session.engine.to_act()
        kinds = [s.kind for s in session.engine.legal_actions(index)]
        move = Ask("open") if "open" in kinds else Action(plain_move(session))
        out = await core.act(str(session.table_id), sender(actor(session)), session.nonce, move)
        asked = next((o.prompt for o in out if o.prompt is not None), None)
        if asked is not None:  # an opening with a range: its least
            out = await core.act(
                asked.table_id, sender(actor(session)), asked.nonce, asked.answer(asked.min_amount)
            )
        assert not errors(out), errors(out)
    raise AssertionError("never reached")


def ranged(session) -> object | None:
    """A bet or raise of the seat to act with a range to choose from (public limits)."""
    specs = session.engine.public_legal_actions(session.engine.to_act())
    return next(
        (s for s in specs if s.kind in ("bet", "raise") and s.min_amount != s.max_amount), None
    )


def plain_move(session) -> str:
    """A move of the seat to act that takes nothing: pass, check, call or fold."""
    kinds = [s.kind for s in session.engine.public_legal_actions(session.engine.to_act())]
    return next(k for k in ("pass", "check", "call", "fold") if k in kinds)


async def test_a_typed_move_is_made_and_a_stale_or_foreign_one_refused(store):
    core = make_core(store, seed="act")
    await poker_table(core)
    session = live_session(core)
    table, nonce, version = str(session.table_id), session.nonce, session.hand_no
    who = actor(session)
    move = Action(plain_move(session))
    stored = (await store.get_table(session.table_id)).version
    # another platform's table, a wrong nonce: refused, nothing stored
    out = await core.act(table, sender(who, "discord"), nonce, move)
    assert errors(out) == [t("en", "err.no_such_table")]
    out = await core.act(table, sender(who), "000000", move)
    assert errors(out) == [t("en", "err.stale_button")]
    out = await core.act(table, sender(who), nonce, Plan("open_best"))  # not a poker move
    assert errors(out) == [t("en", "err.bad_button")]
    assert (await store.get_table(session.table_id)).version == stored
    # the right one: made, committed, the turn's nonce renewed
    out = await core.act(table, sender(who), nonce, move)
    assert not errors(out), errors(out)
    assert (await store.get_table(session.table_id)).version > stored
    assert live_session(core).nonce != nonce or live_session(core).hand_no != version


async def test_act_and_the_press_of_the_same_button_do_the_same(tmp_path):
    """Two tables dealt alike: one played by pressing the button, one by `act` with the
    button's move (what `MoveCodec` decodes it into); the stored results agree."""
    from storage import Store

    outs = []
    for name, by_act in (("press", False), ("act", True)):
        store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / name}.db")
        try:
            core = make_core(store, seed="same")
            await poker_table(core)
            session = live_session(core)
            out = await core.handle(cmd(actor(session), "/poker table"))
            fold = buttons_for(out, None)[plain_move(session)]
            user = actor(session)
            if by_act:
                out = await core.act(fold.table_id, sender(user), fold.nonce, fold.move)
            else:
                out = await core.press(press(user, fold))
            state = live_session(core).to_dict()
            state = {k: v for k, v in state.items() if k not in ("nonce", "touched", "deadline")}
            outs.append(([o.kind for o in out], public_text(out), state))
        finally:
            await store.close()
    assert outs[0] == outs[1]


async def test_an_amount_asked_comes_back_as_data_to_the_presser(store):
    core = make_core(store, seed="ask")
    await poker_table(core)
    session = await play_until(core, lambda s: ranged(s) is not None)
    spec = ranged(session)
    who = actor(session)
    stored = (await store.get_table(session.table_id)).version
    out = await core.act(str(session.table_id), sender(who), session.nonce, Ask(spec.kind))
    [refusal] = out
    assert refusal.kind is OutKind.ERROR and refusal.user_id == who
    prompt = refusal.prompt
    assert prompt is not None and prompt.kind == NEEDS_AMOUNT
    assert (prompt.table_id, prompt.nonce, prompt.action) == (
        str(session.table_id),
        session.nonce,
        spec.kind,
    )
    assert (prompt.min_amount, prompt.max_amount) == (spec.min_amount, spec.max_amount)
    assert (await store.get_table(session.table_id)).version == stored
    # the answer is the move itself
    out = await core.act(
        prompt.table_id, sender(who), prompt.nonce, prompt.answer(prompt.min_amount)
    )
    assert not errors(out), errors(out)


async def test_a_draw_asks_for_the_cards_privately_with_the_players_own_hand(store):
    core = make_core(store, seed="drawask")
    await poker_table(core)
    session = live_session(core)
    session = await play_until(core, lambda s: s.engine.view(None)["phase"] == "draw")
    who = actor(session)
    index = session.engine.to_act()
    hand = session.engine.view(index)["hand"]
    nonce = session.nonce
    out = await core.act(str(session.table_id), sender(who), nonce, Ask("draw"))
    assert not errors(out), errors(out)
    assert all(o.kind is OutKind.PRIVATE and o.user_id == who for o in out)  # to them alone
    [asked] = [o.prompt for o in out if o.prompt is not None]
    assert asked.kind == NEEDS_CARDS and asked.nonce == nonce
    assert [p.code for p in asked.choices] == list(dict.fromkeys(hand))
    assert live_session(core).nonce == nonce  # nothing was played
    out = await core.act(asked.table_id, sender(who), asked.nonce, asked.answer())  # stand pat
    assert not errors(out), errors(out)


async def test_the_101_warning_comes_back_as_data_and_its_confirm_is_a_move(store):
    core = make_core(store, seed="web101-2")
    await core.handle(cmd("ayse", "/okey start 101 1 10"))
    await core.handle(cmd("mehmet", "/okey join"))
    out = await core.handle(cmd("ayse", "/okey begin"))
    session = live_session(core)
    game = session.game101
    index = game.to_act()
    who = session.seats[session.find(session.staked[index])].user_id
    assert game.okey in game.racks[index]  # discarding the okey costs +101
    table, nonce = str(session.table_id), session.nonce
    out = await core.act(table, sender(who), nonce, Action("discard", cards=(game.okey,)))
    [warning] = [o for o in out if o.prompt is not None]
    assert warning.user_id == who and warning.kind is OutKind.PRIVATE
    assert warning.prompt.kind == WARNING and warning.prompt.tile == game.okey
    assert warning.prompt.confirm() == ConfirmDiscard(game.okey)
    assert live_session(core).nonce == nonce  # nothing played
    out = await core.act(table, sender(who), nonce, warning.prompt.confirm())
    assert not errors(out), errors(out)
    assert "+101" in public_text(out)
