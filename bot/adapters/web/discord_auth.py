"""Who is looking at the web table from inside Discord (the Activity), asked of Discord itself.

The page running in Discord's iframe gets an OAuth2 authorization code from the Embedded App SDK
(`authorize`, scope `identify`) and posts it with the SDK's `instanceId`:

    POST /api/auth/discord  {"code": "...", "instance_id": "..."}
      -> 200 {"session": "<session token>", "table": "<table id>", "locale": "tr"|"en",
              "access_token": "<the viewer's own Discord access token>"}
      -> 401 {"error": "<why, in the viewer's language>"}
      -> 504 {"error": "..."} when the whole sign-in took longer than `SIGNIN_SECONDS`

The server trusts nothing the page says about itself. It exchanges the code at Discord's token
endpoint with the app's client id and secret (a code is good once, for our app only), reads the
user behind the access token (`GET /users/@me`), then asks Discord with the bot token for the
activity instance (`GET /applications/{app}/activity-instances/{instance}`): the instance must
be our app's, the user must be in it, and its channel is the one whose open table the session is
for (`CoreApi.table_in_channel`): the shared room of that channel the user last opened the
Activity on (the table message's button, kept in the store by whichever process got the press:
`CoreApi.chosen_room`), while it is open, else the channel's own. The whole sign-in (the three
calls in a row and the table's lookup) is bounded by `SIGNIN_SECONDS`, not each call alone, so a
Discord that never answers holds the page that long at most. `GET /api/auth/discord` gives
the page the public client id for the SDK. The access token goes back to the page that
brought its code only, so that the SDK can `authenticate` with it (Rich Presence needs
`rpc.activities.write`); the user's avatar hash becomes their seat's picture (`avatars`). The Discord API base URL is a setting (`DISCORD_API_BASE_URL`) so tests point it at
a local fake (testkit/fakes/discord_oauth_server.py). Neither the code nor the access token is
ever logged or kept.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import quote

import aiohttp
from aiohttp import web

from bot.adapters.web.avatars import discord_avatar
from bot.adapters.web.tokens import Identity
from bot.core.i18n import normalize_locale, preferred_locale, t
from bot.core.names import clean_name
from bot.core.table.rooms import is_shared_room, parent_of
from bot.core.throttle import Throttle, Verdict
from bot.logs import kv

if TYPE_CHECKING:
    from bot.adapters.web.server import WebTable

log = logging.getLogger("bot.web")

PLATFORM = "discord"
ROUTE = "/api/auth/discord"
MAX_BODY = 4096  # the page's request is a few hundred bytes
CODE = re.compile(r"[A-Za-z0-9._~-]{1,512}")  # OAuth2 codes are short URL-safe strings
INSTANCE = re.compile(r"[A-Za-z0-9_-]{1,200}")  # e.g. i-1276580072400224306-gc-9129...-9129...
PROXY_DOMAIN = "discordsays.com"  # the Activity's page: https://<client id>.discordsays.com
SIGNIN_SECONDS = 8.0  # the whole sign-in, every call to Discord's API in it together
DISCORD_SECONDS = 10.0  # each call alone (a safety net: the whole sign-in's bound comes first)
# Sign-ins asked of Discord, all pages together: Discord bans an address that makes 10,000
# invalid requests in 10 minutes, so a flood of made-up codes must never reach it (legitimate
# sign-ins are one per player per launch). At most 30 at once, then one a second.
SIGNIN_BURST, SIGNIN_RATE = 30, 1.0
HTTP_KEY: web.AppKey[aiohttp.ClientSession] = web.AppKey("discord_http", aiohttp.ClientSession)


@dataclass(frozen=True)
class DiscordApp:
    """The app's credentials the check needs: OAuth2 client id and secret, the bot token (for
    the activity instance) and the API base URL."""

    client_id: str
    client_secret: str
    bot_token: str
    api_base: str = "https://discord.com/api/v10"

    @classmethod
    def from_settings(cls, settings: Any) -> DiscordApp | None:
        """From `bot.settings.Settings`; None unless DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET and
        DISCORD_TOKEN are all set (the Activity is off then)."""
        if not settings.discord_activity or settings.discord_token is None:
            return None
        return cls(
            client_id=str(settings.discord_client_id),
            client_secret=settings.discord_client_secret.get_secret_value(),
            bot_token=settings.discord_token.get_secret_value(),
            api_base=settings.discord_api_base_url.rstrip("/"),
        )


@dataclass(frozen=True)
class DiscordViewer:
    """A Discord user Discord confirmed is in one of our activity instances, and where."""

    user_id: str
    name: str
    channel_id: str
    locale: str | None  # `tr`/`en` from their Discord client language, None for others
    avatar: str = ""  # their avatar's URL on Discord's CDN (the default one without their own)
    access_token: str = field(default="", repr=False)  # for the page's SDK only, never logged


class Denied(Exception):
    """Discord did not confirm the viewer; `reason` is for the log only (never a secret)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Unreachable(Exception):
    """Discord's API could not be asked (network, time-out, server error)."""


