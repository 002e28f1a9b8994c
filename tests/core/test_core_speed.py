"""Table speed (issue 37 item 2): the `speed` house option's turn times, the relaxed table's two
mentions of the player to act, a restart, the rules listing, tournaments and bad values. Time is
the test's clock (`Clock`), never the wall's."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.core.errors import Refusal
from bot.core.messages import Mention, Outgoing, OutKind
from bot.core.poker import sng
from bot.core.table import speed
from games.okey import auto_action
from storage import ActionEntry
from testkit.drive import ai_move, live_session
from testkit.helpers import START, Clock, cmd, errors, make_core, private_to, public_text

TURN = 45  # the bot's own turn seconds in these tests (`normal`)
HOUR = 3600


def mentions(out: list[Outgoing]) -> list[Mention]:
    """The users the channel messages in `out` call."""
    return [o.mention for o in out if o.kind is OutKind.PUBLIC and o.mention is not None]


async def poker_table(core, rules: str = "") -> list[Outgoing]:
    out = await core.handle(cmd("ayse", f"/poker open turkish 10 {rules}".strip()))
    out += await core.handle(cmd("ayse", "/poker join 200"))
    out += await core.handle(cmd("mehmet", "/poker join 200"))
    assert not errors(out), errors(out)
    return out


def actor_seat(core):
    session = live_session(core)
    index = session.actor()
    return None if index is None else session.seats[index]


@pytest.mark.parametrize(
    ("word", "seconds"),
    [
        ("speed=fast", 20),
        ("hız=hızlı", 20),
        ("speed=normal", TURN),
        ("", TURN),
        ("speed=slow", 300),
        ("hiz=yavas", 300),
        ("speed=relaxed", 12 * HOUR),
        ("hız=rahat", 12 * HOUR),
    ],
)
async def test_each_speed_gives_its_turn_time(store, word, seconds):
    clock = Clock()
    core = make_core(store, clock=clock, turn_seconds=TURN)
    await poker_table(core, word)
    await core.handle(cmd("ayse", "/poker start"))
    session = live_session(core)
    assert session.deadline == clock.now + timedelta(seconds=seconds)
    sleeper = actor_seat(core)
    out = await core.tick(clock.advance(seconds - 1))
    assert "took too long" not in public_text(out)
    out = await core.tick(clock.advance(2))
    assert f"{sleeper.name} took too long" in public_text(out)  # time-outs stand as today


async def test_speed_is_a_house_option_of_every_game():
    for game in ("turkish", "acik", "okey", "okey101"):
        names = [o.name for o in speed_options(game)]
        assert names == ["speed"], game
    assert speed.turn_time({"speed": "slow", "tournament": 3}, TURN) == timedelta(seconds=TURN)
    assert speed.turn_time({}, TURN) == timedelta(seconds=TURN)  # stored before the option


def speed_options(game: str):
    from bot.core.table import house

    return [o for o in house.options_for(game) if o.name == "speed"]


async def test_relaxed_calls_the_player_at_the_turn_and_once_before_the_end(store):
    clock = Clock()
    core = make_core(store, clock=clock, turn_seconds=TURN)
    out = await poker_table(core, "speed=relaxed")
    out += await core.handle(cmd("ayse", "/poker start"))
    first = actor_seat(core)
    assert mentions(out) == []  # a player at the table moving at once is not pinged
    assert await core.tick(clock.advance(59)) == []
    out = await core.tick(clock.advance(2))  # the turn has waited a minute: one call
    assert mentions(out) == [Mention(first.user_id, first.name)]
    assert [o.kind for o in out] == [OutKind.PUBLIC]  # only the call, nothing else
    assert out[0].text.startswith(first.name) and "about 12 h to move" in out[0].text
    # nothing more while the turn runs, until an hour before its end
    assert await core.tick(clock.advance(5 * HOUR)) == []
    assert await core.tick(clock.advance(6 * HOUR - 63)) == []
    out = await core.tick(clock.advance(2))
    assert mentions(out) == [Mention(first.user_id, first.name)]
    assert [o.kind for o in out] == [OutKind.PUBLIC]
    assert "runs out in 60 minutes" in out[0].text and out[0].text.startswith(first.name)
    assert await core.tick(clock.advance(30 * 60)) == []  # once, not more
    # a moderator's change during the hand keeps the turn: nobody is called again
    out = await core.handle(cmd("ayse", "/poker rules set deck=52", mod=True))
    out += await core.tick(clock.advance(60))
    assert mentions(out) == []
    # the turn's time runs out (the deadline stands): a time-out as today
    out = await core.tick(clock.advance(30 * 60 - 60))
    assert f"{first.name} took too long" in public_text(out)
    assert mentions(out) == []
    nxt = actor_seat(core)
    if nxt is not None and not nxt.away:  # the next turn is called a minute on, once
        out = await core.tick(clock.advance(61))
        assert mentions(out) == [Mention(nxt.user_id, nxt.name)]
        assert await core.tick(clock.advance(60)) == []


async def test_relaxed_players_who_move_within_the_minute_are_never_called(store):
    clock = Clock()
    core = make_core(store, clock=clock, turn_seconds=TURN)
    await poker_table(core, "speed=relaxed")
    out = await core.handle(cmd("ayse", "/poker start"))
    for _ in range(12):
        session = live_session(core)
        if session is None or session.actor() is None:
            break
        user, line = ai_move(session)
        out += await core.tick(clock.advance(30))
        out += await core.handle(cmd(user, line))
        assert not errors(out), errors(out)
    assert mentions(out) == []


async def test_relaxed_okey_calls_once_for_a_draw_and_a_discard(store):
    clock = Clock()
    core = make_core(store, clock=clock, turn_seconds=TURN)
    await core.handle(cmd("ayse", "/okey start 1 10 hız=rahat"))
    for user in ("mehmet", "cem", "deniz"):
        await core.handle(cmd(user, "/okey join"))
    out = await core.handle(cmd("ayse", "/okey begin"))
    assert not errors(out), errors(out)
    session = live_session(core)
    for _ in range(6):
        index = session.match.round.to_act()
        seat = session.seat_of(index)
        out = await core.tick(clock.advance(61))  # each turn waits: called once
        assert mentions(out) == [Mention(seat.user_id, seat.name)]
        action = auto_action(session.match.round, index)
        if action.kind == "take":
            step = await core.handle(cmd(seat.user_id, f"/okey take {action.source}"))
            assert not errors(step), errors(step)
            assert session.match.round.to_act() == index  # the same turn goes on
            assert await core.tick(clock.advance(120)) == []  # not called again
            action = auto_action(session.match.round, index)
        step = await core.handle(
            cmd(seat.user_id, f"/okey {action.kind} {action.cards[0].lower()}")
        )
        assert not errors(step), errors(step)
        assert mentions(step) == []


async def test_relaxed_survives_a_restart_without_calling_again(store):
    clock = Clock()
    core = make_core(store, clock=clock, turn_seconds=TURN)
    await poker_table(core, "hız=rahat")
    await core.handle(cmd("ayse", "/poker start"))
    first = actor_seat(core)
    assert len(mentions(await core.tick(clock.advance(61)))) == 1
    again = make_core(store, clock=clock, turn_seconds=TURN)
    out = await again.start()
    assert mentions(out) == []
    assert "House rules: speed=relaxed" in public_text(out)
    session = live_session(again)
    assert session.options["speed"] == "relaxed" and session.turn_of == first.player_id
    [listing] = private_to(await again.handle(cmd("mehmet", "/poker rules")), "mehmet")
    assert "speed (hız) = relaxed: 12 hours a turn" in listing
    assert await again.tick(clock.advance(60)) == []  # the first call was made before
    out = await again.tick(clock.advance(11 * HOUR))  # the reminder, after the restart
    assert mentions(out) == [Mention(first.user_id, first.name)]
    assert await again.tick(clock.advance(60)) == []


async def test_rules_listing_shows_the_speed_in_both_languages(store):
    core = make_core(store, turn_seconds=TURN)
    await poker_table(core)
    [en] = private_to(await core.handle(cmd("mehmet", "/poker rules")), "mehmet")
    assert "speed (hız) = normal: the bot's usual turn time" in en
    [tr] = private_to(await core.handle(cmd("mehmet", "/poker rules", locale="tr")), "mehmet")
    assert "hız (speed) = normal: botun olağan hamle süresi" in tr
    out = await core.handle(cmd("ayse", "/poker rules set hız=yavaş", mod=True))
    assert not errors(out) and live_session(core).options["speed"] == "slow"


@pytest.mark.parametrize(
    ("line", "locale", "wanted"),
    [
        ("/poker rules set speed=turbo", "en", "“turbo” is not a value of speed"),
        ("/poker rules set hız=çokhızlı", "tr", "«çokhızlı», speed için geçerli"),
        ("/poker rules set speed=", "en", "is not a value of speed"),
    ],
)
async def test_bad_speeds_are_refused_privately(store, line, locale, wanted):
    core = make_core(store, turn_seconds=TURN)
    await poker_table(core)
    table = live_session(core).table_id
    before = (await store.get_table(table)).snapshot
    out = await core.handle(cmd("ayse", line, mod=True, locale=locale))
    assert [o.kind for o in out] == [OutKind.ERROR] and wanted in out[0].text
    assert out[0].user_id == "ayse"
    assert (await store.get_table(table)).snapshot == before


async def test_bad_speed_at_opening_opens_nothing(store):
    core = make_core(store, turn_seconds=TURN)
    out = await core.handle(cmd("ayse", "/poker open turkish 10 speed=warp"))
    assert [o.kind for o in out] == [OutKind.ERROR]
    assert live_session(core) is None


async def test_a_tournament_table_refuses_the_speed(store):
    core = make_core(store, turn_seconds=TURN)
    await poker_table(core)
    live = core.tables.in_channel("test", "c1")
    snapshot = live.session.to_dict()
    snapshot["options"]["tournament"] = 7  # (a tournament table, as far as its rules go)
    entry = ActionEntry(seat=None, player_id=None, action={"kind": "update"}, at=START)
    await store.commit(live.id, live.version, snapshot, action=entry)
    before = (await store.get_table(live.id)).snapshot
    for locale, wanted in (("en", "tournament's clock"), ("tr", "turnuvanın saatine")):
        out = await core.handle(cmd("ayse", "/poker rules set speed=fast", mod=True, locale=locale))
        assert [o.kind for o in out] == [OutKind.ERROR] and wanted in out[0].text
    assert (await store.get_table(live.id)).snapshot == before


def test_a_sit_and_go_refuses_the_speed():
    with pytest.raises(Refusal) as refused:
        sng.table_options("turkish", {"rules": ["hız=rahat"]}, 5)
    assert refused.value.key == "err.house_speed_tournament"
    assert sng.table_options("turkish", {"rules": ["twopair=heart"]}, 5)["tournament"] == 5
