"""`python -m bot` for Discord without Discord: run as `python -m testkit.fakes.discord_offline`.

The gateway client is the real `DiscordBot` with its two network steps replaced: `login` only
runs the start-up hook (buttons, commands - synced nowhere - and the tables resumed) and
`connect` waits until the client is closed, as the real gateway loop does. Everything else is
the real `bot.__main__.main`: settings, store, core, signal handling and shutdown. It prints
`connected` once the client would be online.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from bot.adapters.discord import DiscordBot


async def _login(self: DiscordBot, token: str) -> None:
    async def sync(*, guild: Any = None) -> list[Any]:
        return []

    self.tree.sync = sync  # type: ignore[method-assign]
    await self.setup_hook()


async def _connect(self: DiscordBot, *, reconnect: bool = True) -> None:
    print("connected", flush=True)
    while not self.is_closed():
        await asyncio.sleep(0.02)


def main() -> int:
    """Run the bot's real entry point with the offline gateway client."""
    DiscordBot.login = _login  # type: ignore[method-assign]
    DiscordBot.connect = _connect  # type: ignore[method-assign]
    from bot.__main__ import main as bot_main

    return bot_main([])


if __name__ == "__main__":
    sys.exit(main())
