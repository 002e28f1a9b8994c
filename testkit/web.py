"""The web table on loopback for tests and benchmarks: a real `WebTable` on a real core, an
aiohttp test client, and the chat adapter's deliveries recorded (`Harness.delivered`)."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from aiohttp import ClientWebSocketResponse
from aiohttp.test_utils import TestClient, TestServer

from bot.adapters.web.server import Front, WebConfig, WebTable
from bot.adapters.web.tokens import Identity, Signer
from bot.core.messages import Outgoing
from testkit.helpers import cmd

SECRET = "test-web-secret-0123456789"
PLATFORM = "test"


@dataclass
class Harness:
    """A web table being served: its server object, a client, and what the chat got."""

    web: WebTable
    client: TestClient
    delivered: list[Outgoing] = field(default_factory=list)
    clock: list[float] = field(default_factory=lambda: [time.time()])

    @property
    def origin(self) -> str:
        """The page's own origin (what a browser sends on the socket)."""
        return str(self.client.make_url("/")).rstrip("/")

    def link(self, user: str, table: str, platform: str = PLATFORM, locale: str = "en") -> str:
        """A link token for `user` at `table`, signed now."""
        return self.web.signer.link(Identity(platform, user, user.capitalize(), table, locale))

    async def session(self, user: str, table: str, locale: str = "en") -> str:
        """A session for `user` at `table`, through `POST /api/auth/link`."""
        response = await self.client.post(
            "/api/auth/link", json={"token": self.link(user, table, locale=locale)}
        )
        assert response.status == 200, await response.text()
        return str((await response.json())["session"])

    async def connect(self, origin: str | None = None) -> ClientWebSocketResponse:
        """A socket with our own Origin (or `origin`)."""
        return await self.client.ws_connect("/ws", headers={"Origin": origin or self.origin})

    async def viewer(
        self, user: str, table: str, locale: str = "en"
    ) -> tuple[ClientWebSocketResponse, dict[str, Any]]:
        """A socket that said hello as `user` at `table`, and its first state frame."""
        ws = await self.connect()
        await ws.send_json({"type": "hello", "session": await self.session(user, table, locale)})
        first = await receive(ws)
        assert first["type"] == "state", first
        return ws, first


async def receive(ws: ClientWebSocketResponse, timeout: float = 5.0) -> dict[str, Any]:
    """The next frame as JSON (a closed socket gives `{"type": "closed_socket"}`)."""
    message = await ws.receive(timeout=timeout)
    if message.type.name in ("CLOSE", "CLOSED", "CLOSING", "ERROR"):
        return {"type": "closed_socket", "code": ws.close_code}
    data: dict[str, Any] = json.loads(message.data)
    return data


async def receive_until(
    ws: ClientWebSocketResponse, kind: str, timeout: float = 5.0
) -> dict[str, Any]:
    """Frames until one of `kind` (the others are skipped)."""
    while True:
        data = await receive(ws, timeout)
        if data["type"] in (kind, "closed_socket"):
            return data


@asynccontextmanager
async def serve_web(
    core: Any,
    *,
    platform: str = PLATFORM,
    config: WebConfig | None = None,
) -> AsyncIterator[Harness]:
    """`core`'s tables on a web table on loopback, the chat's deliveries recorded."""
    harness_ref: list[Harness] = []

    async def deliver(items: list[Outgoing]) -> None:
        harness_ref[0].delivered.extend(items)

    clock = [time.time()]  # tokens are signed on the wall clock; tests move this one on
    web = WebTable(
        {platform: Front(core, deliver)},
        Signer(SECRET),
        config or WebConfig(default_locale="en"),
        clock=lambda: clock[0],
    )
    server = TestServer(web.app(), host="127.0.0.1")
    client = TestClient(server)
    await client.start_server()
    harness = Harness(web, client, clock=clock)
    harness_ref.append(harness)
    try:
        yield harness
    finally:
        await client.close()


async def open_poker(core: Any) -> str:
    """A Türk pokeri table in channel c1 with ayse and mehmet, the first hand dealt; its id."""
    for user, line in (
        ("ayse", "/poker open turkish 10"),
        ("ayse", "/poker join 200"),
        ("mehmet", "/poker join 200"),
        ("ayse", "/poker start"),
    ):
        await core.handle(cmd(user, line))
    return str(core.tables.in_channel("test", "c1").id)
