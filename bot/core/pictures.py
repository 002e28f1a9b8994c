"""Pictures of the public table attached to table messages (when `CoreConfig.pictures` is on).

Built only from the engine's public view (`view(None)`), so a picture never shows a hidden card.
A drawing error costs the picture, never the move: the text message still goes out.
"""

from __future__ import annotations

import logging

from bot.logs import kv
from bot.render.pictures import PictureStyle, render_okey_table, render_poker_table
from bot.render.pictures.views import okey_table_scene, poker_table_scene

log = logging.getLogger("bot.core.pictures")


def table_picture(session: object) -> bytes | None:
    """PNG bytes of a table with a hand or round in play, or None."""
    from bot.core.okey import OkeySession
    from bot.core.poker import PokerSession

    style = PictureStyle(lang="tr" if getattr(session, "locale", "en") == "tr" else "en")
    try:
        if isinstance(session, PokerSession) and session.running():
            names = [session.name(i) for i in range(len(session.in_hand))]
            return render_poker_table(poker_table_scene(session.engine.view(None), names), style)
        if isinstance(session, OkeySession) and session.match is not None:
            game = session.round
            if game is None:
                return None
            names = [session.name(i) for i in range(len(session.staked))]
            return render_okey_table(okey_table_scene(session.match.view(None), names), style)
    except Exception as exc:  # a picture is decoration: never lose a move over it
        log.warning(kv(event="picture_failed", error=type(exc).__name__))
    return None
