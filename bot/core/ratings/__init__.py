"""Skill ratings on the chat side (docs/ratings.md): `/rating [player] [game]` and the rating
board of `/leaderboard rating` (`commands`); who at a table counts as a person for the ratings
is the table service's (`bot.core.table.service`, passed to `Store.commit(people=...)`). The maths and the stored rows are storage's (storage/rating_model.py,
storage/ratings.py): the ratings change inside the commit that settles a result."""
