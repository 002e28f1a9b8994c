"""Private tables (`bot.core.table.private`, `invites`): only the opener and those they invite
sit, watching can be turned off, invitations expire, are withdrawn, used once, and a forged
token is refused; every bad invite is a private refusal that changes nothing. Every registered
game, through the registry."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from bot.core.app import Core
from bot.core.messages import Outgoing, OutKind
from bot.core.registry import GAMES
from bot.core.spec import GameSpec
from bot.core.table.invite_tokens import Ticket, make_token, read_token
from storage import Store
from testkit.helpers import Clock, cmd, errors, make_core

SPECS = list(GAMES.values())
WORDS = ("turkish", "acik", "okey", "101")
KEY = "k" * 43


def open_line(spec: GameSpec, *extra: str) -> str:
    """The opener's line for `spec`, its picking word (if not the default) then `extra`."""
    word = next((w for w in WORDS if spec.picks(w)), "")
    return " ".join(f"/{spec.group} {spec.opener} {word} {' '.join(extra)}".split())


def join_line(spec: GameSpec) -> str:
    return f"/{spec.group} join"


def seated(core: Core, channel: str = "c1") -> list[str]:
    live = core.tables.in_channel("test", channel)
    assert live is not None
    return [seat.user_id for seat in live.session.seats]


def token_of(out: list[Outgoing], user: str) -> str:
    (token,) = [o.invite for o in out if o.kind is OutKind.PRIVATE and o.user_id == user]
    assert token is not None
    return token


def snapshot(core: Core) -> Any:
    live = core.tables.in_channel("test", "c1")
    assert live is not None
    return live.session.to_dict()


async def private_table(spec: GameSpec, store: Store, **config: Any) -> tuple[Core, Clock]:
    clock = Clock()
    core = make_core(store, clock=clock, invite_key=KEY, **config)
    assert not errors(await core.handle(cmd("ayse", open_line(spec, "private"))))
    if spec.first is None:
        assert not errors(await core.handle(cmd("ayse", join_line(spec))))
    return core, clock


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
async def test_only_the_opener_and_the_invited_sit(spec: GameSpec, memory_store: Store) -> None:
    core, _ = await private_table(spec, memory_store)
    assert seated(core) == ["ayse"]
    refused = errors(await core.handle(cmd("mert", join_line(spec))))
    assert refused == ["This table is private: only the opener and those they invite may sit."]
    assert seated(core) == ["ayse"]
    out = await core.handle(cmd("ayse", "/table invite <@mert> Mert"))
    assert not errors(out)
    token = token_of(out, "ayse")
    assert token_of(out, "mert") == token  # the invitee is told privately too
    assert all(token not in o.text for o in out)
    public = [o for o in out if o.kind in (OutKind.PUBLIC, OutKind.EDIT_TABLE)]
    assert any("Ayse invited Mert to this table." in o.text for o in public)
    assert all(o.invite is None for o in public)
    assert not errors(await core.handle(cmd("mert", join_line(spec))))
    assert seated(core) == ["ayse", "mert"]
    # still refused: a third person, and a computer added by someone who may not sit
    assert errors(await core.handle(cmd("zeyn", join_line(spec))))
    assert errors(await core.handle(cmd("zeyn", f"/{spec.group} addbot")))
    assert seated(core) == ["ayse", "mert"]


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
async def test_the_table_message_says_private(spec: GameSpec, memory_store: Store) -> None:
    core = make_core(memory_store, invite_key=KEY)
    out = await core.handle(cmd("ayse", open_line(spec, "özel", "izleyici=kapalı"), locale="tr"))
    table = [o.text for o in out if o.kind is OutKind.EDIT_TABLE]
    assert table and "🔒" in table[-1]
    live = core.tables.in_channel("test", "c1")
    assert live is not None and live.session.options["private"]["watchers"] is False
    view = await core.table_view(str(live.id), "test", "ayse")
    assert view is not None and view.private and not view.watchers and not view.hidden


