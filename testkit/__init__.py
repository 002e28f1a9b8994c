"""The test kit: what the tests and the benchmarks share to drive the bot without a network.

Not product code (not installed by `pip install .`); it is importable from the repository root:
pytest puts the root on the path (`pythonpath = ["."]`) and `make bench` runs each benchmark as
`python -m benchmarks.bench_x` from the root.

- `fakes/`: the network edge, and only it. `telegram_server.FakeTelegram` (the Bot API on
  loopback, for the real python-telegram-bot client) with `telegram_harness` (a bot wired to it,
  manual clocks, a scripted core); `discord_fakes` (interactions, channels, messages, the
  `DiscordHarness`); `discord_rest.FakeRest` (Discord's REST API in memory behind discord.py's
  own HTTP calls); `discord_rest_server.FakeDiscordRest` (the same on loopback, with Discord's
  rate limits, for the traffic benchmark); `discord_offline` (`python -m bot` for Discord
  without Discord).
- Drivers and players: `helpers` (the test clock, command and press builders, `make_core`),
  `drive` (scripted and random poker moves through the core), `hidden` (twin tables that differ
  only in hidden cards), `house_play` (fixed seeds for house-rule tables), `replaying` (random
  hands to replay), `scale` (several cores on one database), `shared_store` (stores that count
  or fail reads), `telegram_play` (whole games through the fake Bot API), `random_play` (random
  legal moves on the engines).
- Time and traffic: `virtual_time` (an event loop whose clock jumps over idle waits),
  `traffic_play`, `traffic_stats`, `traffic_telegram`, `traffic_discord` (games played through a
  platform fake, every call counted).
- `stores`: the real `storage.Store` on a private in-memory or temporary SQLite database.
"""
