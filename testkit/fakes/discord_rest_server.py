"""A fake Discord REST API on loopback for discord.py's own HTTP layer: channel messages (post,
edit, delete) with Discord's per-channel rate limits.

It answers like Discord: each route and channel is a bucket of 5 requests per 5 s (posts, edits
and deletes each their own), every answer carries the `X-RateLimit-*` headers discord.py reads to
wait before a bucket runs dry, and a request over the limit gets a 429 with `retry_after`. Every
request is recorded with the loop's time, the fake keeps the messages (content and components)
so a benchmark can see the channel as a person does.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from testkit.fakes.loopback import serve

API = "/api/v10"
BUCKET_SIZE, BUCKET_SECONDS = 5, 5.0
BOT_USER = {
    "id": "4242",
    "username": "masa",
    "discriminator": "0",
    "global_name": "Masa",
    "avatar": None,
    "bot": True,
}


@dataclass
class RestCall:
    """One request: method, route kind (`post`, `edit`, `delete`, `me`), channel, when (loop
    time), and whether it went through (False for a 429 or a 404)."""

    method: str
    kind: str
    channel_id: int | None
    at: float
    ok: bool = True


@dataclass
class _Bucket:
    remaining: int = BUCKET_SIZE
    reset_at: float = float("-inf")


@dataclass
class FakeDiscordRest:
    """The fake server; `await start()` returns the base URL to give discord.py's `Route.BASE`."""

    calls: list[RestCall] = field(default_factory=list)
    messages: dict[int, dict[str, Any]] = field(default_factory=dict)  # id -> message payload
    rate_limited: int = 0  # 429 answers

    def __post_init__(self) -> None:
        self._ids = itertools.count(900_000_000_000_000_000)
        self._buckets: dict[tuple[str, int], _Bucket] = {}
        self._runner: web.AppRunner | None = None

    async def start(self) -> str:
        """Listen on a free loopback port; the API base URL."""
        app = web.Application(client_max_size=16 * 1024 * 1024)
        app.router.add_get(API + "/users/@me", self._me)
        app.router.add_post(API + "/channels/{channel}/messages", self._post)
        app.router.add_patch(API + "/channels/{channel}/messages/{message}", self._edit)
        app.router.add_delete(API + "/channels/{channel}/messages/{message}", self._delete)
        self._runner, port = await serve(app)
        return f"http://127.0.0.1:{port}{API}"

    async def stop(self) -> None:
        """Stop listening."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def channel_messages(self, channel_id: int) -> list[dict[str, Any]]:
        """The channel's messages, oldest first."""
        return [m for m in self.messages.values() if int(m["channel_id"]) == channel_id]

    def mirror(
        self, message_id: int, channel_id: int, content: str, components: list[Any] | None
    ) -> None:
        """Show a channel message written another way (an interaction's response or its edit of
        the message it came from), without counting a request; `components` None keeps them."""
        message = self.messages.setdefault(message_id, _payload(message_id, channel_id, content))
        message["content"] = content
        if components is not None:
            message["components"] = components

    # ---- rate limits -------------------------------------------------------------------------
    def _take(self, kind: str, channel_id: int) -> tuple[bool, dict[str, str]]:
        """Use one request of the route's bucket: (allowed, the rate-limit headers)."""
        now = asyncio.get_running_loop().time()
        bucket = self._buckets.setdefault((kind, channel_id), _Bucket())
        if now >= bucket.reset_at:
            bucket.remaining, bucket.reset_at = BUCKET_SIZE, now + BUCKET_SECONDS
        allowed = bucket.remaining > 0
        if allowed:
            bucket.remaining -= 1
        headers = {
            "X-RateLimit-Limit": str(BUCKET_SIZE),
            "X-RateLimit-Remaining": str(bucket.remaining),
            # rounded up: a client that waits this long finds the bucket refilled
            "X-RateLimit-Reset-After": f"{math.ceil(max(0.0, bucket.reset_at - now) * 1000) / 1000:.3f}",
            "X-RateLimit-Bucket": f"{kind}-bucket",
            "Via": "1.1 google",
        }
        return allowed, headers

    async def _limited(self, request: web.Request, kind: str, handler: Any) -> web.Response:
        channel_id = int(request.match_info["channel"])
        call = RestCall(request.method, kind, channel_id, asyncio.get_running_loop().time())
        self.calls.append(call)
        allowed, headers = self._take(kind, channel_id)
        if not allowed:
            call.ok = False
            self.rate_limited += 1
            retry = headers["X-RateLimit-Reset-After"]
            body = {"message": "You are being rate limited.", "retry_after": float(retry)}
            headers.update({"Retry-After": retry, "X-RateLimit-Scope": "user"})
            return _json({**body, "global": False}, status=429, headers=headers)
        status, payload = await handler(request, channel_id)
        call.ok = status < 400
        if status == 204:
            return web.Response(status=204, headers=headers)
        return _json(payload, status=status, headers=headers)

    # ---- routes ------------------------------------------------------------------------------
    async def _me(self, request: web.Request) -> web.Response:
        at = asyncio.get_running_loop().time()
        self.calls.append(RestCall("GET", "me", None, at))
        return _json(BOT_USER)

    async def _post(self, request: web.Request) -> web.Response:
        return await self._limited(request, "post", self._create)

    async def _edit(self, request: web.Request) -> web.Response:
        return await self._limited(request, "edit", self._update)

    async def _delete(self, request: web.Request) -> web.Response:
        return await self._limited(request, "delete", self._remove)

    async def _create(self, request: web.Request, channel_id: int) -> tuple[int, Any]:
        body, files = await _read_body(request)
        message = _payload(next(self._ids), channel_id, body.get("content") or "")
        message["components"] = body.get("components") or []
        message["attachments"] = _attachments(files)
        self.messages[int(message["id"])] = message
        return 200, message

    async def _update(self, request: web.Request, channel_id: int) -> tuple[int, Any]:
        message = self.messages.get(int(request.match_info["message"]))
        if message is None:
            return 404, {"message": "Unknown Message", "code": 10008}
        body, files = await _read_body(request)
        if "content" in body:
            message["content"] = body["content"] or ""
        if "components" in body:
            message["components"] = body["components"] or []
        if "attachments" in body or files:
            message["attachments"] = _attachments(files)
        message["edited_timestamp"] = "2026-03-01T12:00:01+00:00"
        return 200, message

    async def _remove(self, request: web.Request, channel_id: int) -> tuple[int, Any]:
        if self.messages.pop(int(request.match_info["message"]), None) is None:
            return 404, {"message": "Unknown Message", "code": 10008}
        return 204, None


