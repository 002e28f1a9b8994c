"""The webhook listener: Telegram's POSTs on one port and path become updates of the application.

PTB's own `Updater.start_webhook` always calls `setWebhook`, so a process that only listens
(several processes behind one URL, `TELEGRAM_SET_WEBHOOK=false`) cannot use it. This listener
does what PTB's does, as PTB's custom-webhook example shows: check the secret header, decode the
update and put it on `application.update_queue`; registering the URL is `register_webhook`, done
by one process only. Neither ever calls `deleteWebhook`: a process that stops leaves the webhook
to the others.
"""

from __future__ import annotations

import hmac
import json
import logging
from collections.abc import Sequence
from typing import Any

from aiohttp import web
from telegram import Bot, Update

from bot.logs import kv

log = logging.getLogger("bot.telegram")

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


class WebhookListener:
    """An HTTP server on `listen:port` that accepts Telegram's update POSTs at `path` when they
    carry `secret` and queues them for the application (`start()`, then `stop()`)."""

    def __init__(self, application: Any, *, path: str, secret: str, listen: str, port: int) -> None:
        self.application = application
        self.path = "/" + path.lstrip("/")
        self.secret = secret.encode()
        self.listen = listen
        self.port = port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        """Start listening; updates are accepted from here on."""
        app = web.Application()
        app.router.add_post(self.path, self._receive)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.listen, self.port).start()
        log.info(kv(event="webhook_listening", listen=self.listen, port=self.port))

    async def stop(self) -> None:
        """Stop listening (a POST being received is finished first); the updates already queued
        are still handled by the application."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _receive(self, request: web.Request) -> web.Response:
        given = request.headers.get(SECRET_HEADER, "").encode()
        if not hmac.compare_digest(given, self.secret):
            log.warning(kv(event="webhook_forbidden", peer=request.remote))
            return web.Response(status=403, text="wrong or missing secret token")
        try:
            update = Update.de_json(json.loads(await request.read()), self.application.bot)
        except Exception as exc:  # anything unreadable is Telegram's (or a forger's) fault
            log.warning(kv(event="webhook_bad_update", error=type(exc).__name__))
            return web.Response(status=400, text="not an update")
        await self.application.update_queue.put(update)
        return web.Response(text="ok")


async def register_webhook(bot: Bot, url: str, secret: str, allowed_updates: Sequence[str]) -> None:
    """Point Telegram at `url`, telling it to send `secret` with every update (one process
    does this for all of them)."""
    await bot.set_webhook(url=url, secret_token=secret, allowed_updates=allowed_updates)
    log.info(kv(event="webhook_set"))  # not the URL: some put a secret in its path
