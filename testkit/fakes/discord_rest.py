"""Discord's REST API in memory, for a real discord.py client: `FakeRest.install(client)` puts it
in place of the one method that would reach the network (`client.http.request`).

Everything above that call is discord.py's own: `client.get_partial_messageable(id).send`,
`get_partial_message(id).edit`, `client.fetch_channel`, their routes and the objects built from
the answers. The fake knows channels (`add_channel`: which guild each belongs to, and its type),
stores the messages sent, and answers 404 "Unknown Channel" / "Unknown Message" like Discord does.

Threads (tournament rooms): `POST /channels/{id}/threads` starts one under a text or
announcement channel (400 on another type, 403 where `no_threads` says the bot lacks Create
Public Threads); `PATCH /channels/{thread}` archives and locks it (locking is 403 where
`no_manage_threads` says the bot lacks Manage Threads); a locked, archived thread refuses new
messages (400, code 50083), as Discord does for the bot without Manage Threads.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord

BOT_ID = 4242
TEXT, VOICE, NEWS, PUBLIC_THREAD, FORUM = 0, 2, 5, 11, 15
_ids = itertools.count(900_000_000_000_000_000)


@dataclass
class RestCall:
    """One request: the method, the path after the API base, and its JSON body."""

    method: str
    path: str
    body: dict[str, Any] | None


@dataclass
class FakeRest:
    """The channels and messages Discord would hold, and every request made."""

    channels: dict[int, int] = field(default_factory=dict)  # channel id -> guild id
    types: dict[int, int] = field(default_factory=dict)  # channel id -> Discord channel type
    threads: dict[int, dict[str, Any]] = field(default_factory=dict)  # thread id -> its data
    no_threads: set[int] = field(default_factory=set)  # channels without Create Public Threads
    no_manage_threads: set[int] = field(default_factory=set)  # parents without Manage Threads
    messages: dict[int, dict[str, Any]] = field(default_factory=dict)
    calls: list[RestCall] = field(default_factory=list)

    def install(self, client: discord.Client) -> FakeRest:
        """Answer `client`'s REST calls from here."""
        client.http.request = self.request  # type: ignore[method-assign]
        return self

    def add_channel(self, channel_id: int, guild_id: int, kind: int = TEXT) -> None:
        """A channel of a guild (known to Discord, not to the client's cache), a text channel
        unless `kind` says otherwise."""
        self.channels[channel_id] = guild_id
        self.types[channel_id] = kind

    def texts_in(self, channel_id: int) -> list[str]:
        """The current content of the messages in the channel, oldest first."""
        return [m["content"] for m in self.messages.values() if m["channel_id"] == str(channel_id)]

    def paths(self, method: str) -> list[str]:
        """The paths requested with `method`, in order."""
        return [c.path for c in self.calls if c.method == method]

    async def request(self, route: Any, *, files: Any = None, form: Any = None, **kwargs: Any):
        """discord.py's `HTTPClient.request`, answered from memory."""
        path = route.url.removeprefix(route.BASE)
        body = kwargs.get("json")
        if form:  # a message with files: its JSON part
            body = next((f["value"] for f in form if f["name"] == "payload_json"), None)
        self.calls.append(RestCall(route.method, path, body))
        if match := re.fullmatch(r"/channels/(\d+)", path):
            if route.method == "PATCH":
                return self._edit_thread(int(match[1]), body or {})
            return self._channel(int(match[1]))
        if match := re.fullmatch(r"/channels/(\d+)/threads", path):
            return self._start_thread(int(match[1]), body or {})
        if match := re.fullmatch(r"/channels/(\d+)/messages", path):
            return self._send(int(match[1]), body or {})
        if match := re.fullmatch(r"/channels/(\d+)/messages/(\d+)", path):
            return self._message(route.method, int(match[1]), int(match[2]), body or {})
        raise AssertionError(f"the fake does not know {route.method} {path}")

    def _start_thread(self, parent_id: int, body: dict[str, Any]) -> dict[str, Any]:
        self._channel(parent_id)
        if parent_id in self.no_threads:
            raise _refused(403, 50013, "Missing Permissions")
        if self.types.get(parent_id, TEXT) not in (TEXT, NEWS):
            raise _refused(400, 50024, "Cannot execute action on this channel type")
        thread_id = next(_ids)
        self.channels[thread_id] = self.channels[parent_id]
        self.types[thread_id] = int(body.get("type") or PUBLIC_THREAD)
        self.threads[thread_id] = {
            "parent_id": str(parent_id),
            "name": body["name"],
            "archived": False,
            "locked": False,
            "auto_archive_duration": body.get("auto_archive_duration") or 4320,
        }
        return self._channel(thread_id)

    def _edit_thread(self, thread_id: int, body: dict[str, Any]) -> dict[str, Any]:
        self._channel(thread_id)
        thread = self.threads.get(thread_id)
        assert thread is not None, "the fake edits threads only"
        if "locked" in body and int(thread["parent_id"]) in self.no_manage_threads:
            raise _refused(403, 50013, "Missing Permissions")
        for key in ("archived", "locked", "name", "auto_archive_duration"):
            if key in body:
                thread[key] = body[key]
        return self._channel(thread_id)

    def _channel(self, channel_id: int) -> dict[str, Any]:
        guild = self.channels.get(channel_id)
        if guild is None:
            raise _not_found(10003, "Unknown Channel")
        thread = self.threads.get(channel_id)
        if thread is not None:
            return {
                "id": str(channel_id),
                "type": self.types[channel_id],
                "guild_id": str(guild),
                "parent_id": thread["parent_id"],
                "owner_id": str(BOT_ID),
                "name": thread["name"],
                "message_count": 0,
                "member_count": 1,
                "rate_limit_per_user": 0,
                "thread_metadata": {
                    "archived": thread["archived"],
                    "locked": thread["locked"],
                    "auto_archive_duration": thread["auto_archive_duration"],
                    "archive_timestamp": "2025-01-01T00:00:00+00:00",
                },
            }
        return {
            "id": str(channel_id),
            "type": self.types.get(channel_id, TEXT),
            "guild_id": str(guild),
            "name": "masa",
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "bitrate": 64000,  # read for a voice channel only
            "user_limit": 0,
        }

    def _send(self, channel_id: int, body: dict[str, Any]) -> dict[str, Any]:
        self._channel(channel_id)
        thread = self.threads.get(channel_id)
        if thread is not None and thread["archived"] and thread["locked"]:
            raise _refused(400, 50083, "Thread is archived")
        if thread is not None:
            thread["archived"] = False  # a message in an open archived thread unarchives it
        message_id = next(_ids)
        message = {
            "id": str(message_id),
            "channel_id": str(channel_id),
            "type": 0,
            "content": body.get("content") or "",
            "author": {"id": str(BOT_ID), "username": "masa", "discriminator": "0", "bot": True},
            "attachments": [],
            "embeds": [],
            "mentions": [],
            "mention_roles": [],
            "mention_everyone": False,
            "pinned": False,
            "tts": False,
            "timestamp": "2025-01-01T00:00:00+00:00",
            "edited_timestamp": None,
            "flags": 0,
            "components": body.get("components") or [],
        }
        self.messages[message_id] = message
        return message

    def _message(
        self, method: str, channel_id: int, message_id: int, body: dict[str, Any]
    ) -> dict[str, Any] | None:
        self._channel(channel_id)
        message = self.messages.get(message_id)
        if message is None or message["channel_id"] != str(channel_id):
            raise _not_found(10008, "Unknown Message")
        if method == "DELETE":
            del self.messages[message_id]
            return None
        if "content" in body:
            message["content"] = body["content"] or ""
        if "components" in body:
            message["components"] = body["components"] or []
        return message


def _refused(status: int, code: int, text: str) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason=text)
    kind = discord.Forbidden if status == 403 else discord.HTTPException
    return kind(response, {"code": code, "message": text})  # type: ignore[arg-type]


def _not_found(code: int, text: str) -> discord.NotFound:
    response = SimpleNamespace(status=404, reason="Not Found")
    return discord.NotFound(response, {"code": code, "message": text})  # type: ignore[arg-type]
