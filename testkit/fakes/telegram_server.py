"""A fake Telegram Bot API server on loopback for testing the real python-telegram-bot client.

It serves `/bot<token>/<method>` over real HTTP (aiohttp), records every call with its decoded
parameters, keeps just enough of a world (users who started the bot, chat administrators, the
messages the bot sent) to answer like Telegram does, and lets tests build updates and queue them
for `getUpdates`.

Behaviour copied from the real API:
- `sendMessage`/`sendPhoto` to a private chat of a user who never started the bot → 403 Forbidden.
- `editMessageText` with the same text and keyboard, `editMessageReplyMarkup` with the same
  keyboard (none on a message without one) → 400 "message is not modified".
- `answerCallbackQuery` for an unknown or already answered query → 400.
- callback data longer than 64 bytes in a keyboard → 400 BUTTON_DATA_INVALID.
- `deleteMessage` of a message in `undeletable` → 400 "message can't be deleted".
- Forum groups (`forums`): `getChat` says `is_forum`; `createForumTopic` needs a forum (400
  "the chat is not a forum") and the bot's Manage Topics right there (`topic_rights`; else 400
  "not enough rights to create a topic"), which `getChatMember` of the bot reports;
  `closeForumTopic` closes it, and a closed topic takes no new message (400 TOPIC_CLOSED).

`gates` holds calls back: a call addressing a chat id in it is recorded at once but answered only
when that chat's event is set (to test that group traffic never holds up anything else).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from testkit.fakes.loopback import serve

# Parameters whose form value is JSON-encoded by the client (everything else stays a string).
JSON_FIELDS = {
    "reply_markup",
    "commands",
    "scope",
    "allowed_updates",
    "entities",
    "link_preview_options",
    "reply_parameters",
    "media",
}
INT_FIELDS = {
    "chat_id",
    "message_id",
    "user_id",
    "offset",
    "limit",
    "timeout",
    "reply_to_message_id",
    "message_thread_id",
}
BOOL_FIELDS = {"show_alert", "disable_notification", "drop_pending_updates"}


@dataclass(frozen=True)
class Upload:
    """A file the bot uploaded (multipart): the name it gave and the bytes."""

    filename: str
    content: bytes


@dataclass
class Call:
    """One request the bot made: the method name and its decoded parameters."""

    method: str
    params: dict[str, Any]
    ok: bool = True  # False when the fake answered with an error

    @property
    def chat_id(self) -> int | None:
        """The chat the call addresses, if any."""
        value = self.params.get("chat_id")
        return int(value) if value is not None else None

    def visible_text(self) -> str:
        """Every piece of text a chat member could see from this call (text, caption, buttons)."""
        parts = [str(self.params.get(key, "")) for key in ("text", "caption")]
        media = self.params.get("media")
        if isinstance(media, dict):
            parts.append(str(media.get("caption", "")))
        document = self.params.get("document")
        if isinstance(document, Upload):  # a file is as visible as a text
            parts.append(document.content.decode("utf-8", "replace"))
        markup = self.params.get("reply_markup") or {}
        for row in markup.get("inline_keyboard", []):
            for button in row:
                parts.append(str(button.get("text", "")))
        return "\n".join(parts)


@dataclass
class FakeTelegram:
    """The fake server plus the little world it remembers; start it with `await start()`."""

    token: str = "123456:TEST-token"
    bot_id: int = 4242
    bot_username: str = "masa_test_bot"
    calls: list[Call] = field(default_factory=list)
    started_users: set[int] = field(default_factory=set)
    admins: dict[int, set[int]] = field(default_factory=dict)
    messages: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)
    open_callbacks: set[str] = field(default_factory=set)
    answered_callbacks: dict[str, dict[str, Any]] = field(default_factory=dict)
    users: dict[int, dict[str, Any]] = field(default_factory=dict)
    kicked_from: set[int] = field(default_factory=set)
    flood_once: set[str] = field(default_factory=set)  # methods answered once with a 429
    gates: dict[int, asyncio.Event] = field(default_factory=dict)  # chat -> answer when set
    undeletable: set[tuple[int, int]] = field(default_factory=set)  # e.g. older than 48 hours
    forums: set[int] = field(default_factory=set)  # supergroups with topics on
    topic_rights: set[int] = field(default_factory=set)  # chats where the bot manages topics
    topics: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)  # made by the bot

    def __post_init__(self) -> None:
        self._ids = itertools.count(1000)
        self._update_ids = itertools.count(1)
        self._pending: list[dict[str, Any]] = []
        self._new_update = asyncio.Event()
        self._call_event = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # ---- server life cycle -------------------------------------------------------------------
    async def start(self, port: int = 0) -> str:
        """Start listening on 127.0.0.1 on `port` (0: a free one); returns the base URL for the
        client."""
        app = web.Application()
        app.router.add_post("/bot{token}/{method}", self._dispatch)
        app.router.add_get("/bot{token}/{method}", self._dispatch)
        self._runner, self.port = await serve(app, port)
        return self.base_url

    async def stop(self) -> None:
        """Stop the server."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def base_url(self) -> str:
        """What to pass as the client's `base_url` (the token is appended by the client)."""
        return f"http://127.0.0.1:{self.port}/bot"

    # ---- the world ---------------------------------------------------------------------------
    def user(self, user_id: int, first_name: str, language_code: str = "tr") -> dict[str, Any]:
        """Register a (human) user and return its Telegram `User` object."""
        data = {
            "id": user_id,
            "is_bot": False,
            "first_name": first_name,
            "username": first_name.lower(),
            "language_code": language_code,
        }
        self.users[user_id] = data
        return data

    @staticmethod
    def group(chat_id: int, title: str = "Masa") -> dict[str, Any]:
        """A supergroup `Chat` object."""
        return {"id": chat_id, "type": "supergroup", "title": title}

    @staticmethod
    def private_chat(user: dict[str, Any]) -> dict[str, Any]:
        """The private `Chat` between the bot and a user."""
        return {"id": user["id"], "type": "private", "first_name": user["first_name"]}

    def message_update(
        self,
        chat: dict[str, Any],
        user: dict[str, Any],
        text: str,
        reply_to: int | None = None,
        topic: int | None = None,
    ) -> dict[str, Any]:
        """A `message` update; a leading `/word` gets a bot_command entity as Telegram adds one."""
        message: dict[str, Any] = {
            "message_id": next(self._ids),
            "date": 1_780_000_000,
            "chat": chat,
            "from": user,
            "text": text,
        }
        if text.startswith("/"):
            length = len(text.split()[0])
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": length}]
        if topic is not None:
            message["message_thread_id"] = topic
            message["is_topic_message"] = True
        if reply_to is not None:
            original = self.messages.get((chat["id"], reply_to))
            if original is not None:
                message["reply_to_message"] = original
        if chat["type"] == "private" and text.startswith("/start"):
            self.started_users.add(user["id"])
        return {"update_id": next(self._update_ids), "message": message}

    def press_update(
        self, user: dict[str, Any], chat_id: int, message_id: int, data: str
    ) -> dict[str, Any]:
        """A `callback_query` update for a button on a message the bot sent (or a forged one)."""
        query_id = str(next(self._ids))
        self.open_callbacks.add(query_id)
        message = self.messages.get(
            (chat_id, message_id),
            {
                "message_id": message_id,
                "date": 1_780_000_000,
                "chat": {"id": chat_id, "type": "supergroup" if chat_id < 0 else "private"},
                "text": "?",
            },
        )
        query = {
            "id": query_id,
            "from": user,
            "chat_instance": str(chat_id),
            "message": message,
            "data": data,
        }
        return {"update_id": next(self._update_ids), "callback_query": query}

    def queue_update(self, update: dict[str, Any]) -> None:
        """Make `getUpdates` deliver this update."""
        self._pending.append(update)
        self._new_update.set()

    # ---- what tests look at ------------------------------------------------------------------
    def calls_to(self, method: str) -> list[Call]:
        """Every recorded call of one method, in order."""
        return [call for call in self.calls if call.method == method]

    def sent_to(self, chat_id: int, delivered: bool = True) -> list[Call]:
        """Every call that put something into a chat (send, edit, photo); with `delivered`
        only those that succeeded, else the refused attempts too."""
        methods = {
            "sendMessage",
            "sendPhoto",
            "sendDocument",
            "editMessageText",
            "editMessageCaption",
            "editMessageMedia",
            "editMessageReplyMarkup",
        }
        return [
            c
            for c in self.calls
            if c.method in methods and c.chat_id == chat_id and (c.ok or not delivered)
        ]

    def messages_sent_ids(self, chat_id: int) -> list[int]:
        """Ids of the messages the bot has in a chat, oldest first."""
        return sorted(mid for chat, mid in self.messages if chat == chat_id)

    def last_keyboard(self, chat_id: int, message_id: int) -> list[list[dict[str, Any]]]:
        """The inline keyboard currently shown under a message."""
        message = self.messages[(chat_id, message_id)]
        return message.get("reply_markup", {}).get("inline_keyboard", [])

    async def wait_for(self, method: str, count: int = 1, timeout: float = 10.0) -> list[Call]:
        """Wait until `count` calls of `method` were recorded (event driven, no polling sleep)."""

        async def _wait() -> list[Call]:
            while len(self.calls_to(method)) < count:
                self._call_event.clear()
                await self._call_event.wait()
            return self.calls_to(method)

        return await asyncio.wait_for(_wait(), timeout)

    async def wait_until(self, check: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
        """Wait until `check()` holds, checking after each call the bot makes (event driven);
        fails naming `what` after `timeout` seconds."""

        async def _wait() -> None:
            while not check():
                self._call_event.clear()
                await self._call_event.wait()

        try:
            await asyncio.wait_for(_wait(), timeout)
        except TimeoutError:
            raise AssertionError(f"never happened: {what}") from None

    # ---- HTTP --------------------------------------------------------------------------------
    async def _dispatch(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        if request.match_info["token"] != self.token:
            return _error(401, "Unauthorized")
        params = await _read_params(request)
        call = Call(method, params)
        self.calls.append(call)
        self._call_event.set()
        gate = self.gates.get(call.chat_id) if call.chat_id is not None else None
        if gate is not None:
            await gate.wait()
        handler = getattr(self, f"_m_{method}", None)
        if method in self.flood_once:
            self.flood_once.discard(method)
            call.ok = False
            return web.json_response(
                {
                    "ok": False,
                    "error_code": 429,
                    "description": "Too Many Requests: retry after 1",
                    "parameters": {"retry_after": 1},
                },
                status=429,
            )
        try:
            if handler is None:
                raise _ApiError(404, "Not Found: method not found")
            result = await handler(params)
        except _ApiError as exc:
            call.ok = False
            return _error(exc.code, exc.description)
        return web.json_response({"ok": True, "result": result})

    def _bot_user(self) -> dict[str, Any]:
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": "Masa",
            "username": self.bot_username,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }

    def _chat(self, chat_id: int) -> dict[str, Any]:
        if chat_id > 0:
            user = self.users.get(chat_id, {"first_name": str(chat_id)})
            return {"id": chat_id, "type": "private", "first_name": user["first_name"]}
        chat: dict[str, Any] = {"id": chat_id, "type": "supergroup", "title": "Masa"}
        if chat_id in self.forums:
            chat["is_forum"] = True
        return chat

    def _store_message(self, chat_id: int, params: dict[str, Any], **extra: Any) -> dict[str, Any]:
        if chat_id > 0 and chat_id not in self.started_users:
            raise _ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        if chat_id in self.kicked_from:
            raise _ApiError(403, "Forbidden: bot was kicked from the supergroup chat")
        _check_keyboard(params.get("reply_markup"))
        topic = self.topics.get((chat_id, int(params.get("message_thread_id") or 0)))
        if topic is not None and topic["closed"]:
            raise _ApiError(400, "Bad Request: TOPIC_CLOSED")
        message: dict[str, Any] = {
            "message_id": next(self._ids),
            "date": 1_780_000_000,
            "chat": self._chat(chat_id),
            "from": self._bot_user(),
            **extra,
        }
        if params.get("reply_markup"):
            message["reply_markup"] = params["reply_markup"]
        if params.get("message_thread_id"):
            message["message_thread_id"] = int(params["message_thread_id"])
            message["is_topic_message"] = True
        self.messages[(chat_id, message["message_id"])] = message
        return message

    async def _m_getMe(self, params: dict[str, Any]) -> dict[str, Any]:
        return self._bot_user()

    async def _m_deleteWebhook(self, params: dict[str, Any]) -> bool:
        return True

    async def _m_setMyCommands(self, params: dict[str, Any]) -> bool:
        return True

    async def _m_setWebhook(self, params: dict[str, Any]) -> bool:
        return True

    async def _m_getUpdates(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        offset = int(params.get("offset") or 0)
        timeout = min(float(params.get("timeout") or 0), 1.0)
        self._pending = [u for u in self._pending if u["update_id"] >= offset]
        if not self._pending and timeout > 0:
            self._new_update.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._new_update.wait(), timeout)
        return [u for u in self._pending if u["update_id"] >= offset]

    async def _m_sendMessage(self, params: dict[str, Any]) -> dict[str, Any]:
        return self._store_message(int(params["chat_id"]), params, text=params["text"])

    async def _m_sendPhoto(self, params: dict[str, Any]) -> dict[str, Any]:
        photo = {
            "file_id": f"photo{next(self._ids)}",
            "file_unique_id": "u",
            "width": 1,
            "height": 1,
        }
        extra: dict[str, Any] = {"photo": [photo]}
        if params.get("caption"):
            extra["caption"] = params["caption"]
        return self._store_message(int(params["chat_id"]), params, **extra)

    async def _m_sendDocument(self, params: dict[str, Any]) -> dict[str, Any]:
        upload = params.get("document")
        if not isinstance(upload, Upload):
            raise _ApiError(400, "Bad Request: there is no document in the request")
        document = {
            "file_id": f"document{next(self._ids)}",
            "file_unique_id": "d",
            "file_name": upload.filename,
            "file_size": len(upload.content),
        }
        extra: dict[str, Any] = {"document": document}
        if params.get("caption"):
            extra["caption"] = params["caption"]
        return self._store_message(int(params["chat_id"]), params, **extra)

    def _editable(self, params: dict[str, Any], photo: bool = False) -> dict[str, Any]:
        """The message an edit names, after checking the new keyboard; Telegram's 400 error when
        there is no such message (or, with `photo`, when it has no picture to re-caption)."""
        message = self.messages.get((int(params["chat_id"]), int(params["message_id"])))
        if message is None or (photo and "photo" not in message):
            raise _ApiError(400, "Bad Request: message to edit not found")
        _check_keyboard(params.get("reply_markup"))
        return message

    async def _m_editMessageText(self, params: dict[str, Any]) -> dict[str, Any]:
        message = self._editable(params)
        markup = params.get("reply_markup") or None
        if message.get("text") == params["text"] and message.get("reply_markup") == markup:
            raise _ApiError(
                400,
                "Bad Request: message is not modified: specified new message content and reply "
                "markup are exactly the same as a current content and reply markup of the message",
            )
        message["text"] = params["text"]
        _replace_keyboard(message, markup)
        return message

    async def _m_editMessageReplyMarkup(self, params: dict[str, Any]) -> dict[str, Any]:
        message = self._editable(params)
        markup = params.get("reply_markup") or None
        if markup is not None and not markup.get("inline_keyboard"):
            markup = None
        if message.get("reply_markup") == markup:
            raise _ApiError(
                400,
                "Bad Request: message is not modified: specified new message content and reply "
                "markup are exactly the same as a current content and reply markup of the message",
            )
        _replace_keyboard(message, markup)
        return message

    async def _m_editMessageCaption(self, params: dict[str, Any]) -> dict[str, Any]:
        message = self._editable(params, photo=True)
        message["caption"] = params.get("caption", "")
        _replace_keyboard(message, params.get("reply_markup"))
        return message

    async def _m_editMessageMedia(self, params: dict[str, Any]) -> dict[str, Any]:
        message = self._editable(params)
        media = params.get("media") or {}
        message["caption"] = media.get("caption", "")
        _replace_keyboard(message, params.get("reply_markup"))
        return message

    async def _m_deleteMessage(self, params: dict[str, Any]) -> bool:
        key = (int(params["chat_id"]), int(params["message_id"]))
        if key in self.undeletable:
            raise _ApiError(400, "Bad Request: message can't be deleted")
        if self.messages.pop(key, None) is None:
            raise _ApiError(400, "Bad Request: message to delete not found")
        return True

    async def _m_answerCallbackQuery(self, params: dict[str, Any]) -> bool:
        query_id = str(params["callback_query_id"])
        if query_id not in self.open_callbacks:
            raise _ApiError(400, "Bad Request: query is too old and response timeout expired")
        self.open_callbacks.discard(query_id)
        self.answered_callbacks[query_id] = params
        return True

    async def _m_getChat(self, params: dict[str, Any]) -> dict[str, Any]:
        chat = self._chat(int(params["chat_id"]))
        gifts = dict.fromkeys(
            ("unlimited_gifts", "limited_gifts", "unique_gifts", "premium_subscription"), True
        )
        return {
            **chat,
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": {**gifts, "gifts_from_channels": True},
        }

    async def _m_createForumTopic(self, params: dict[str, Any]) -> dict[str, Any]:
        chat_id = int(params["chat_id"])
        if chat_id not in self.forums:
            raise _ApiError(400, "Bad Request: the chat is not a forum")
        if chat_id not in self.topic_rights:
            raise _ApiError(400, "Bad Request: not enough rights to create a topic")
        name = str(params["name"])
        if not 1 <= len(name) <= 128:
            raise _ApiError(400, "Bad Request: TOPIC_NAME_INVALID")
        topic_id = next(self._ids)
        self.topics[(chat_id, topic_id)] = {"name": name, "closed": False}
        return {"message_thread_id": topic_id, "name": name, "icon_color": 7322096}

    async def _m_closeForumTopic(self, params: dict[str, Any]) -> bool:
        topic = self.topics.get((int(params["chat_id"]), int(params["message_thread_id"])))
        if topic is None:
            raise _ApiError(400, "Bad Request: TOPIC_ID_INVALID")
        if topic["closed"]:
            raise _ApiError(400, "Bad Request: TOPIC_NOT_MODIFIED")
        topic["closed"] = True
        return True

    async def _m_getChatMember(self, params: dict[str, Any]) -> dict[str, Any]:
        chat_id, user_id = int(params["chat_id"]), int(params["user_id"])
        if user_id == self.bot_id:
            return self._bot_member(chat_id)
        user = self.users.get(user_id, {"id": user_id, "is_bot": False, "first_name": "?"})
        if user_id in self.admins.get(chat_id, set()):
            return {
                "status": "administrator",
                "user": user,
                "can_be_edited": False,
                "is_anonymous": False,
                "can_manage_chat": True,
                "can_delete_messages": True,
                "can_manage_video_chats": True,
                "can_restrict_members": True,
                "can_promote_members": False,
                "can_change_info": True,
                "can_invite_users": True,
                "can_post_stories": False,
                "can_edit_stories": False,
                "can_delete_stories": False,
            }
        return {"status": "member", "user": user}

    def _bot_member(self, chat_id: int) -> dict[str, Any]:
        """The bot in a group: an administrator that may manage topics where `topic_rights`
        says so, a plain member elsewhere."""
        if chat_id not in self.topic_rights:
            return {"status": "member", "user": self._bot_user()}
        rights = dict.fromkeys(
            (
                "can_manage_chat",
                "can_delete_messages",
                "can_manage_topics",
                "can_pin_messages",
                "can_invite_users",
            ),
            True,
        )
        denied = dict.fromkeys(
            (
                "can_be_edited",
                "is_anonymous",
                "can_manage_video_chats",
                "can_restrict_members",
                "can_promote_members",
                "can_change_info",
                "can_post_stories",
                "can_edit_stories",
                "can_delete_stories",
            ),
            False,
        )
        return {"status": "administrator", "user": self._bot_user(), **rights, **denied}


class _ApiError(Exception):
    def __init__(self, code: int, description: str) -> None:
        super().__init__(description)
        self.code = code
        self.description = description


def _error(code: int, description: str) -> web.Response:
    return web.json_response(
        {"ok": False, "error_code": code, "description": description}, status=code
    )


def _replace_keyboard(message: dict[str, Any], markup: dict[str, Any] | None) -> None:
    """An edit replaces the message's keyboard; an empty or missing one removes it."""
    message.pop("reply_markup", None)
    if markup:
        message["reply_markup"] = markup


def _check_keyboard(markup: dict[str, Any] | None) -> None:
    for row in (markup or {}).get("inline_keyboard", []):
        for button in row:
            data = button.get("callback_data")
            if data is not None and not 1 <= len(data.encode()) <= 64:
                raise _ApiError(400, "Bad Request: BUTTON_DATA_INVALID")


async def _read_params(request: web.Request) -> dict[str, Any]:
    """Decode a urlencoded, multipart or JSON body the way the Bot API does."""
    raw: dict[str, Any] = {}
    if request.content_type == "application/json":
        raw = await request.json()
        return dict(raw)
    if request.content_type == "multipart/form-data":
        reader = await request.multipart()
        async for part in reader:
            if part.filename and part.name == "document":  # type: ignore[union-attr]
                content = bytes(await part.read())  # type: ignore[union-attr]
                raw[part.name] = Upload(part.filename, content)  # type: ignore[union-attr, arg-type]
            elif part.filename:  # type: ignore[union-attr]
                raw[part.name] = bytes(await part.read())  # type: ignore[union-attr]
            else:
                raw[part.name] = await part.text()  # type: ignore[union-attr]
    else:
        raw = dict(await request.post())
        raw.update(request.query)
    params: dict[str, Any] = {}
    for key, value in raw.items():
        if key in JSON_FIELDS and isinstance(value, str):
            params[key] = json.loads(value)
        elif key in INT_FIELDS and isinstance(value, str):
            params[key] = int(value)
        elif key in BOOL_FIELDS and isinstance(value, str):
            params[key] = value.lower() == "true"
        else:
            params[key] = value
    return params
