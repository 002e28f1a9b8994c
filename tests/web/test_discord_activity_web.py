"""The Discord Activity on the real web table: the sign-in route attached to `WebTable`, a
session from a good code that opens the socket from the Activity's origin (Discord's proxy) and
shows the table as that player sees it, another origin refused, an expired session refused
on hello, and the Activity and the chat playing one table (a move on either side reaches the
other)."""

from __future__ import annotations

import re
import time
from dataclasses import replace

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.adapters.web.discord_auth import DiscordApp, activity_origin, attach_discord
from bot.adapters.web.server import Front, WebConfig, WebTable
from bot.adapters.web.tokens import SESSION_SECONDS, Signer
from testkit.fakes.discord_oauth_server import FakeDiscordOAuth
from testkit.helpers import cmd, make_core
from testkit.web import receive

APP_ID = "1215413995645968394"
SECRET = "s3cr3t-client-secret-value"
BOT_TOKEN = "bot-token-" + "x" * 50
CHANNEL = "912954213460484116"
AYSE, MEHMET = "205519959982473217", "205519959982473218"


def discord_cmd(user: str, line: str):
    return replace(cmd(user, line, channel=CHANNEL), platform="discord")


@pytest.fixture
async def activity(memory_store):
    fake = FakeDiscordOAuth(APP_ID, SECRET, BOT_TOKEN)
    fake.add_user(AYSE, "Ayşe", locale="tr")
    fake.add_user(MEHMET, "Mehmet")
    base = await fake.start()
    core = make_core(memory_store)
    await core.handle(discord_cmd(AYSE, "/poker open turkish 10"))
    await core.handle(discord_cmd(AYSE, "/poker join 200"))
    clock = [time.time()]
    delivered: list = []

    async def deliver(items):
        delivered.extend(items)

    table = WebTable(
        {"discord": Front(core, deliver)},
        Signer("test-web-secret-0123456789"),
        WebConfig(default_locale="en"),
        clock=lambda: clock[0],
    )
    attach_discord(table, DiscordApp(APP_ID, SECRET, BOT_TOKEN, base))
    client = TestClient(TestServer(table.app(), host="127.0.0.1"))
    await client.start_server()
    try:
        yield fake, client, clock, core, delivered
    finally:
        await client.close()
        await fake.close()


async def sign_in(fake, client, user: str) -> dict:
    instance = fake.launch(CHANNEL, [AYSE, MEHMET])
    got = await client.post(
        "/api/auth/discord", json={"code": fake.grant(user), "instance_id": instance}
    )
    assert got.status == 200, await got.text()
    return await got.json()


async def test_the_activity_page_sees_the_table_as_its_player(activity):
    fake, client, *_ = activity
    signed = await sign_in(fake, client, AYSE)
    assert signed["locale"] == "tr"
    ws = await client.ws_connect("/ws", headers={"Origin": activity_origin(APP_ID)})
    await ws.send_json({"type": "hello", "session": signed["session"]})
    state = await receive(ws)
    assert state["type"] == "state"
    view = state["view"]
    assert view["table_id"] == signed["table"]
    assert view["me"] is not None and view["seats"][view["me"]]["user_id"] == AYSE
    await ws.close()
    watcher = await sign_in(fake, client, MEHMET)  # in the channel, not seated: a spectator
    ws = await client.ws_connect("/ws", headers={"Origin": activity_origin(APP_ID)})
    await ws.send_json({"type": "hello", "session": watcher["session"]})
    state = await receive(ws)
    assert state["type"] == "state" and state["view"]["me"] is None
    await ws.close()


