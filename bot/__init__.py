"""The chat side of the project: the transport-neutral core, the platform adapters and rendering.

`bot.core` turns commands and button presses into engine actions and engine events into messages;
`bot.adapters` translate between Discord, Telegram or the console and the core; `bot.render` draws
text and pictures. Start it with `python -m bot` (see `bot.__main__`).
"""
