"""The web table's HTTP and WebSocket server (aiohttp), in the bot's process.

Routes: `/` and `/t/<link token>` serve the page (`static/index.html`), `/static/...` its
files; `POST /api/auth/link` and `POST /api/auth/telegram` trade a signed link or a Mini App's
launch data for a session; `GET /ws` is one viewer's socket (docs/web.md, "Protocol");
`POST /api/rematch` presses "Play again" for a page whose table closed and trades its session
for one at the new table; `GET /healthz` and `GET /metrics` are for the operator.

Identity comes only from what the server verifies (its own signature, Telegram's); the page
never says who it is. A move from the page goes through `Core.press` exactly as the chat's
button would, and what the core answers goes to the chat adapter (`Front.deliver`), so the chat
message and the page agree; a refusal comes back to the page as `refused`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from bot.adapters.web import telegram_auth
from bot.adapters.web.avatars import PAGE_POLICY, Avatars
from bot.adapters.web.hub import Hub, Viewer, closed_frame, send
from bot.adapters.web.metrics import Metrics
from bot.adapters.web.tokens import Identity, Signer
from bot.adapters.web.wire import (
    MAX_FRAME,
    BadFrame,
    frame,
    move_of,
    parse,
    slots_of,
    state_frame,
    tiles_choice,
)
from bot.core.api import LiveTableApi
from bot.core.i18n import catalogue, normalize_locale, preferred_locale, t
from bot.core.messages import WARNING, Command, Outgoing, OutKind, Sender
from bot.core.moves import Rematch
from bot.core.throttle import Throttle, Verdict
from bot.logs import kv

log = logging.getLogger("bot.web")

STATIC = Path(__file__).parent / "static"
MAX_BODY = 8192  # bytes of an auth request
FRAME_BURST = 20  # frames a page may send at once ...
FRAME_RATE = 5.0  # ... then this many a second
FLOOD_CLOSE = 50  # frames over the budget in a row before the socket is closed
MAX_PAGES_PER_USER = 5  # one user's pages at a table (reloads, devices); more close the oldest
HEARTBEAT = 30.0  # seconds between WebSocket pings (a dead page is noticed)
ENDED = frozenset({WSMsgType.ERROR, WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED})
TELEGRAM = "telegram"
HIDDEN = "err.private_no_watchers"  # a private table with watching off, to a spectator
START_PREFIX = "t"  # a Mini App start parameter: `t<table id>` (a table, never a person)

Deliver = Callable[[list[Outgoing]], Awaitable[object]]


@dataclass
class Front:
    """One platform as the web table sees it: its core, and where the chat's items go (the
    chat adapter's deliver; None until the adapter is up, then items are dropped)."""

    core: LiveTableApi
    deliver: Deliver | None = None


@dataclass
class WebConfig:
    """What the server needs to know besides the cores."""

    public_url: str | None = None  # https://... behind the reverse proxy; None: loopback only
    max_viewers: int = 100  # pages per table (seated players always get in)
    telegram_token: str | None = None  # to check Mini App launch data
    default_locale: str = "tr"
    states: dict[str, Callable[[], str]] = field(default_factory=dict)  # adapter -> its state
    health_seconds: float = 5.0  # `/healthz`: a database silent this long is unreachable
    hello_seconds: float = 10.0  # a socket that has not said hello by then is closed
    # other origins whose page may open the socket: the Discord Activity's proxy
    # (`https://<client id>.discordsays.com`, bot/adapters/web/discord_auth.py)
    origins: tuple[str, ...] = ()


