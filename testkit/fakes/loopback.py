"""Serving a fake's aiohttp app on loopback (shared by the fake platform servers)."""

from __future__ import annotations

from aiohttp import web


async def serve(app: web.Application, port: int = 0) -> tuple[web.AppRunner, int]:
    """Listen with `app` on 127.0.0.1 at `port` (0: a free one); the runner (to clean up) and
    the port it got."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", port)
    await site.start()
    return runner, site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
