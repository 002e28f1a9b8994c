"""A fake of the Discord HTTP API a Discord Activity's server talks to, on loopback: the OAuth2
token endpoint, the user behind an access token, and the application's activity instances.

It answers like Discord does (docs: topics/oauth2, resources/user, resources/application "Get
Application Activity Instance"):

- `POST /oauth2/token` (form: client_id, client_secret, grant_type=authorization_code, code):
  a code is good once, for the right client; a wrong client or secret is `401 invalid_client`,
  an unknown or used code `400 invalid_grant`;
- `GET /users/@me` with `Authorization: Bearer <access token>`: the user, else 401;
- `GET /applications/{app}/activity-instances/{instance}` with `Authorization: Bot <token>`:
  the instance (`location.channel_id`, `users`), 404 when the application has no such
  instance, 401 without the bot token.

Tests give it users, codes and instances; every request is recorded (`calls`). A slow Discord:
`delay` seconds before each answer; one that never answers: `silent` (held until `close`).
"""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from testkit.fakes.loopback import serve

API = "/api/v10"


@dataclass
class FakeDiscordOAuth:
    """The fake server; `await start()` returns the API base URL (`DISCORD_API_BASE_URL`)."""

    client_id: str
    client_secret: str
    bot_token: str
    users: dict[str, dict[str, Any]] = field(default_factory=dict)  # user id -> user object
    codes: dict[str, str] = field(default_factory=dict)  # authorization code -> user id
    instances: dict[str, dict[str, Any]] = field(default_factory=dict)  # instance id -> instance
    calls: list[tuple[str, str]] = field(default_factory=list)  # (method, path)
    delay: float = 0.0  # seconds each answer waits
    silent: bool = False  # never answer (the request is held until `close`)

    def __post_init__(self) -> None:
        self.tokens: dict[str, str] = {}  # access token -> user id
        self._closing = asyncio.Event()
        self._numbers = itertools.count(1)
        self._runner: web.AppRunner | None = None

    def add_user(
        self, user_id: str, name: str, locale: str = "en-US", avatar: str | None = None
    ) -> None:
        """A Discord user (what `/users/@me` gives with the `identify` scope; `avatar` their
        avatar hash)."""
        self.users[user_id] = {
            "id": user_id,
            "username": name.lower(),
            "global_name": name,
            "discriminator": "0",
            "avatar": avatar,
            "locale": locale,
        }

    def grant(self, user_id: str) -> str:
        """A fresh authorization code for the user, as `authorize` in the Activity returns it."""
        code = f"code-{next(self._numbers)}-{user_id}"
        self.codes[code] = user_id
        return code

    def launch(
        self, channel_id: str, users: list[str], guild_id: str = "912952092627435520"
    ) -> str:
        """An activity instance running in a guild channel with these users in it; its id."""
        launch_id = str(1276580072400224306 + next(self._numbers))
        location = f"gc-{guild_id}-{channel_id}"
        instance_id = f"i-{launch_id}-{location}"
        self.instances[instance_id] = {
            "application_id": self.client_id,
            "instance_id": instance_id,
            "launch_id": launch_id,
            "location": {
                "id": location,
                "kind": "gc",
                "channel_id": channel_id,
                "guild_id": guild_id,
            },
            "users": list(users),
        }
        return instance_id

    async def start(self) -> str:
        """Listen on a free loopback port; the API base URL."""
        app = web.Application(middlewares=[self._slow])
        app.router.add_post(API + "/oauth2/token", self._token)
        app.router.add_get(API + "/users/@me", self._me)
        app.router.add_get(
            API + "/applications/{app}/activity-instances/{instance}", self._instance
        )
        self._runner, port = await serve(app)
        return f"http://127.0.0.1:{port}{API}"

    async def close(self) -> None:
        """Stop listening (requests held by `silent` end unanswered)."""
        self._closing.set()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @web.middleware
    async def _slow(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """Wait `delay` (or, `silent`, until closing) before answering."""
        if self.silent:
            await self._closing.wait()
            raise web.HTTPServiceUnavailable()
        if self.delay:
            await asyncio.sleep(self.delay)
        response: web.StreamResponse = await handler(request)
        return response

    async def _token(self, request: web.Request) -> web.Response:
        self.calls.append(("POST", "/oauth2/token"))
        form = await request.post()
        if (
            form.get("client_id") != self.client_id
            or form.get("client_secret") != self.client_secret
        ):
            return web.json_response({"error": "invalid_client"}, status=401)
        if form.get("grant_type") != "authorization_code":
            return web.json_response({"error": "unsupported_grant_type"}, status=400)
        user_id = self.codes.pop(str(form.get("code", "")), None)  # a code is good once
        if user_id is None:
            return web.json_response(
                {"error": "invalid_grant", "error_description": 'Invalid "code" in request.'},
                status=400,
            )
        token = f"access-{next(self._numbers)}"
        self.tokens[token] = user_id
        return web.json_response(
            {
                "access_token": token,
                "token_type": "Bearer",
                "expires_in": 604800,
                "refresh_token": f"refresh-{token}",
                "scope": "identify",
            }
        )

    async def _me(self, request: web.Request) -> web.Response:
        self.calls.append(("GET", "/users/@me"))
        auth = request.headers.get("Authorization", "")
        user_id = (
            self.tokens.get(auth.removeprefix("Bearer ")) if auth.startswith("Bearer ") else None
        )
        if user_id is None:
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        return web.json_response(self.users[user_id])

    async def _instance(self, request: web.Request) -> web.Response:
        self.calls.append(("GET", "/activity-instances"))
        if request.headers.get("Authorization") != f"Bot {self.bot_token}":
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        found = self.instances.get(request.match_info["instance"])
        if request.match_info["app"] != self.client_id or found is None:
            return web.json_response({"message": "404: Not Found", "code": 0}, status=404)
        return web.json_response(found)
