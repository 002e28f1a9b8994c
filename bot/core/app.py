"""The core's entry point: one `handle` for every command, answered with outgoing items."""

from __future__ import annotations

import logging

from bot.core.messages import Command, Outgoing, OutKind
from bot.logs import kv

log = logging.getLogger("bot.core")

HELP = {
    "tr": (
        "Komutlar: /help — bu yardım; /poker open — poker masası aç; /okey start — okey masası aç; "
        "/balance — fişlerin; /lang tr|en — dil."
    ),
    "en": (
        "Commands: /help — this help; /poker open — open a poker table; /okey start — open an "
        "Okey table; /balance — your chips; /lang tr|en — language."
    ),
}
UNKNOWN = {
    "tr": "Bilinmeyen komut: /{name}. Komutlar için /help yazın.",
    "en": "Unknown command: /{name}. Type /help for the commands.",
}


class Core:
    """Answers commands from every adapter."""

    def __init__(self, default_locale: str = "tr") -> None:
        self.default_locale = default_locale

    async def handle(self, command: Command) -> list[Outgoing]:
        """Handle one command and return what to send."""
        locale = command.locale if command.locale in HELP else self.default_locale
        if command.name in ("help", "yardim", "yardım"):
            result = [Outgoing(OutKind.PUBLIC, HELP[locale], channel_id=command.channel_id)]
        else:
            text = UNKNOWN[locale].format(name=command.name)
            result = [Outgoing(OutKind.ERROR, text, user_id=command.user_id)]
        log.info(
            kv(
                platform=command.platform,
                channel=command.channel_id,
                user=command.user_id,
                command=command.name,
                outcome="ok" if result[0].kind is not OutKind.ERROR else "refused",
            )
        )
        return result
