"""Who is looking: signed tokens, Telegram Mini App launch data, `/table web`."""

from __future__ import annotations

import json
import time
from urllib.parse import urlencode

from bot.adapters.web import telegram_auth
from bot.adapters.web.server import WebConfig, start_param, table_of_start
from bot.adapters.web.tokens import Identity, Signer
from bot.core.i18n import t
from bot.core.messages import Command, OutKind
from testkit.helpers import cmd, make_core
from testkit.web import receive, serve_web

TOKEN = "123456:TEST-telegram-token"
AYSE = Identity("test", "ayse", "Ayse", "1", "en")


def test_tokens_read_back_and_refuse_forgeries_expiry_and_the_other_salt():
    signer = Signer("a-secret-of-some-length")
    link = signer.link(AYSE)
    now = time.time()
    assert signer.read_link(link, now) == AYSE
    assert signer.read_session(link, now) is None  # a link is no session
    assert signer.read_link(link, now + 2 * 24 * 3600) is None  # expired
    assert Signer("another-secret-entirely").read_link(link, now) is None
    assert signer.read_link(link[:-2] + "xy", now) is None
    assert signer.read_link("", now) is None and signer.read_link(None, now) is None


def init_data(fields: dict[str, str], token: str = TOKEN) -> str:
    """Launch data as Telegram hands it to a Mini App: the fields and their hash."""
    return urlencode({**fields, "hash": telegram_auth.sign(fields, token)})


def launch(user_id: int = 42, start: str | None = "t1", age: float = 10) -> dict[str, str]:
    user = {"id": user_id, "first_name": "Ayşe", "language_code": "tr"}
    fields = {
        "query_id": "AAE",
        "user": json.dumps(user, ensure_ascii=False, separators=(",", ":")),
        "auth_date": str(int(time.time() - age)),
    }
    if start is not None:
        fields["start_param"] = start
    return fields


def test_telegram_launch_data_good_bad_hash_too_old_and_tampered():
    now = time.time()
    good = telegram_auth.validate(init_data(launch()), TOKEN, now)
    assert good is not None and good.user_id == "42" and good.start_param == "t1"
    assert good.name == "Ayşe" and good.language == "tr"
    assert telegram_auth.validate(init_data(launch(), "999:other"), TOKEN, now) is None
    old = init_data(launch(age=2 * 24 * 3600))
    assert telegram_auth.validate(old, TOKEN, now) is None
    tampered = init_data(launch()).replace("%22id%22%3A42", "%22id%22%3A43")
    assert tampered != init_data(launch())
    assert telegram_auth.validate(tampered, TOKEN, now) is None
    no_hash = urlencode(launch())
    assert telegram_auth.validate(no_hash, TOKEN, now) is None
    twice = init_data(launch()) + "&auth_date=1"
    assert telegram_auth.validate(twice, TOKEN, now) is None


def test_a_start_parameter_names_a_table_only():
    assert table_of_start(start_param("12")) == "12"
    for bad in ("12", "t", "tabc", "u12", None, "t" + "9" * 30):
        assert table_of_start(bad) is None


async def open_telegram_table(core) -> str:
    for line in ("/okey start", "/okey join"):
        words = line.lstrip("/").split()
        await core.handle(
            Command("telegram", "-100", "42", "Ayşe", words[0], tuple(words[1:]), "en")
        )
    return str(core.tables.in_channel("telegram", "-100").id)


async def test_post_auth_telegram_gives_a_session_for_the_signed_user(memory_store):
    core = make_core(memory_store)
    table = await open_telegram_table(core)
    config = WebConfig(telegram_token=TOKEN, default_locale="en")
    async with serve_web(core, platform="telegram", config=config) as web:
        data = init_data(launch(start=start_param(table)))
        ok = await web.client.post("/api/auth/telegram", json={"initData": data})
        assert ok.status == 200
        body = await ok.json()
        assert body["table"] == table
        who = web.web.signer.read_session(body["session"], web.clock[0])
        assert who is not None and who.user_id == "42" and who.platform == "telegram"
        # the table may also come from the page (the start parameter in the address)
        data = init_data(launch(start=None))
        ok = await web.client.post(
            "/api/auth/telegram", json={"initData": data, "table": start_param(table)}
        )
        assert ok.status == 200
        bad = init_data(launch(start=start_param(table)), "1:wrong")
        refused = await web.client.post("/api/auth/telegram", json={"initData": bad})
        assert refused.status == 401 and (await refused.json())["error"]
        nowhere = init_data(launch(start="t999"))
        assert (
            await web.client.post("/api/auth/telegram", json={"initData": nowhere})
        ).status == 401
        assert (await web.client.post("/api/auth/telegram", data=b"not json")).status == 401


async def test_table_web_answers_privately_with_a_link_the_server_takes(memory_store):
    made = []

    def link(platform, user, name, table, locale):
        made.append((platform, user, name, table, locale))
        return f"https://example.test/t/{platform}-{user}-{table}"

    core = make_core(memory_store, web_link=link)
    await core.handle(cmd("ayse", "/poker open turkish 10"))
    assert not core.needs_moderator("table", ("web",))
    assert core.needs_moderator("table", ("reset",))
    out = await core.handle(cmd("mehmet", "/table web"))
    [item] = out
    assert item.kind is OutKind.PRIVATE and item.user_id == "mehmet"
    assert "https://example.test/t/test-mehmet-1" in item.text
    assert made == [("test", "mehmet", "Mehmet", "1", "en")]
    plain = make_core(memory_store)
    [refused] = await plain.handle(cmd("ayse", "/table web"))
    assert refused.kind is OutKind.ERROR


async def test_a_refusal_before_sign_in_follows_the_browsers_preferred_language(memory_store):
    """Accept-Language as browsers send it: weights (`;q=`) and languages we do not speak."""
    core = make_core(memory_store)
    async with serve_web(core, config=WebConfig(default_locale="tr")) as web:
        for header, locale in (
            ("en;q=0.9,tr;q=0.5", "en"),
            ("tr;q=0.4, en;q=0.8", "en"),
            ("de-DE,de;q=0.9,en;q=0.8", "en"),
            ("en-US,en;q=0.9", "en"),
            ("de, fr", "tr"),
            ("en;q=0, tr", "tr"),
            ("", "tr"),
        ):
            refused = await web.client.post(
                "/api/auth/link", json={"token": "forged"}, headers={"Accept-Language": header}
            )
            assert (await refused.json())["error"] == t(locale, "err.web_session"), header
            ws = await web.client.ws_connect(
                "/ws", headers={"Origin": web.origin, "Accept-Language": header}
            )
            await ws.send_json({"type": "hello", "session": "forged"})
            assert (await receive(ws))["text"] == t(locale, "err.web_session"), header
            await ws.close()
