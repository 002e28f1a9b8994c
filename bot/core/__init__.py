"""Transport-neutral bot logic: commands -> table service -> engines, events -> outgoing messages.

Nothing here imports a chat library; adapters feed `Command` and `Press` objects in and deliver the
`Outgoing` items that come back (`app.Core`: `start`, `handle`, `press`, `tick`).

Modules: `app` (the entry point: it routes), `account` (players, balance, daily, leaderboard,
verify, lang), `commands` (words and Turkish aliases),
`i18n` + `locales/*.json` (the TR/EN catalogue), `messages` (Command, Press, Button, Outgoing),
`tables` (one lock per table, nonce per turn, commit before reply, computer moves, timers),
`session` (what every table shares, the move log), `poker` and `okey` (the games' sessions), `games` (which
session plays which game), `deliver` (notes -> outgoing items, the table message), `ai` (computer players),
`fairness` (seed sources and /verify), `checks` (moderators), `pictures` (table, hand, rack and showdown PNGs, drawn off the loop), `sketch`
(a picture still to draw),
`config` (chip amounts and time limits).
"""
