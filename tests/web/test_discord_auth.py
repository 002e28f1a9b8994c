"""`POST /api/auth/discord` against a local fake of Discord's OAuth2, user and activity-instance
endpoints: a good code gives a session for the open table of the instance's channel; a bad or
used code, a user not in the instance, an instance of another app or unknown, a channel
without a table and a malformed request are refused (401) in the asker's language; nothing the
page says about itself is believed, and no code or token reaches the log."""

from __future__ import annotations

import logging
from dataclasses import replace

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.adapters.web.discord_auth import DiscordApp, add_discord_routes
from testkit.fakes.discord_oauth_server import FakeDiscordOAuth
from testkit.helpers import cmd, make_core

APP_ID = "1215413995645968394"
SECRET = "s3cr3t-client-secret-value"
BOT_TOKEN = "bot-token-" + "x" * 50
TABLE_CHANNEL, OTHER_CHANNEL = "912954213460484116", "912954213460484999"
AYSE, MEHMET = "205519959982473217", "205519959982473218"


class Sessions:
    """Issues readable stand-in session tokens and remembers what it issued."""

    def __init__(self) -> None:
        self.issued: list[tuple[str, str, str, str]] = []

    def __call__(self, user_id: str, name: str, table_id: str, locale: str) -> str:
        self.issued.append((user_id, name, table_id, locale))
        return f"session-{len(self.issued)}"


@pytest.fixture
async def discord():
    fake = FakeDiscordOAuth(APP_ID, SECRET, BOT_TOKEN)
    fake.add_user(AYSE, "Ayşe", locale="tr")
    fake.add_user(MEHMET, "Mehmet", locale="en-US")
    base = await fake.start()
    fake.base = base
    try:
        yield fake
    finally:
        await fake.close()


@pytest.fixture
async def core(memory_store):
    core = make_core(memory_store)
    opened = replace(
        cmd("ayse", "/poker open turkish 10", channel=TABLE_CHANNEL), platform="discord"
    )
    await core.handle(opened)
    return core


async def serve(discord, core, sessions, *, secret: str = SECRET, remember=None) -> TestClient:
    app = web.Application()
    add_discord_routes(
        app,
        discord=DiscordApp(APP_ID, secret, BOT_TOKEN, discord.base),
        tables=core,
        issue=sessions,
        default_locale="en",
        remember=remember,
    )
    client = TestClient(TestServer(app))
    await client.start_server()
    return client


async def test_a_good_code_gives_a_session_for_the_channel_table(discord, core):
    sessions = Sessions()
    client = await serve(discord, core, sessions)
    try:
        table = await core.table_in_channel("discord", TABLE_CHANNEL)
        instance = discord.launch(TABLE_CHANNEL, [AYSE, MEHMET])
        got = await client.post(
            "/api/auth/discord", json={"code": discord.grant(AYSE), "instance_id": instance}
        )
        assert got.status == 200
        answer = await got.json()
        # the viewer's own access token goes back to their page only (the SDK's `authenticate`)
        assert discord.tokens[answer.pop("access_token")] == AYSE
        assert answer == {"session": "session-1", "table": table, "locale": "tr"}
        assert sessions.issued == [(AYSE, "Ayşe", table, "tr")]
        config = await client.get("/api/auth/discord")
        assert await config.json() == {"client_id": APP_ID}
    finally:
        await client.close()


async def test_a_confirmed_viewer_s_avatar_is_kept_as_a_cdn_url(discord, core):
    pictures: list[tuple[str, str]] = []
    avatar = "0123456789abcdef0123456789abcdef"
    discord.users[MEHMET]["avatar"] = avatar
    client = await serve(discord, core, Sessions(), remember=lambda *a: pictures.append(a))
    try:
        instance = discord.launch(TABLE_CHANNEL, [AYSE, MEHMET])
        for user in (MEHMET, AYSE):
            got = await client.post(
                "/api/auth/discord", json={"code": discord.grant(user), "instance_id": instance}
            )
            assert got.status == 200
        # Ayşe has no avatar of her own: Discord's default one for her id
        assert pictures == [
            (MEHMET, f"https://cdn.discordapp.com/avatars/{MEHMET}/{avatar}.png?size=64"),
            (AYSE, f"https://cdn.discordapp.com/embed/avatars/{(int(AYSE) >> 22) % 6}.png"),
        ]
        # a refused code keeps nothing
        bad = await client.post("/api/auth/discord", json={"code": "nope", "instance_id": instance})
        assert bad.status == 401
        assert len(pictures) == 2
    finally:
        await client.close()