async def test_a_table_without_private_is_open_to_all(memory_store: Store) -> None:
    core = make_core(memory_store, invite_key=KEY)
    assert not errors(await core.handle(cmd("ayse", "/okey start")))
    assert not errors(await core.handle(cmd("mert", "/okey join")))
    refused = errors(await core.handle(cmd("ayse", "/table invite <@zeyn>")))
    assert refused == ["This table is not private: anyone may sit here, no invitation needed."]


@pytest.mark.parametrize(
    ("who", "line", "reason"),
    [
        ("ayse", "/table invite <@ayse> Ayse", "You opened this table: you need no invitation."),
        ("ayse", "/table invite ayse", "You opened this table: you need no invitation."),
        ("ayse", "/table invite Bot 1", "A computer player needs no invitation"),
        ("ayse", "/table invite <@bot-2>", "A computer player needs no invitation"),
        ("ayse", "/table invite <@mert> Mert", "Mert already sits at this table."),
        ("mert", "/table invite <@zeyn>", "Only the player who opened this private table"),
        ("ayse", "/table invite", "Usage: /table invite @player"),
        ("ayse", "/table uninvite <@zeyn>", "zeyn has no invitation to this table."),
        ("ayse", "/table watchers maybe", "Usage: /table watchers on|off"),
    ],
)
async def test_bad_invites_are_refused_and_change_nothing(
    memory_store: Store, who: str, line: str, reason: str
) -> None:
    core, _ = await private_table(GAMES["okey"], memory_store)
    assert not errors(await core.handle(cmd("ayse", "/table invite <@mert>")))
    assert not errors(await core.handle(cmd("mert", "/okey join")))
    assert not errors(await core.handle(cmd("ayse", "/okey addbot")))
    before = snapshot(core)
    out = await core.handle(cmd(who, line))
    assert len(out) == 1 and out[0].kind is OutKind.ERROR and out[0].user_id == who
    assert out[0].text.startswith(reason)
    assert snapshot(core) == before


async def test_refusals_speak_turkish(memory_store: Store) -> None:
    core, _ = await private_table(GAMES["okey"], memory_store)
    out = await core.handle(cmd("ayse", "/masa davet <@ayse>", locale="tr"))
    assert errors(out) == ["Bu masayı sen açtın: davete ihtiyacın yok."]
    out = await core.handle(cmd("mert", "/okey katıl", locale="tr"))
    assert errors(out) == ["Bu masa özel: yalnızca masayı açan ve davet ettikleri oturabilir."]


async def test_a_link_is_used_once_by_anyone_it_names(memory_store: Store) -> None:
    core, _ = await private_table(GAMES["turkish"], memory_store)
    token = token_of(await core.handle(cmd("ayse", "/table invite @mert")), "ayse")
    # typed anywhere (Telegram: the bot's private chat), it sits its user at the table
    out = await core.handle(cmd("mert", f"/table join {token}", channel=""))
    assert not errors(out)
    assert seated(core) == ["ayse", "mert"]
    assert any(o.kind is OutKind.EDIT_TABLE and o.channel_id == "c1" for o in out)
    assert not errors(await core.handle(cmd("mert", "/poker leave")))
    out = await core.handle(cmd("zeyn", f"/table join {token}", channel=""))
    assert errors(out) == ["This invitation has already been used; each one works once."]


async def test_a_link_for_someone_else_is_refused(memory_store: Store) -> None:
    core, _ = await private_table(GAMES["okey"], memory_store)
    token = token_of(await core.handle(cmd("ayse", "/table invite <@mert> Mert")), "ayse")
    out = await core.handle(cmd("zeyn", f"/masa katıl {token}", channel="", locale="tr"))
    assert errors(out) == ["Bu davet başka birine ait."]
    assert seated(core) == ["ayse"]