async def test_another_activity_origin_is_refused(activity):
    _, client, *_ = activity
    got = await client.get(
        "/ws",
        headers={
            "Origin": activity_origin("999"),
            "Connection": "Upgrade",
            "Upgrade": "websocket",
            "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        },
    )
    assert got.status == 403


async def test_an_expired_session_is_refused_on_hello(activity):
    fake, client, clock, *_ = activity
    signed = await sign_in(fake, client, AYSE)
    clock[0] += SESSION_SECONDS + 1
    ws = await client.ws_connect("/ws", headers={"Origin": activity_origin(APP_ID)})
    await ws.send_json({"type": "hello", "session": signed["session"]})
    answer = await receive(ws)
    assert answer["type"] == "error"
    assert (await receive(ws))["type"] == "closed_socket"


async def test_the_activity_and_the_chat_play_the_same_table(activity):
    """A move made in the Activity reaches the Discord channel's table message (through the
    Discord front's delivery), and a move made with the chat's command reaches the Activity."""
    from bot.core.messages import OutKind
    from testkit.web import receive_until

    fake, client, _, core, delivered = activity
    await core.handle(discord_cmd(MEHMET, "/poker join 200"))
    await core.handle(discord_cmd(AYSE, "/poker start"))
    pages = {}
    for user in (AYSE, MEHMET):
        signed = await sign_in(fake, client, user)
        ws = await client.ws_connect("/ws", headers={"Origin": activity_origin(APP_ID)})
        await ws.send_json({"type": "hello", "session": signed["session"]})
        pages[user] = (ws, await receive(ws))
    acting = next(u for u, (_, s) in pages.items() if s["view"]["actions"])
    other = MEHMET if acting == AYSE else AYSE
    ws, state = pages[acting]
    kinds = [a["kind"] for a in state["view"]["actions"]]
    kind = next(k for k in ("check", "pass", "call", "fold") if k in kinds)
    await ws.send_json({"type": "act", "ref": 1, "kind": kind, "nonce": state["view"]["nonce"]})
    assert await receive_until(ws, "ack") == {"type": "ack", "ref": 1}
    assert any(i.kind is OutKind.EDIT_TABLE and i.channel_id == CHANNEL for i in delivered)
    moved = await receive_until(pages[other][0], "state")
    assert moved["view"]["nonce"] != state["view"]["nonce"]
    if moved["view"]["actions"]:  # now the other player moves in the chat
        word = next(a["kind"] for a in moved["view"]["actions"] if a["kind"] != "open")
        await core.handle(discord_cmd(other, f"/poker {word}"))
        for _ in range(5):  # the acting page's own move's state may come first
            seen = await receive_until(ws, "state")
            if seen["view"]["nonce"] != moved["view"]["nonce"]:
                break
        assert seen["view"]["nonce"] != moved["view"]["nonce"]
    for socket, _ in pages.values():
        await socket.close()


async def test_discord_may_frame_the_page(activity):
    """Discord shows the Activity in an iframe: the page must not forbid being framed."""
    _, client, *_ = activity
    got = await client.get("/?frame_id=f&instance_id=i-1&platform=desktop")
    assert got.status == 200
    assert got.headers.get("X-Frame-Options") is None
    policy = got.headers.get("Content-Security-Policy", "")
    assert "frame-ancestors" not in policy or "discordsays.com" in policy


ABSOLUTE_PATH = re.compile(r"""(?:src|href)=["']/|["'`]/[\w.]""")  # "/static/x", '/ws', href="/..."
POST_MESSAGE_TARGETS = {"https://web.telegram.org"}  # Telegram's postMessage origin, not a request


def test_the_page_uses_relative_urls_only():
    """Every request of the page (its HTML, every module) is relative to the folder the page was
    served from (`root.js`), so it reaches the bot under Discord's proxy with or without the old
    /.proxy/ prefix, and behind a reverse proxy's path prefix."""
    from bot.adapters.web.server import STATIC

    files = [STATIC / "index.html", *sorted(STATIC.glob("*.js"))]
    assert len(files) > 5
    for path in files:
        source = path.read_text(encoding="utf-8")
        code = [
            line
            for line in source.splitlines()
            if not line.lstrip().startswith(("//", "*", "/*", "<!--"))
        ]
        for line in code:
            assert not ABSOLUTE_PATH.search(line), (path.name, line)
            hosts = set(re.findall(r"https?://[\w.-]+", line)) - POST_MESSAGE_TARGETS
            assert not hosts, (path.name, line)
    assert 'at("api/auth/discord")' in (STATIC / "activity.js").read_text(encoding="utf-8")


async def test_a_press_on_one_process_picks_the_table_a_sign_in_on_another_shows(db_url):
    """Two processes on one database: the "Open the table" press of a shared room reaches the
    Discord adapter of one (its core and store), the Activity's sign-in lands on the web table of
    the other, which never saw the press, and still gets the room's table."""
    from bot.adapters.discord import DiscordAdapter
    from storage import Store
    from testkit.fakes.discord_fakes import DiscordHarness, quick_boards

    room = f"{CHANNEL}#masa-1"
    fake = FakeDiscordOAuth(APP_ID, SECRET, BOT_TOKEN)
    fake.add_user(MEHMET, "Mehmet")
    base = await fake.start()
    pressing_store, signing_store = await Store.open(db_url), await Store.open(db_url)
    client = None
    try:
        pressing = make_core(pressing_store)  # process 1: the chat adapter that gets the press
        harness = DiscordHarness(
            DiscordAdapter(pressing, default_locale="en", boards=quick_boards(), activity=True)
        )
        for where in (CHANNEL, room):
            opened = replace(cmd(AYSE, "/poker open turkish 10", channel=where), platform="discord")
            await harness.adapter.deliver(await pressing.handle(opened))
        await harness.settle()
        own = await pressing.table_in_channel("discord", CHANNEL)
        in_room = await pressing.table_in_channel("discord", room)
        assert own is not None and in_room is not None and own != in_room
        [message] = [
            m for m in harness.channel(int(CHANNEL)).live() if f"o:{in_room}" in m.custom_ids()
        ]
        mehmet = harness.user(int(MEHMET), "Mehmet")
        pressed = await harness.press(mehmet, f"o:{in_room}", message)
        assert harness.log.acks[pressed.id] == ["launch_activity"]

        signing = make_core(signing_store)  # process 2: the web table, a core of its own
        table = WebTable(
            {"discord": Front(signing)},
            Signer("test-web-secret-0123456789"),
            WebConfig(default_locale="en"),
        )
        attach_discord(table, DiscordApp(APP_ID, SECRET, BOT_TOKEN, base))
        client = TestClient(TestServer(table.app(), host="127.0.0.1"))
        await client.start_server()
        instance = fake.launch(CHANNEL, [MEHMET])
        got = await client.post(
            "/api/auth/discord", json={"code": fake.grant(MEHMET), "instance_id": instance}
        )
        assert got.status == 200
        assert (await got.json())["table"] == in_room
        # another viewer of the same instance made no choice: the channel's own table
        fake.add_user(AYSE, "Ayşe")
        instance = fake.launch(CHANNEL, [MEHMET, AYSE])
        got = await client.post(
            "/api/auth/discord", json={"code": fake.grant(AYSE), "instance_id": instance}
        )
        assert (await got.json())["table"] == own
    finally:
        if client is not None:
            await client.close()
        await fake.close()
        await pressing_store.close()
        await signing_store.close()
