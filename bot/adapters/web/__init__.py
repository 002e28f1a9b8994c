"""The live web table (aiohttp): one page for every game, in any browser or inside Telegram as
a Mini App, on the core's typed contract (`bot.core.api.LiveTableApi`).

`server.WebTable` is the server (pages, sessions, the WebSocket, /healthz, /metrics);
`hub.Hub` sends every viewer of a table its state after each committed step; `tokens` signs
the links and sessions, `telegram_auth` checks a Mini App's launch data; `wire` is the frames'
JSON; `metrics` the process's Prometheus series; `runner` starts it beside the chat adapters.
See docs/web.md.
"""