async def test_refusals(discord, core, caplog):
    caplog.set_level(logging.INFO)
    sessions = Sessions()
    client = await serve(discord, core, sessions)
    try:
        mine = discord.launch(TABLE_CHANNEL, [AYSE])
        elsewhere = discord.launch(OTHER_CHANNEL, [MEHMET])
        used = discord.grant(AYSE)
        ok = await client.post("/api/auth/discord", json={"code": used, "instance_id": mine})
        assert ok.status == 200
        cases = {  # what the page sends -> why the server refuses (its log line)
            "token 400": {"code": "nonsense", "instance_id": mine},
            "token 400 ": {"code": used, "instance_id": mine},  # a code is good once
            "user not in instance": {"code": discord.grant(MEHMET), "instance_id": mine},
            "instance 404": {"code": discord.grant(AYSE), "instance_id": "i-1-gc-2-3"},
            "no_table": {"code": discord.grant(MEHMET), "instance_id": elsewhere},
            "malformed": {"instance_id": mine},
            "malformed ": {"code": 5, "instance_id": mine},
            "malformed  ": {"code": discord.grant(AYSE), "instance_id": "../users/@me"},
        }
        seen: list[str] = []
        for why, body in cases.items():
            seen += [r.getMessage() for r in caplog.records]
            caplog.clear()
            got = await client.post("/api/auth/discord", json=body)
            assert got.status == 401, why
            assert (await got.json())["error"], why
            assert why.strip() in caplog.text, why
        assert len(sessions.issued) == 1  # only the good one
        junk = await client.post("/api/auth/discord", data=b"{not json")
        assert junk.status == 401
        big = await client.post("/api/auth/discord", data=b"x" * 10_000)
        assert big.status in (401, 413)
        logged = "\n".join(seen + [r.getMessage() for r in caplog.records])
        assert used not in logged and "access-" not in logged and SECRET not in logged
    finally:
        await client.close()


async def test_the_refusal_speaks_the_asker_language(discord, core):
    client = await serve(discord, core, Sessions())
    try:
        got = await client.post(
            "/api/auth/discord",
            json={"code": "nonsense", "instance_id": "i-1-gc-2-3"},
            headers={"Accept-Language": "tr-TR,tr;q=0.9"},
        )
        assert got.status == 401
        assert "Etkinlik" in (await got.json())["error"]
        # once Discord named the user, their own language: Mehmet (en-US) at a channel
        # without a table
        elsewhere = discord.launch(OTHER_CHANNEL, [MEHMET])
        got = await client.post(
            "/api/auth/discord",
            json={"code": discord.grant(MEHMET), "instance_id": elsewhere},
            headers={"Accept-Language": "tr"},
        )
        assert (await got.json())["error"] == "There is no open table in this channel."
    finally:
        await client.close()


async def test_another_app_instance_and_a_wrong_secret_are_refused(discord, core):
    foreign = discord.launch(TABLE_CHANNEL, [AYSE])
    discord.instances[foreign]["application_id"] = "999"  # Discord says: not our app's
    client = await serve(discord, core, Sessions())
    try:
        got = await client.post(
            "/api/auth/discord", json={"code": discord.grant(AYSE), "instance_id": foreign}
        )
        assert got.status == 401
    finally:
        await client.close()
    client = await serve(discord, core, Sessions(), secret="wrong-secret-value")
    try:
        mine = discord.launch(TABLE_CHANNEL, [AYSE])
        got = await client.post(
            "/api/auth/discord", json={"code": discord.grant(AYSE), "instance_id": mine}
        )
        assert got.status == 401
    finally:
        await client.close()


async def test_discord_unreachable_is_not_a_refusal(core):
    sessions = Sessions()
    app = web.Application()
    add_discord_routes(
        app,
        discord=DiscordApp(APP_ID, SECRET, BOT_TOKEN, "http://127.0.0.1:9/api/v10"),
        tables=core,
        issue=sessions,
    )
    client = TestClient(TestServer(app))
    await client.start_server()
    try:
        got = await client.post(
            "/api/auth/discord", json={"code": "abc", "instance_id": "i-1-gc-2-3"}
        )
        assert got.status == 502 and (await got.json())["error"]
    finally:
        await client.close()


async def test_a_flood_of_sign_ins_never_reaches_discord(discord, core):
    from bot.core.throttle import Throttle

    now = [0.0]
    app = web.Application()
    add_discord_routes(
        app,
        discord=DiscordApp(APP_ID, SECRET, BOT_TOKEN, discord.base),
        tables=core,
        issue=Sessions(),
        budget=Throttle(3, 1.0, lambda: now[0]),
    )
    client = TestClient(TestServer(app))
    await client.start_server()
    try:
        statuses = []
        for n in range(10):
            got = await client.post(
                "/api/auth/discord", json={"code": f"made-up-{n}", "instance_id": "i-1"}
            )
            statuses.append(got.status)
        assert statuses == [401] * 3 + [429] * 7
        assert len([c for c in discord.calls if c[1] == "/oauth2/token"]) == 3
        now[0] += 1.0  # a token came back
        mine = discord.launch(TABLE_CHANNEL, [AYSE])
        got = await client.post(
            "/api/auth/discord", json={"code": discord.grant(AYSE), "instance_id": mine}
        )
        assert got.status == 200
    finally:
        await client.close()