async def _read_body(request: web.Request) -> tuple[dict[str, Any], list[str]]:
    """A JSON body, or a multipart one (`payload_json` plus files); (fields, file names)."""
    if request.content_type != "multipart/form-data":
        return (await request.json() if request.can_read_body else {}), []
    body: dict[str, Any] = {}
    files: list[str] = []
    reader = await request.multipart()
    async for part in reader:
        if part.name == "payload_json":  # type: ignore[union-attr]
            body = json.loads(await part.text())  # type: ignore[union-attr]
        else:
            await part.read()  # type: ignore[union-attr]
            files.append(part.filename or "file")  # type: ignore[union-attr]
    return body, files


def _payload(message_id: int, channel_id: int, content: str) -> dict[str, Any]:
    """A message object as Discord returns it (no components, no attachments yet)."""
    return {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "type": 0,
        "author": BOT_USER,
        "content": content,
        "components": [],
        "attachments": [],
        "embeds": [],
        "mentions": [],
        "mention_roles": [],
        "mention_everyone": False,
        "pinned": False,
        "tts": False,
        "flags": 0,
        "timestamp": "2026-03-01T12:00:00+00:00",
        "edited_timestamp": None,
    }


def _json(payload: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON answer typed exactly `application/json`, as discord.py expects to parse it."""
    headers = {**(headers or {}), "Content-Type": "application/json"}
    return web.Response(body=json.dumps(payload).encode(), status=status, headers=headers)


def _attachments(files: list[str]) -> list[dict[str, Any]]:
    return [
        {
            "id": str(900 + i),
            "filename": name,
            "size": 1,
            "url": "http://x",
            "proxy_url": "http://x",
        }
        for i, name in enumerate(files)
    ]
