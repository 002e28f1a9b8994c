"""Seat pictures on the web table: the Telegram photo or Discord avatar of each seated player, as
an image URL on the platform's own host (the browser fetches and caches it; a frame never
carries image bytes).

A URL comes only from what the server verified: the `photo_url` of a Mini App's signed launch
data (`telegram_auth.validate`), the avatar hash of the user Discord's API named for the
Activity's OAuth2 code (`discord_auth.identify`). It is kept per player in a bounded map in this
process when they sign in (`Avatars.remember`), so a player shows their picture once they
opened the page here; a Discord player who has not shows Discord's default avatar for their
id. The page's Content-Security-Policy (`PAGE_POLICY`) lets images come from those two hosts
only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import urlsplit

from bot.caches import Lru

DISCORD = "discord"
TELEGRAM = "telegram"
TELEGRAM_ORIGIN = "https://t.me"  # Mini App photos: https://t.me/i/userpic/320/<name>.jpg|svg
DISCORD_CDN = "https://cdn.discordapp.com"
IMAGE_ORIGINS = (TELEGRAM_ORIGIN, DISCORD_CDN)
# the page's policy: images from the page itself and the two platforms' picture hosts, no
# plugins, no <base> elsewhere (scripts, styles and the socket are the page's own already)
PAGE_POLICY = f"img-src 'self' {' '.join(IMAGE_ORIGINS)}; object-src 'none'; base-uri 'self'"
MAX_PLAYERS = 10_000  # players whose picture this process keeps (least recently seen go)
MAX_URL = 256
PHOTO_PATH = re.compile(r"/i/userpic/\d{1,4}/[A-Za-z0-9_-]{1,128}\.(?:jpg|jpeg|svg|png)")
AVATAR_HASH = re.compile(r"(?:a_)?[0-9a-f]{32}")
SIZE = 64  # pixels of a Discord avatar (a seat shows it at 24-32 CSS pixels)


def telegram_photo(value: object) -> str | None:
    """The launch data's `photo_url` when it is a Telegram profile photo on t.me over HTTPS
    (no query, no credentials, a known path), else None."""
    if not isinstance(value, str) or len(value) > MAX_URL:
        return None
    parts = urlsplit(value)
    if parts.scheme != "https" or parts.netloc != "t.me" or parts.query or parts.fragment:
        return None
    return value if PHOTO_PATH.fullmatch(parts.path) else None


def discord_avatar(user_id: str, avatar: object) -> str:
    """The Discord CDN URL of a user's avatar (`avatar` their avatar hash), or of Discord's
    default avatar for the id when they have none."""
    if isinstance(avatar, str) and AVATAR_HASH.fullmatch(avatar):
        return f"{DISCORD_CDN}/avatars/{user_id}/{avatar}.png?size={SIZE}"
    return discord_default(user_id)


def discord_default(user_id: str) -> str:
    """Discord's default avatar for a user id (one of six, `(id >> 22) % 6`)."""
    return f"{DISCORD_CDN}/embed/avatars/{(int(user_id) >> 22) % 6}.png"


class Avatars:
    """The seat pictures this process knows, by (platform, user id), at most `max_players`."""

    def __init__(self, max_players: int = MAX_PLAYERS) -> None:
        self._urls: Lru[tuple[str, str], str] = Lru(max_players)

    def remember(self, platform: str, user_id: str, url: str | None) -> None:
        """Keep a verified picture URL for the player (None: they have none now)."""
        if url is None:
            self._urls.pop((platform, user_id))
        else:
            self._urls.put((platform, user_id), url)

    def of(self, platform: str, user_id: str) -> str | None:
        """The player's picture URL, or None (a Discord id without one: the default avatar)."""
        url = self._urls.get((platform, user_id))
        if url is None and platform == DISCORD and user_id.isascii() and user_id.isdigit():
            return discord_default(user_id)
        return url

    def seats(self, platform: str, user_ids: Iterable[str]) -> dict[str, str]:
        """user id -> picture URL for those of `user_ids` that have one."""
        found = {user_id: self.of(platform, user_id) for user_id in user_ids}
        return {user_id: url for user_id, url in found.items() if url is not None}
