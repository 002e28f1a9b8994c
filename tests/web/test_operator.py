"""`/healthz` and `/metrics`."""

from __future__ import annotations

import asyncio

from aiohttp.test_utils import TestClient, TestServer

from bot.adapters.web.metrics import MeteredCore, Metrics
from bot.adapters.web.server import Front, WebConfig, WebTable
from bot.adapters.web.tokens import Signer
from storage import Store
from testkit.helpers import cmd, make_core
from testkit.web import serve_web


async def test_healthz_is_200_with_the_database_and_the_adapters(memory_store):
    core = make_core(memory_store)
    config = WebConfig(default_locale="en", states={"console": lambda: "running"})
    async with serve_web(core, config=config) as web:
        response = await web.client.get("/healthz")
        assert response.status == 200
        body = await response.json()
        assert body["database"] == "ok" and body["adapters"] == {"console": "running"}


async def test_healthz_is_503_when_the_database_is_unreachable():
    # nothing listens on port 1: every connection is refused
    store = await Store.open("postgresql+asyncpg://bot:x@127.0.0.1:1/bot", migrate=False)
    try:
        async with serve_web(make_core(store)) as web:
            response = await web.client.get("/healthz")
            assert response.status == 503
            assert (await response.json())["database"] == "unreachable"
    finally:
        await store.close()


async def test_metrics_has_the_named_series(memory_store):
    metrics = Metrics()
    core = MeteredCore(make_core(memory_store), metrics)
    await core.handle(cmd("ayse", "/poker open turkish 10"))
    await core.handle(cmd("ayse", "/poker nonsense"))  # refused
    metrics.platform_call("test")
    metrics.rate_limited("test")
    web = WebTable({"test": Front(core)}, Signer("s" * 20), WebConfig(), metrics=metrics)
    from aiohttp.test_utils import TestClient, TestServer

    async with TestClient(TestServer(web.app())) as client:
        response = await client.get("/metrics")
        assert response.status == 200
        text = await response.text()
    for series in (
        'bot_commands_total{platform="test"} 2.0',
        'bot_refusals_total{platform="test"} 1.0',
        "bot_presses_total",
        "bot_answer_seconds_bucket",
        'bot_platform_calls_total{platform="test"} 1.0',
        'bot_rate_limit_waits_total{platform="test"} 1.0',
        "bot_open_tables 1.0",
        "bot_web_viewers 0.0",
    ):
        assert series in text, series


def test_two_metrics_objects_share_no_series():
    first, second = Metrics(), Metrics()
    first.platform_call("telegram")
    assert b'bot_platform_calls_total{platform="telegram"} 1.0' in first.render()
    assert b"bot_platform_calls_total{" not in second.render()


async def test_the_core_and_a_metered_core_are_live_table_apis(memory_store):
    from bot.core.api import CoreApi, LiveTableApi
    from bot.core.app import Core

    assert isinstance(Core(memory_store), LiveTableApi)
    assert isinstance(MeteredCore(Core(memory_store), Metrics()), CoreApi)


async def test_the_page_resolves_its_relative_urls_from_the_servers_root(memory_store):
    """`/` serves the page as it is; a signed link's `/t/<token>` gets `<base href="../">`, so the
    page's relative URLs (`static/app.js`, `api/...`, `ws`) start at the root there too."""
    async with serve_web(make_core(memory_store)) as web:
        plain = await (await web.client.get("/")).text()
        linked = await web.client.get("/t/some-token")
        assert linked.status == 200 and linked.headers["Referrer-Policy"] == "no-referrer"
        html = await linked.text()
    assert 'src="static/app.js"' in plain and "<base" not in plain
    assert '<base href="../">' in html and 'src="static/app.js"' in html


async def test_every_answer_forbids_guessing_its_type(memory_store):
    async with serve_web(make_core(memory_store)) as web:
        answers = [
            await web.client.get("/"),
            await web.client.get("/static/app.js"),
            await web.client.get("/healthz"),
            await web.client.post("/api/auth/link", json={"token": "forged"}),
            await web.client.get("/no-such-page"),
        ]
        assert [a.headers.get("X-Content-Type-Options") for a in answers] == ["nosniff"] * 5
        assert answers[3].status == 401 and answers[4].status == 404


class _Hanging(MeteredCore):
    """A core whose database never answers (a PostgreSQL host that drops packets)."""

    async def healthy(self) -> bool:
        await asyncio.Event().wait()
        return True


async def test_healthz_is_503_at_once_when_the_database_hangs(memory_store):
    core = _Hanging(make_core(memory_store), Metrics())
    config = WebConfig(default_locale="en", health_seconds=0.0)
    web = WebTable({"test": Front(core)}, Signer("s" * 20), config)
    async with TestClient(TestServer(web.app())) as client:
        response = await asyncio.wait_for(client.get("/healthz"), 5.0)
        assert response.status == 503
        assert (await response.json())["database"] == "unreachable"
