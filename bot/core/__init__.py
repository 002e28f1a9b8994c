"""Transport-neutral bot logic: commands -> table service -> engines, events -> outgoing messages.

Nothing here imports a chat library; adapters feed `Command` and `Press` objects in and deliver the
`Outgoing` items that come back (`app.Core`: `start`, `handle`, `press`, `tick`).

Top level, the contract and shared plumbing: `app` (the entry point: it routes), `messages`
(Command, Press, Button, Outgoing), `commands` (words and Turkish aliases), `errors` (Refusal),
`i18n` + `locales/*.json` (the TR/EN catalogue), `config` (chip amounts and time limits), `checks`
(moderators), `sketch` (a picture still to draw). By feature: `table/` (the table service, what
every session shares, the registry of games, house rules, fairness, pictures, delivery, rooms,
computer players), `poker/` (the poker session and the sit-and-go), `okey/` (the Okey session),
`players/` (account, history and /stats, per-hand statistics, replay), `tournament/`.
"""
