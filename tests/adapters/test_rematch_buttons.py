"""The "Play again" button as each chat draws it: the core's button (label with the count, the
`again` code) fits Discord's custom id and Telegram's callback data, reads back as the `Rematch`
move, and the offer's table message carries it even once the table is closed."""

from __future__ import annotations

import re

from bot.adapters.discord.components import TurnButton, table_view
from bot.adapters.telegram.callbacks import MAX_CALLBACK_BYTES, CallbackCodec, Pressed
from bot.core.codec import codec
from bot.core.config import CoreConfig
from bot.core.moves import Rematch
from bot.core.registry import GAMES
from bot.core.table.deliver import render_buttons, table_message
from bot.core.table.rematch import buttons
from bot.core.table.session import Msg
from testkit.helpers import START

TABLE = "9" * 18  # the longest table id a button names


def offered(game: str, locale: str = "en"):
    """A closed table of `game` offering a rematch to four players, two of whom pressed."""
    session = GAMES[game].create(locale, (), CoreConfig(), START)
    session.table_id = int(TABLE)
    session.nonce = "a1b2c3"
    session.phase = "closed"
    players = [
        {"player_id": n, "user_id": f"u{n}", "name": f"P{n}", "locale": "en"} for n in range(4)
    ]
    session.rematch = {
        "players": players,
        "pressed": [0, 1],
        "until": START.isoformat(),
        "from": None,
    }
    return session


def test_the_button_reads_its_count_in_both_languages_and_fits_both_platforms():
    for game in GAMES:
        for locale, label in (("en", "Play again (2/4)"), ("tr", "Tekrar oyna (2/4)")):
            session = offered(game, locale)
            (row,) = render_buttons(session, locale, buttons(session))
            (button,) = row
            assert button.label == label and button.action == "again"
            assert codec.decode(button.custom_id).move == Rematch()
            # Telegram: the callback data as sent
            data = CallbackCodec().encode(button.custom_id)
            assert len(data.encode()) <= MAX_CALLBACK_BYTES
            assert CallbackCodec().decode(data) == Pressed(TABLE, "again", "a1b2c3")
            # Discord: a turn button whose custom id reads back the same press
            view = table_view(((button,),), None, None, "")
            (item,) = view.children
            assert isinstance(item, TurnButton)
            custom = item.item.custom_id
            assert custom is not None and len(custom) <= 100
            assert re.fullmatch(TurnButton.__discord_ui_compiled_template__, custom)
            assert item.item.label == label


def test_a_closed_tables_last_message_keeps_only_the_offer():
    session = offered("turkish")
    out = table_message(session, "c1")
    assert [b.action for row in out.buttons for b in row] == ["again"]
    session.rematch = None
    assert table_message(session, "c1").buttons == ()


def test_the_label_is_a_catalogue_line():
    session = offered("okey")
    (spec,) = buttons(session)
    assert spec.label == Msg("rematch.button", {"pressed": 2, "total": 4})