class WebTable:
    """The web table's server: `app()` for aiohttp, `start(host, port)` and `stop()`."""

    def __init__(
        self,
        fronts: dict[str, Front],
        signer: Signer,
        config: WebConfig | None = None,
        *,
        metrics: Metrics | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.fronts = fronts
        self.signer = signer
        self.config = config or WebConfig()
        self.metrics = metrics or Metrics()
        self.clock = clock
        self.avatars = Avatars()  # players' verified pictures, kept when they sign in
        self.hub = Hub(
            {name: f.core for name, f in fronts.items()},
            on_sent=self._sent,
            clock=lambda: self.clock(),
            avatars=self.avatars,
        )
        self.metrics.watch(self._gauges)
        self._runner: web.AppRunner | None = None
        self._follow: list[Callable[[], Awaitable[None]]] = []
        # more routes, added to each app (`discord_auth.attach_discord`: the Activity's sign-in)
        self.extensions: list[Callable[[web.Application], None]] = []

    # --- the application ----------------------------------------------------------------------

    def app(self) -> web.Application:
        """The aiohttp application (its start and stop hooks run the hub)."""
        app = web.Application(client_max_size=MAX_BODY)
        app.router.add_get("/", self.page)
        app.router.add_get("/t/{token}", self.page)
        app.router.add_post("/api/auth/link", self.auth_link)
        app.router.add_post("/api/auth/telegram", self.auth_telegram)
        app.router.add_post("/api/rematch", self.rematch)
        app.router.add_get("/ws", self.socket)
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.metrics_text)
        if STATIC.is_dir():
            app.router.add_static("/static/", STATIC, follow_symlinks=False)
        for extend in self.extensions:
            extend(app)
        app.on_startup.append(self._on_startup)
        app.on_shutdown.append(self._on_shutdown)
        app.on_response_prepare.append(_no_sniffing)
        return app

    async def _on_startup(self, _app: web.Application) -> None:
        self.hub.start()
        for front in self.fronts.values():
            follow = getattr(front.core, "follow", None)
            if follow is not None:
                try:
                    self._follow.append(await follow())
                except Exception:  # the page still works for this process's commits
                    log.exception(kv(event="web_follow_failed"))

    async def _on_shutdown(self, _app: web.Application) -> None:
        for stop in self._follow:
            with contextlib.suppress(Exception):
                await stop()
        self._follow.clear()
        await self.hub.stop()

    async def start(self, host: str, port: int) -> None:
        """Listen on `host:port` (port 0: any free port, see `port`)."""
        self._runner = web.AppRunner(
            self.app(), access_log=None, handle_signals=False, shutdown_timeout=2.0
        )
        await self._runner.setup()
        await web.TCPSite(self._runner, host, port).start()

    @property
    def port(self) -> int | None:
        """The port listened on, once started."""
        if self._runner is None:
            return None
        for address in self._runner.addresses:
            return int(address[1])
        return None

    async def stop(self) -> None:
        """Close every socket and stop listening."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # --- pages and health ---------------------------------------------------------------------

    async def page(self, request: web.Request) -> web.StreamResponse:
        """The page (the link token in `/t/<token>` is read by the page's script)."""
        index = STATIC / "index.html"
        if not index.is_file():
            return web.Response(text="The web table's page is not installed.", status=404)
        if "token" in request.match_info:  # `/t/<token>`: the page's relative URLs start at `/`
            html = index.read_text(encoding="utf-8")
            html = html.replace("<head>", '<head>\n<base href="../">', 1)
            response: web.StreamResponse = web.Response(text=html, content_type="text/html")
        else:
            response = web.FileResponse(index)
        response.headers["Cache-Control"] = "no-store"
        response.headers["Referrer-Policy"] = "no-referrer"  # the link token stays here
        response.headers["Content-Security-Policy"] = PAGE_POLICY  # seat pictures' hosts only
        return response

    async def healthz(self, request: web.Request) -> web.Response:
        """200 with the database and each adapter's state; 503 when the database is down."""
        checks = await asyncio.gather(*(self._answers(f.core) for f in self.fronts.values()))
        database = bool(checks) and all(checks)
        body = {
            "database": "ok" if database else "unreachable",
            "adapters": {name: state() for name, state in self.config.states.items()},
            "viewers": self.hub.viewers(),
        }
        return web.json_response(body, status=200 if database else 503)

    async def _answers(self, core: LiveTableApi) -> bool:
        """Whether the core's database answers in time (a host that drops packets would hold
        the check for the driver's whole connect time-out)."""
        try:
            return await asyncio.wait_for(core.healthy(), self.config.health_seconds)
        except TimeoutError:
            return False

    async def metrics_text(self, request: web.Request) -> web.Response:
        """Prometheus text."""
        return web.Response(
            body=self.metrics.render(),
            headers={"Content-Type": "text/plain; version=0.0.4; charset=utf-8"},
        )

    def _gauges(self) -> None:
        self.metrics.open_tables.set(sum(f.core.open_tables() for f in self.fronts.values()))
        self.metrics.viewers.set(self.hub.viewers())

    def _sent(self, table_id: str, viewers: int, size: int) -> None:
        self.metrics.web_frames.inc(viewers)
        self.metrics.web_bytes.inc(size)

    # --- sessions -----------------------------------------------------------------------------

    async def auth_link(self, request: web.Request) -> web.Response:
        """`{"token": <link token>}` -> a session for the link's user and table."""
        body = await _json_body(request)
        who = self.signer.read_link(body.get("token") if body else None, self.clock())
        if who is None:
            return self._unauthorized(request)
        return await self._session(request, who)

    async def auth_telegram(self, request: web.Request) -> web.Response:
        """`{"initData": <raw launch data>, "table": <start parameter>}` -> a session for the
        Telegram user the launch data names, at the table the start parameter names."""
        body = await _json_body(request)
        token = self.config.telegram_token
        if body is None or token is None or TELEGRAM not in self.fronts:
            return self._unauthorized(request)
        user = telegram_auth.validate(body.get("initData"), token, self.clock())
        if user is None:
            return self._unauthorized(request)
        self.avatars.remember(TELEGRAM, user.user_id, user.photo_url)
        table = table_of_start(user.start_param) or table_of_start(body.get("table"))
        if table is None:
            return self._unauthorized(request)
        core = self.fronts[TELEGRAM].core
        locale = (
            await core.locale_of(TELEGRAM, user.user_id)
            or normalize_locale(user.language)
            or self.config.default_locale
        )
        who = Identity(TELEGRAM, user.user_id, user.name, table, locale)
        return await self._session(request, who)

    async def _session(self, request: web.Request, who: Identity) -> web.Response:
        front = self.fronts.get(who.platform)
        views = (
            None
            if front is None
            else await front.core.table_views(who.table_id, who.platform, [who.user_id])
        )
        if views is None and front is not None:  # closed: a player of its offer may still press
            offers = await front.core.rematch_offers(who.table_id, who.platform, [who.user_id])
            views = {} if who.user_id in offers else None
        if views is None:
            return web.json_response({"error": t(who.locale, "err.no_such_table")}, status=401)
        if views and views[who.user_id].hidden:  # a private table with watching off
            return web.json_response({"error": t(who.locale, HIDDEN)}, status=403)
        log.info(kv(event="web_session", platform=who.platform, table=who.table_id))
        return web.json_response(
            {"session": self.signer.session(who), "table": who.table_id, "locale": who.locale}
        )

    async def rematch(self, request: web.Request) -> web.Response:
        """`{"session": <session token>}` of a page whose table closed with a "Play again" offer:
        the press (`Core.act` with `Rematch`, as the chat's button), then a session for the same
        user at the table it seated them at (the page moves there); a refusal in their
        language (409), a bad session 401."""
        body = await _json_body(request)
        who = self.signer.read_session(body.get("session") if body else None, self.clock())
        front = None if who is None else self.fronts.get(who.platform)
        if who is None or front is None:
            return self._unauthorized(request)
        sender = Sender(who.platform, WEB_CHANNEL, who.user_id, who.name, who.locale)
        try:
            out = await front.core.act(who.table_id, sender, "rematch", Rematch())
        except Exception:  # a bug: said, nothing else
            log.exception(kv(event="web_rematch_failed", table=who.table_id))
            return web.json_response({"error": t(who.locale, "err.internal")}, status=500)
        refusal = await _pass_on(front, who, out)
        if refusal is not None:
            return web.json_response({"error": refusal}, status=409)
        table = await front.core.rematch_table(who.table_id, who.platform, who.user_id)
        if table is None:  # pressed, but seated nowhere (the rest went on without them)
            return web.json_response({"error": t(who.locale, "err.rematch_over")}, status=409)
        return await self._session(request, replace(who, table_id=table))

    def _unauthorized(self, request: web.Request) -> web.Response:
        locale = _accept_locale(request) or self.config.default_locale
        return web.json_response({"error": t(locale, "err.web_session")}, status=401)

    # --- the socket -------------------------------------------------------------------------

    def origin_ok(self, request: web.Request) -> bool:
        """Whether the socket is opened by our own page: its Origin is the public address's,
        or the address the request came to (same origin)."""
        origin = request.headers.get("Origin")
        if not origin:
            return False
        # the request's own host, either scheme (a proxy in front terminates TLS)
        allowed = {f"{scheme}://{request.host}".lower() for scheme in ("http", "https")}
        if self.config.public_url:
            parts = urlsplit(self.config.public_url)
            allowed.add(f"{parts.scheme}://{parts.netloc}".lower())
        allowed.update(origin.lower() for origin in self.config.origins)
        return origin.lower().rstrip("/") in allowed

    async def socket(self, request: web.Request) -> web.StreamResponse:
        """One viewer: hello with a session first, then moves; states after every step."""
        if not self.origin_ok(request):
            log.info(kv(event="web_origin_refused"))
            return web.Response(status=403, text="origin refused")
        ws = web.WebSocketResponse(max_msg_size=4 * MAX_FRAME, heartbeat=HEARTBEAT)
        await ws.prepare(request)
        locale = _accept_locale(request) or self.config.default_locale
        budget = Throttle(FRAME_BURST, FRAME_RATE, self.clock)
        viewer: Viewer | None = None
        dropped = 0
        loop = asyncio.get_running_loop()
        hello_by = loop.time() + self.config.hello_seconds
        try:
            while True:
                # no session is needed to open a socket: one that never says hello is closed
                # (aiohttp reads a time-out of 0 as none)
                wait = None if viewer is not None else max(0.001, hello_by - loop.time())
                try:
                    message = await ws.receive(timeout=wait)
                except TimeoutError:
                    await _fail(ws, t(locale, "err.web_hello"))
                    break
                if message.type is not WSMsgType.TEXT:
                    if message.type in ENDED:
                        break
                    await _fail(ws, t(locale, "err.web_frame"))
                    break
                text = message.data
                if len(text.encode()) > MAX_FRAME:
                    await _fail(ws, t(locale, "err.web_big"))
                    break
                verdict = budget.take(0)
                if verdict is Verdict.OK:
                    dropped = 0
                else:
                    dropped += 1
                    if dropped >= FLOOD_CLOSE:
                        await _fail(ws, t(locale, "err.web_flood"))
                        break
                    if verdict is Verdict.WARN:
                        await ws.send_str(
                            frame("refused", ref=_ref(text), text=t(locale, "err.web_flood"))
                        )
                    continue
                try:
                    data = parse(text)
                except BadFrame:
                    await ws.send_str(frame("refused", ref=None, text=t(locale, "err.web_frame")))
                    continue
                if viewer is None:
                    if data["type"] == "ping":
                        await ws.send_str(frame("pong"))
                        continue
                    viewer = await self._hello(ws, data, locale)
                    if viewer is None:
                        break
                    locale = viewer.who.locale
                    continue
                await self._message(viewer, data)
        finally:
            if viewer is not None:
                self.hub.remove(viewer)
        return ws

    async def _hello(
        self, ws: web.WebSocketResponse, data: dict[str, Any], locale: str
    ) -> Viewer | None:
        """A page's first frame: its session. The viewer, or None (told why, closed)."""
        if data["type"] != "hello":
            await _fail(ws, t(locale, "err.web_hello"))
            return None
        who = self.signer.read_session(data.get("session"), self.clock())
        front = None if who is None else self.fronts.get(who.platform)
        if who is None or front is None:
            await _fail(ws, t(locale, "err.web_session"))
            return None
        views = await front.core.table_views(
            who.table_id, who.platform, [who.user_id], locale=who.locale
        )
        if views is None:  # closed: a player of its "Play again" offer is offered it still
            offer = (
                await front.core.rematch_offers(who.table_id, who.platform, [who.user_id])
            ).get(who.user_id)
            if offer is None:
                await _fail(ws, t(who.locale, "err.no_such_table"))
            else:
                with contextlib.suppress(Exception):
                    await ws.send_str(closed_frame(who.locale, offer))
                    await ws.close()
            return None
        view = views[who.user_id]
        if view.hidden:  # a private table with watching off (`bot.core.table.private`)
            await _fail(ws, t(who.locale, HIDDEN))
            return None
        seated = view.me is not None
        mine = self.hub.pages_of(who.platform, who.table_id, who.user_id)
        # a link opened over and over neither fills the cap nor multiplies the broadcasts
        older = mine[: max(0, len(mine) - MAX_PAGES_PER_USER + 1)]
        others = self.hub.count(who.platform, who.table_id) - len(older)
        if not seated and others >= self.config.max_viewers:
            await _fail(ws, t(who.locale, "err.web_viewers"))
            return None
        for page in older:
            self.hub.remove(page)
            await _fail(page.ws, t(page.who.locale, "err.web_pages"))
        viewer = Viewer(ws, who, view.group, seated)
        self.hub.add(viewer)
        texts = page_texts(who.locale)
        now = datetime.fromtimestamp(self.clock(), UTC)
        symbols = await front.core.tile_symbols_of(who.platform, who.user_id)
        prefs = {"tiles": "symbols" if symbols else "colours"}
        pictures = self.avatars.seats(who.platform, (s.user_id for s in view.seats))
        await ws.send_str(state_frame(view, who.name, texts, now, prefs, pictures))
        log.info(kv(event="web_viewer", table=who.table_id, seated=seated))
        return viewer

    async def _message(self, viewer: Viewer, data: dict[str, Any]) -> None:
        """A frame after hello: a move, a rack arrangement, a sort, the page's settings or a
        ping."""
        kind = data["type"]
        ref = data.get("ref")
        who = viewer.who
        front = self.fronts[who.platform]
        if kind == "ping":
            await send(viewer, frame("pong"))
            return
        if kind == "hello":
            await send(viewer, frame("refused", ref=ref, text=t(who.locale, "err.web_frame")))
            return
        warn: str | None = None
        try:
            if kind == "act":
                refusal, warn = await self._act(viewer, front, data)
            elif kind == "prefs":
                refusal = await self._prefs(viewer, front, data)
            elif kind == "arrange":
                refusal = await front.core.arrange_rack(
                    who.table_id, who.platform, who.user_id, slots_of(data), who.locale
                )
            else:
                by = data.get("by")
                refusal = await front.core.sort_rack(
                    who.table_id, who.platform, who.user_id, str(by), who.locale
                )
        except BadFrame:
            refusal = t(who.locale, "err.web_frame")
        except Exception:  # a bug: the page is told (nothing changed) and keeps its socket
            log.exception(kv(event="web_frame_failed", table=who.table_id, frame=kind))
            refusal = t(who.locale, "err.internal")
        if refusal is not None:
            await send(viewer, frame("refused", ref=ref, text=refusal))
            return
        # 101 Okey: a discard that costs +101 is not made but warned (`warn`: the tile; the page
        # asks and sends the discard with `confirm` to accept)
        ack = frame("ack", ref=ref) if warn is None else frame("ack", ref=ref, warn=warn)
        await send(viewer, ack)
        if kind in ("arrange", "sort"):  # only this player's pages show their rack: their state
            mine = self.hub.pages_of(who.platform, who.table_id, who.user_id)
            await self.hub.send_states(who.platform, who.table_id, mine)

    async def _prefs(self, viewer: Viewer, front: Front, data: dict[str, Any]) -> str | None:
        """The page's toggle (`{"type": "prefs", "tiles": "symbols"|"colours"}`): the player's
        `/tiles` choice, kept with the player through the core's own command, so that their
        rack pictures in the chat follow it too; the refusal's words (an unknown choice, in the
        player's language), or None."""
        who = viewer.who
        command = Command(
            who.platform,
            WEB_CHANNEL,
            who.user_id,
            who.name,
            "tiles",
            (tiles_choice(data),),
            who.locale,
        )
        out = await front.core.handle(command)
        refusals = [o for o in out if o.kind is OutKind.ERROR and o.user_id == who.user_id]
        return refusals[0].text if refusals else None  # (the page says it; the chat need not)

    async def _act(
        self, viewer: Viewer, front: Front, data: dict[str, Any]
    ) -> tuple[str | None, str | None]:
        """A typed move (`wire.move_of`) made through `Core.act`, as any front end makes one:
        the refusal's words, or None when it was made (the chat gets what the core says about
        it); and the tile of a 101 discard the core warned about instead of making it (the
        warning's `Prompt` on its answer), or None."""
        who = viewer.who
        move = move_of(data)
        nonce = data.get("nonce")
        if not isinstance(nonce, str) or not nonce or len(nonce) > 32:
            raise BadFrame("nonce")
        sender = Sender(who.platform, WEB_CHANNEL, who.user_id, who.name, who.locale)
        out = await front.core.act(who.table_id, sender, nonce, move)
        refusal = await _pass_on(front, who, out)
        if refusal is not None:
            return refusal, None
        return None, _warned(out, who.user_id)


async def _no_sniffing(_request: web.Request, response: web.StreamResponse) -> None:
    """Every answer is taken as the type it says (a browser never guesses a script or a page
    out of a JSON answer or a static file)."""
    response.headers["X-Content-Type-Options"] = "nosniff"


async def _pass_on(front: Front, who: Identity, out: list[Outgoing]) -> str | None:
    """Deliver to the chat what a web move's answer holds for it; the refusal said to the
    mover, or None. The move is committed either way: a failed delivery is logged and the chat
    catches up on the next edit."""
    refusals = [o for o in out if o.kind is OutKind.ERROR and o.user_id == who.user_id]
    rest = [o for o in out if o not in refusals]
    if rest and front.deliver is not None:
        try:
            await front.deliver(rest)
        except Exception:  # the move is committed; the chat catches up on the next edit
            log.exception(kv(event="web_deliver_failed", table=who.table_id))
    return refusals[0].text if refusals else None


def _warned(out: list[Outgoing], user_id: str) -> str | None:
    """The tile of a discard the core answered with the +101 warning (`Prompt`, `WARNING`)."""
    for item in out:
        prompt = item.prompt
        if item.user_id == user_id and prompt is not None and prompt.kind == WARNING:
            return prompt.tile
    return None


WEB_CHANNEL = "web"  # a page's presses come from no chat


def table_of_start(value: object) -> str | None:
    """The table id a Mini App start parameter (`t<id>`) names, or None."""
    if not isinstance(value, str) or not value.startswith(START_PREFIX):
        return None
    number = value[len(START_PREFIX) :]
    if not (number.isascii() and number.isdigit()) or len(number) > 18:
        return None
    return number


def start_param(table_id: str) -> str:
    """The Mini App start parameter naming a table."""
    return f"{START_PREFIX}{table_id}"


def page_texts(locale: str) -> dict[str, str]:
    """The page's own words (`web.*` keys of the catalogue, and the reactions' `reaction.*`)
    in `locale`."""
    return {k: v for k, v in catalogue(locale).items() if k.startswith(("web.", "reaction."))}


async def _json_body(request: web.Request) -> dict[str, Any] | None:
    try:
        data = json.loads(await request.text())
    except (ValueError, UnicodeDecodeError, web.HTTPException):
        return None
    return data if isinstance(data, dict) else None


def _accept_locale(request: web.Request) -> str | None:
    return preferred_locale(request.headers.get("Accept-Language"))


def _ref(text: str) -> int | None:
    with contextlib.suppress(Exception):
        ref = json.loads(text).get("ref")
        if isinstance(ref, int) and not isinstance(ref, bool):
            return ref
    return None


async def _fail(ws: web.WebSocketResponse, text: str) -> None:
    """Tell the page why, then close its socket."""
    with contextlib.suppress(Exception):
        await ws.send_str(frame("error", text=text))
    with contextlib.suppress(Exception):
        await ws.close(code=1008)
