"""What the house keeps of a player: the account (`account`: balance, daily, leaderboard, lang),
the history and /stats (`history`), the per-hand figures recorded for them (`stats`) and the
replay of a stored hand (`replay`)."""
