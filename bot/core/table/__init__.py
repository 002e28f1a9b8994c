"""One table: the service that runs it (`service`: locks, turns, timers, commit before reply), what
every game's session shares (`session`), which session plays which game (`registry`), house rules
(`house`), seeds and /verify (`fairness`), its pictures (`pictures`), its messages (`deliver`),
where it is played (`rooms`) and its computer players (`ai`)."""