async def test_expired_withdrawn_and_forged_links_say_why(memory_store: Store) -> None:
    core, clock = await private_table(GAMES["okey"], memory_store)
    first = token_of(await core.handle(cmd("ayse", "/table invite <@mert> Mert")), "ayse")
    second = token_of(await core.handle(cmd("ayse", "/table invite <@zeyn> Zeyn")), "ayse")
    assert not errors(await core.handle(cmd("ayse", "/table uninvite <@zeyn>")))
    out = await core.handle(cmd("zeyn", f"/table join {second}", channel=""))
    assert errors(out) == ["This invitation was withdrawn."]
    assert errors(await core.handle(cmd("zeyn", "/okey join")))  # the withdrawal holds
    forged = first[:-1] + ("A" if first[-1] != "A" else "B")
    out = await core.handle(cmd("mert", f"/table join {forged}", channel=""))
    assert errors(out)[0].startswith("This invitation is not valid")
    other = make_token("x" * 43, read_token(KEY, first) or Ticket(1, "00" * 6, clock.now))
    assert errors(await core.handle(cmd("mert", f"/table join {other}", channel="")))
    clock.advance(24 * 3600 + 1)
    out = await core.handle(cmd("mert", f"/table join {first}", channel=""))
    assert errors(out) == ["This invitation has expired; ask for a new one."]
    assert errors(await core.handle(cmd("mert", "/okey join")))  # nor by the command
    assert seated(core) == ["ayse"]


async def test_an_invitation_lasts_a_day(memory_store: Store) -> None:
    core, clock = await private_table(GAMES["okey"], memory_store)
    assert not errors(await core.handle(cmd("ayse", "/table invite mert")))  # by name (console)
    clock.advance(23 * 3600)
    assert not errors(await core.handle(cmd("mert", "/okey join")))
    assert not errors(await core.handle(cmd("mert", "/okey leave")))
    clock.advance(2 * 3600)  # expired, but Mert sat here: he may come back
    assert not errors(await core.handle(cmd("mert", "/okey join")))


async def test_the_used_link_is_recorded_durably(store: Store) -> None:
    """Another core on the same database (a restart, another process) refuses the link too."""
    core, clock = await private_table(GAMES["okey"], store)
    token = token_of(await core.handle(cmd("ayse", "/table invite @mert")), "ayse")
    assert not errors(await core.handle(cmd("mert", f"/table join {token}", channel="")))
    assert not errors(await core.handle(cmd("mert", "/okey leave")))
    again = make_core(store, clock=clock, invite_key=KEY)
    await again.start()
    out = await again.handle(cmd("mert", f"/table join {token}", channel=""))
    assert errors(out) == ["This invitation has already been used; each one works once."]


async def test_the_signing_key_is_the_stored_one(memory_store: Store) -> None:
    core = make_core(memory_store)  # no key configured: the bot's web signing key
    assert not errors(await core.handle(cmd("ayse", "/okey start private")))
    token = token_of(await core.handle(cmd("ayse", "/table invite @mert")), "ayse")
    secret = await memory_store.shared_secret("web", "unused")
    assert read_token(secret, token) is not None


async def test_watching_off_keeps_spectators_away(memory_store: Store) -> None:
    link = lambda p, u, n, t, loc: f"https://web.example/t/{u}"  # noqa: E731
    core, _ = await private_table(GAMES["okey"], memory_store, web_link=link)
    live = core.tables.in_channel("test", "c1")
    assert live is not None
    table = str(live.id)
    assert not errors(await core.handle(cmd("zeyn", "/table web")))  # watching is on
    view = await core.table_view(table, "test", "zeyn")
    assert view is not None and view.private and view.seats and not view.hidden
    refused = errors(await core.handle(cmd("mert", "/table watchers off")))
    assert refused == ["Only the player who opened this private table may do that."]
    out = await core.handle(cmd("ayse", "/table watchers off"))
    assert not errors(out)
    assert errors(await core.handle(cmd("zeyn", "/table web"))) == [
        "This table is private and its opener turned watching off."
    ]
    views = await core.table_views(table, "test", ["zeyn", None, "ayse"])
    assert views is not None
    assert views["zeyn"].hidden and not views["zeyn"].seats and not views["zeyn"].moves
    assert views[None].hidden
    assert not views["ayse"].hidden and views["ayse"].seats
    assert not errors(await core.handle(cmd("ayse", "/table invite <@zeyn>")))
    assert not errors(await core.handle(cmd("zeyn", "/table web")))  # an invitee may watch
    assert not errors(await core.handle(cmd("ayse", "/masa izleyici açık", locale="tr")))
    assert not errors(await core.handle(cmd("kaan", "/table web")))