async def test_the_shared_room_the_viewer_opened_is_the_table_of_the_session(
    discord, core, memory_store
):
    """A shared room's "Open the table" press (kept in the store: `Core.choose_room`) picks
    that room's table for the presser in that channel; a stored choice of another channel's
    room, or of a room whose table has closed, falls back to the channel's own table."""
    room, elsewhere = f"{TABLE_CHANNEL}#masa-1", f"{OTHER_CHANNEL}#masa-1"
    for where in (room, elsewhere):
        opened = replace(cmd("mehmet", "/poker open turkish 10", channel=where), platform="discord")
        await core.handle(opened)
    own = await core.table_in_channel("discord", TABLE_CHANNEL)
    in_room = await core.table_in_channel("discord", room)
    assert in_room is not None and in_room != own
    await core.choose_room("discord", AYSE, TABLE_CHANNEL, room)
    # the core keeps only a room of the channel the press was in; a row that says otherwise
    # (written around it) is checked again at the sign-in
    await core.choose_room("discord", MEHMET, TABLE_CHANNEL, elsewhere)
    assert await core.chosen_room("discord", MEHMET, TABLE_CHANNEL) is None
    await memory_store.choose_room("discord", TABLE_CHANNEL, MEHMET, elsewhere)
    sessions = Sessions()
    client = await serve(discord, core, sessions)
    try:
        instance = discord.launch(TABLE_CHANNEL, [AYSE, MEHMET])
        for user in (AYSE, MEHMET):
            got = await client.post(
                "/api/auth/discord", json={"code": discord.grant(user), "instance_id": instance}
            )
            assert got.status == 200
        assert [(user, table) for user, _, table, _ in sessions.issued] == [
            (AYSE, in_room),
            (MEHMET, own),  # a room of another channel is never this instance's
        ]
        closed = replace(cmd("mehmet", "/table reset", channel=room), platform="discord")
        await core.handle(replace(closed, is_moderator=True))
        assert await core.table_in_channel("discord", room) is None
        got = await client.post(
            "/api/auth/discord", json={"code": discord.grant(AYSE), "instance_id": instance}
        )
        assert (await got.json())["table"] == own
    finally:
        await client.close()


async def bounded(discord, core, seconds: float) -> TestClient:
    """The route with a whole sign-in bound of `seconds` (SIGNIN_SECONDS in production)."""
    app = web.Application()
    add_discord_routes(
        app,
        discord=DiscordApp(APP_ID, SECRET, BOT_TOKEN, discord.base),
        tables=core,
        issue=Sessions(),
        default_locale="en",
        signin_seconds=seconds,
    )
    client = TestClient(TestServer(app))
    await client.start_server()
    return client


async def test_a_discord_that_never_answers_gets_a_prompt_clear_refusal(discord, core, caplog):
    caplog.set_level(logging.INFO)
    discord.silent = True
    client = await bounded(discord, core, 0.3)
    try:
        mine = discord.launch(TABLE_CHANNEL, [AYSE])
        got = await client.post(
            "/api/auth/discord",
            json={"code": discord.grant(AYSE), "instance_id": mine},
            headers={"Accept-Language": "tr-TR,tr;q=0.9"},
        )
        assert got.status == 504
        assert (await got.json())["error"] == (
            "Discord ile giriş çok uzun sürdü; hiçbir şey değişmedi. Biraz sonra yeniden dene."
        )
        assert "outcome=timed_out" in caplog.text
    finally:
        await client.close()


async def test_the_bound_holds_for_the_whole_sign_in_not_each_call(discord, core):
    """Each of the three calls answers within the bound; all three together do not."""
    discord.delay = 0.2
    client = await bounded(discord, core, 0.45)
    try:
        mine = discord.launch(TABLE_CHANNEL, [AYSE])
        got = await client.post(
            "/api/auth/discord", json={"code": discord.grant(AYSE), "instance_id": mine}
        )
        assert got.status == 504
        assert (await got.json())["error"].startswith("Signing in through Discord took too long")
        assert ("POST", "/oauth2/token") in discord.calls  # it did ask, and stopped in time
    finally:
        await client.close()