class Tables(Protocol):
    """What the route asks of the core (`bot.core.api.CoreApi` has them)."""

    async def table_in_channel(self, platform: str, channel_id: str) -> str | None: ...

    async def chosen_room(self, platform: str, user_id: str, channel_id: str) -> str | None: ...

    async def locale_of(self, platform: str, user_id: str) -> str | None: ...


# (user id, display name, table id, locale) -> a session token of the web table
IssueSession = Callable[[str, str, str, str], str]
# (user id, avatar URL) -> None: the seat picture of a confirmed viewer
Remember = Callable[[str, str], None]


async def _json(response: aiohttp.ClientResponse, what: str) -> dict[str, Any]:
    if response.status >= 500:
        raise Unreachable(f"{what} {response.status}")
    if response.status != 200:
        raise Denied(f"{what} {response.status}")
    try:
        data = await response.json(content_type=None)
    except (json.JSONDecodeError, aiohttp.ContentTypeError, UnicodeDecodeError):
        raise Denied(f"{what} unreadable") from None
    if not isinstance(data, dict):
        raise Denied(f"{what} unreadable")
    return data


async def identify(
    http: aiohttp.ClientSession,
    app: DiscordApp,
    code: str,
    instance_id: str,
    seconds: float = DISCORD_SECONDS,
) -> DiscordViewer:
    """Ask Discord who holds `code` and whether they are in `instance_id` (ours), and where it
    runs. Raises `Denied` (bad or used code, unknown instance, user not in it, another app's)
    or `Unreachable` (a call that took `seconds` among them); the caller bounds the three calls
    together."""
    timeout = aiohttp.ClientTimeout(total=seconds)
    form = {
        "client_id": app.client_id,
        "client_secret": app.client_secret,
        "grant_type": "authorization_code",
        "code": code,
    }
    try:
        async with http.post(f"{app.api_base}/oauth2/token", data=form, timeout=timeout) as got:
            grant = await _json(got, "token")
        access = grant.get("access_token")
        if not isinstance(access, str) or not access:
            raise Denied("token missing")
        bearer = {"Authorization": f"Bearer {access}"}
        async with http.get(f"{app.api_base}/users/@me", headers=bearer, timeout=timeout) as got:
            user = await _json(got, "user")
        where = f"{app.api_base}/applications/{quote(app.client_id, safe='')}"
        where += f"/activity-instances/{quote(instance_id, safe='')}"
        bot = {"Authorization": f"Bot {app.bot_token}"}
        async with http.get(where, headers=bot, timeout=timeout) as got:
            instance = await _json(got, "instance")
    except (aiohttp.ClientError, TimeoutError) as exc:
        raise Unreachable(type(exc).__name__) from None
    user_id = str(user.get("id") or "")
    if not user_id.isdigit():
        raise Denied("user unreadable")
    if str(instance.get("application_id")) != app.client_id:
        raise Denied("instance of another app")
    if user_id not in {str(u) for u in instance.get("users") or ()}:
        raise Denied("user not in instance")
    location = instance.get("location")
    channel = location.get("channel_id") if isinstance(location, dict) else None
    if channel is None or not str(channel).isdigit():
        raise Denied("instance without channel")
    shown = user.get("global_name") or user.get("username") or ""
    raw_locale = user.get("locale")
    return DiscordViewer(
        user_id=user_id,
        name=clean_name(str(shown), user_id),
        channel_id=str(channel),
        locale=normalize_locale(raw_locale if isinstance(raw_locale, str) else None),
        avatar=discord_avatar(user_id, user.get("avatar")),
        access_token=access,
    )


def _asked_locale(request: web.Request, default: str) -> str:
    """The language of a refusal before Discord told us who asks: the browser's most preferred
    of Turkish and English, else the bot's default."""
    return preferred_locale(request.headers.get("Accept-Language")) or default


def _refused(locale: str, key: str, status: int = 401) -> web.Response:
    return web.json_response({"error": t(locale, key)}, status=status)