async def test_private_tables_count_against_the_community_limit(memory_store: Store) -> None:
    core = make_core(memory_store, invite_key=KEY, max_open_tables=1)
    assert not errors(await core.handle(cmd("ayse", "/okey start private", community="g")))
    out = await core.handle(cmd("mert", "/poker open private", channel="c2", community="g"))
    assert errors(out)[0].startswith("This community already has 1 open tables")


async def test_invites_spend_the_command_budget(memory_store: Store) -> None:
    clock = Clock()
    core = make_core(memory_store, clock=clock, invite_key=KEY, command_burst=3)
    assert not errors(await core.handle(cmd("ayse", "/okey start private")))
    assert not errors(await core.handle(cmd("ayse", "/table invite @a1")))
    assert not errors(await core.handle(cmd("ayse", "/table invite @a2")))
    assert errors(await core.handle(cmd("ayse", "/table invite @a3")))[0].startswith("Slow down")
    assert await core.handle(cmd("ayse", "/table invite @a4")) == []
    invites = snapshot(core)["options"]["private"]["invites"]
    assert sorted(v["name"] for v in invites.values()) == ["a1", "a2"]


async def test_a_table_holds_a_bounded_number_of_invitations(memory_store: Store) -> None:
    core, _ = await private_table(GAMES["okey"], memory_store)
    for n in range(20):
        assert not errors(await core.handle(cmd("ayse", f"/table invite @p{n}")))
    refused = errors(await core.handle(cmd("ayse", "/table invite @p20")))
    assert refused == ["This table already has 20 open invitations; withdraw one first."]


async def test_tokens_never_reach_info_logs(
    memory_store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    core, _ = await private_table(GAMES["okey"], memory_store)
    token = token_of(await core.handle(cmd("ayse", "/table invite @mert")), "ayse")
    await core.handle(cmd("mert", f"/table join {token}", channel=""))
    await core.handle(cmd("zeyn", f"/table join {token}", channel=""))
    assert caplog.records and all(token not in r.getMessage() for r in caplog.records)
    assert token not in repr(Outgoing(OutKind.PRIVATE, "x", invite=token))


async def test_one_link_used_at_once_through_two_processes_seats_one(stores: list[Store]) -> None:
    """Two cores on one database (two processes), the same link used through both at once: the
    commit's version check lets one use win; the other is told the link was used (SQLite file,
    and PostgreSQL with TEST_DATABASE_URL)."""
    clock = Clock()
    cores = [make_core(s, seed=f"p{i}", clock=clock, invite_key=KEY) for i, s in enumerate(stores)]
    assert not errors(await cores[0].handle(cmd("ayse", "/okey start private")))
    token = token_of(await cores[0].handle(cmd("ayse", "/table invite @guest")), "ayse")
    outs = await asyncio.gather(
        cores[0].handle(cmd("mert", f"/table join {token}", channel="")),
        cores[1].handle(cmd("zeyn", f"/table join {token}", channel="")),
    )
    refused = [errors(out) for out in outs]
    assert sorted(map(len, refused)) == [0, 1]
    assert [e for e in refused if e] == [
        ["This invitation has already been used; each one works once."]
    ]
    live = await cores[1].tables.fetch(str(cores[0].tables.in_channel("test", "c1").id))
    assert live is not None and len(live.session.seats) == 2
