"""Seat pictures on the web table: only from verified platform data (a Mini App's signed
`photo_url`, the avatar of the user Discord names for the code), by URL on the platforms' own
hosts, kept per player in a bounded map; the page's policy lets images come from exactly those
hosts."""

from __future__ import annotations

import json
from dataclasses import replace
from urllib.parse import urlencode

import pytest

from bot.adapters.web import telegram_auth
from bot.adapters.web.avatars import (
    PAGE_POLICY,
    Avatars,
    discord_avatar,
    discord_default,
    telegram_photo,
)
from bot.adapters.web.server import WebConfig, start_param
from bot.adapters.web.wire import view_text
from testkit.helpers import cmd, make_core
from testkit.stores import open_memory_store
from testkit.web import receive, serve_web

TOKEN = "123456:telegram-bot-token"
PHOTO = "https://t.me/i/userpic/320/aBcD_-12.jpg"
HASH = "a" * 32


def launch(user: dict[str, object], now: float, **more: str) -> str:
    """Launch data Telegram would sign for `user`."""
    fields = {"auth_date": str(int(now)), "user": json.dumps(user), **more}
    return urlencode({**fields, "hash": telegram_auth.sign(fields, TOKEN)})


@pytest.mark.parametrize(
    "url",
    [
        PHOTO,
        "https://t.me/i/userpic/320/x.svg",
    ],
)
def test_a_telegram_photo_on_t_me_is_taken(url):
    assert telegram_photo(url) == url


@pytest.mark.parametrize(
    "url",
    [
        None,
        42,
        "http://t.me/i/userpic/320/x.jpg",  # not HTTPS
        "https://evil.example/i/userpic/320/x.jpg",
        "https://t.me.evil.example/i/userpic/320/x.jpg",
        "https://user@t.me/i/userpic/320/x.jpg",
        "https://t.me/i/userpic/320/x.jpg?track=1",
        "https://t.me/somebody",
        "https://t.me/i/userpic/320/" + "x" * 300 + ".jpg",
        "data:image/png;base64,AAAA",
    ],
)
def test_anything_else_is_no_photo(url):
    assert telegram_photo(url) is None


def test_discord_avatars_are_cdn_urls_and_the_default_without_one():
    user = "205519959982473217"
    assert discord_avatar(user, HASH) == (
        f"https://cdn.discordapp.com/avatars/{user}/{HASH}.png?size=64"
    )
    assert discord_avatar(user, "a_" + HASH).endswith(f"/a_{HASH}.png?size=64")
    default = f"https://cdn.discordapp.com/embed/avatars/{(int(user) >> 22) % 6}.png"
    assert discord_avatar(user, None) == default == discord_default(user)
    assert discord_avatar(user, "../../x") == default  # never a path of the user's making


def test_the_map_is_bounded_and_forgets_a_removed_photo():
    avatars = Avatars(max_players=2)
    avatars.remember("telegram", "1", PHOTO)
    avatars.remember("telegram", "2", PHOTO)
    avatars.remember("telegram", "3", PHOTO)
    assert avatars.of("telegram", "1") is None  # the least recent went
    assert avatars.seats("telegram", ["1", "2", "3"]) == {"2": PHOTO, "3": PHOTO}
    avatars.remember("telegram", "2", None)
    assert avatars.of("telegram", "2") is None
    # a Discord player who never signed in here: Discord's default avatar for their id
    assert avatars.of("discord", "205519959982473217") == discord_default("205519959982473217")
    assert avatars.of("discord", "bot:1") is None
    assert avatars.of("telegram", "205519959982473217") is None


def test_the_photo_comes_from_the_signed_launch_data_only():
    now = 1_800_000_000.0
    user = {"id": 7, "first_name": "Ayşe", "photo_url": PHOTO}
    data = launch(user, now)
    assert telegram_auth.validate(data, TOKEN, now).photo_url == PHOTO
    # the photo changed after Telegram signed: refused as a whole
    forged = data.replace("aBcD", "zzzz")
    assert telegram_auth.validate(forged, TOKEN, now) is None
    # signed, but not a t.me photo: the user gets in, without a picture
    elsewhere = launch({**user, "photo_url": "https://evil.example/x.jpg"}, now)
    assert telegram_auth.validate(elsewhere, TOKEN, now).photo_url is None


async def test_state_frames_carry_pictures_by_url_and_the_page_its_policy():
    store = await open_memory_store()
    try:
        core = make_core(store)
        for user, line in [
            ("7", "/poker open turkish 10"),
            ("7", "/poker join 200"),
            ("8", "/poker join 200"),
        ]:
            await core.handle(replace(cmd(user, line), platform="telegram"))
        live = core.tables.in_channel("telegram", "c1")
        assert live is not None
        table = str(live.id)
        config = WebConfig(default_locale="en", telegram_token=TOKEN)
        async with serve_web(core, platform="telegram", config=config) as web:
            page = await web.client.get("/")
            assert page.headers["Content-Security-Policy"] == PAGE_POLICY
            assert PAGE_POLICY == (
                "img-src 'self' https://t.me https://cdn.discordapp.com;"
                " object-src 'none'; base-uri 'self'"
            )
            now = web.clock[0]
            user = {"id": 7, "first_name": "Ayşe", "photo_url": PHOTO}
            got = await web.client.post(
                "/api/auth/telegram",
                json={"initData": launch(user, now, start_param=start_param(table))},
            )
            assert got.status == 200, await got.text()
            session = (await got.json())["session"]
            ws = await web.connect()
            await ws.send_json({"type": "hello", "session": session})
            first = await receive(ws)
            seats = {s["user_id"]: s for s in first["view"]["seats"]}
            assert seats["7"]["avatar"] == PHOTO
            assert "avatar" not in seats["8"]  # no verified picture: none
            assert first["view"]["max_seats"] >= 2
            await ws.close()
    finally:
        await store.close()


def test_a_view_without_pictures_has_no_avatar_field():
    from bot.core.api import SeatView, TableView

    view = TableView("1", "turkish", "poker", "en", "waiting", seats=(SeatView("A", "1"),))
    assert '"avatar"' not in view_text(view)
    assert '"avatar":"u"' in view_text(view, {"1": "u"})