def add_discord_routes(
    app: web.Application,
    *,
    discord: DiscordApp,
    tables: Tables,
    issue: IssueSession,
    default_locale: str = "tr",
    budget: Throttle | None = None,
    signin_seconds: float = SIGNIN_SECONDS,
    remember: Remember | None = None,
) -> None:
    """Serve `POST /api/auth/discord` (and `GET` for the client id) on the web table's app;
    `issue` makes the session token for a confirmed viewer's table (`viewed_table`). The route's HTTP
    client to Discord lives as long as the app; `budget` bounds how often Discord is asked (a
    429 past it: `SIGNIN_BURST`, `SIGNIN_RATE`); a sign-in not done within `signin_seconds`
    is answered 504 with `err.discord_timeout`; `remember` keeps a confirmed viewer's
    avatar."""
    if budget is None:  # (an empty Throttle is falsy: it has a length)
        budget = Throttle(SIGNIN_BURST, SIGNIN_RATE, time.monotonic)

    async def http_client(app: web.Application) -> AsyncIterator[None]:
        async with aiohttp.ClientSession() as http:
            app[HTTP_KEY] = http
            yield

    app.cleanup_ctx.append(http_client)

    async def config(request: web.Request) -> web.Response:
        return web.json_response({"client_id": discord.client_id})

    async def login(request: web.Request) -> web.Response:
        asked = _asked_locale(request, default_locale)
        if (request.content_length or 0) > MAX_BODY:
            return _refused(asked, "err.discord_auth", 413)
        raw = await request.content.read(MAX_BODY + 1)
        try:
            body = json.loads(raw) if len(raw) <= MAX_BODY else None
        except (json.JSONDecodeError, UnicodeDecodeError):
            body = None
        code = body.get("code") if isinstance(body, dict) else None
        instance_id = body.get("instance_id") if isinstance(body, dict) else None
        if not (isinstance(code, str) and CODE.fullmatch(code)) or not (
            isinstance(instance_id, str) and INSTANCE.fullmatch(instance_id)
        ):
            log.info(kv(event="discord_auth", outcome="malformed"))
            return _refused(asked, "err.discord_auth")
        if budget.take(ROUTE) is not Verdict.OK:
            log.warning(kv(event="discord_auth", outcome="busy"))
            return _refused(asked, "err.discord_busy", 429)
        locale = asked  # the viewer's own, once Discord and the store said who they are
        try:
            async with asyncio.timeout(signin_seconds):
                viewer = await identify(request.app[HTTP_KEY], discord, code, instance_id)
                chosen = await tables.locale_of(PLATFORM, viewer.user_id)
                locale = chosen or viewer.locale or asked
                table_id = await viewed_table(tables, viewer)
        except TimeoutError:
            log.warning(kv(event="discord_auth", outcome="timed_out", seconds=signin_seconds))
            return _refused(locale, "err.discord_timeout", 504)
        except Denied as exc:
            log.info(kv(event="discord_auth", outcome="denied", reason=exc.reason))
            return _refused(asked, "err.discord_auth")
        except Unreachable as exc:
            log.warning(kv(event="discord_auth", outcome="unreachable", reason=str(exc)))
            return _refused(asked, "err.discord_unreachable", 502)
        if table_id is None:
            log.info(kv(event="discord_auth", outcome="no_table", channel=viewer.channel_id))
            return _refused(locale, "err.no_table")
        session = issue(viewer.user_id, viewer.name, table_id, locale)
        if remember is not None:
            remember(viewer.user_id, viewer.avatar)
        log.info(kv(event="discord_auth", outcome="ok", user=viewer.user_id, table=table_id))
        answer = {"session": session, "table": table_id, "locale": locale}
        return web.json_response({**answer, "access_token": viewer.access_token})

    app.router.add_get(ROUTE, config)
    app.router.add_post(ROUTE, login)


async def viewed_table(tables: Tables, viewer: DiscordViewer) -> str | None:
    """The table the viewer's Activity shows: the shared room of the instance's channel they
    opened it on (the store's choice, made by a button press on any process; only a room of
    that very channel, and only while its table is open), else the channel's own open table;
    None when there is neither."""
    room = await tables.chosen_room(PLATFORM, viewer.user_id, viewer.channel_id)
    if room is not None and is_shared_room(room) and parent_of(room) == viewer.channel_id:
        in_room = await tables.table_in_channel(PLATFORM, room)
        if in_room is not None:
            return in_room
    return await tables.table_in_channel(PLATFORM, viewer.channel_id)


def activity_origin(client_id: str) -> str:
    """The origin of the Activity's page (Discord's proxy), which opens the socket."""
    return f"https://{client_id}.{PROXY_DOMAIN}"


def attach_discord(table: WebTable, discord: DiscordApp) -> None:
    """Let the Discord Activity in on the web table `table` (before it starts serving): its
    sign-in route, sessions signed like every other (platform `discord`, the Discord front's
    tables), and the proxy's origin on the socket."""
    front = table.fronts.get(PLATFORM)
    if front is None:
        raise ValueError("the web table has no Discord front")
    table.config = replace(
        table.config, origins=(*table.config.origins, activity_origin(discord.client_id))
    )

    def issue(user_id: str, name: str, table_id: str, locale: str) -> str:
        return table.signer.session(Identity(PLATFORM, user_id, name, table_id, locale))

    def extend(app: web.Application) -> None:
        add_discord_routes(
            app,
            discord=discord,
            tables=front.core,
            issue=issue,
            default_locale=table.config.default_locale,
            remember=lambda user_id, url: table.avatars.remember(PLATFORM, user_id, url),
        )

    table.extensions.append(extend)
