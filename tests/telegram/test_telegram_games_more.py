"""Whole Okey and Açık poker games through Telegram (see test_telegram_games.py for the set-up)."""

from __future__ import annotations

import random
import re

from testkit.fakes.cards import cards_in
from testkit.fakes.telegram_harness import telegram_bot
from testkit.telegram_play import (
    AYSE,
    GROUP,
    MEHMET,
    ZEYNEP,
    Table,
    acik_hidden,
    adapter_group_calls,
    all_data,
    group_leaks,
    make_core,
    play_poker,
)

TILE_RE = re.compile(r"(?<![0-9A-Za-z])([RYBK](?:1[0-3]|[1-9])|F)(?![0-9A-Za-z])")


def tiles_in(text: str) -> set[str]:
    """Okey tiles named in a text (`R5`, `K13`; `F` is the false joker)."""
    return set(TILE_RE.findall(text))


async def test_okey_whole_round_through_telegram(store):
    core = make_core(store, "b")  # a seed whose round ends with a finish
    rng = random.Random(3)
    async with telegram_bot(core) as (server, bot):
        ayse, mehmet = server.user(AYSE, "Ayşe", "tr"), server.user(MEHMET, "Mehmet", "en")
        server.started_users |= {AYSE, MEHMET}
        users = {str(AYSE): ayse, str(MEHMET): mehmet}
        table = Table(server, bot, core, users)
        await table.command(ayse, "/okey start 1 50")
        await table.command(mehmet, "/okey_join")
        await table.command(ayse, "/okey begin")
        session = table.live().session
        assert session.round is not None
        for user_id in (AYSE, MEHMET):  # every rack went privately
            assert any(tiles_in(c.params["text"]) for c in server.sent_to(user_id))
        public: set[str] = set()
        steps, start = 0, len(server.calls)
        while steps < 400:
            live = table.live()
            if live is None or live.session.round is None or live.session.round.finished:
                break
            game = live.session.round
            view = game.view(None)
            public |= {view["indicator"], view["okey"]}
            public |= {t for pile in view["discard_piles"] for t in pile}
            public |= {t for draw in view["start_draw"] for t in draw if isinstance(t, str)}
            seat = live.session.seat_of(game.to_act())
            user = users[seat.user_id]
            before = len(server.calls)
            if game.phase == "take":
                buttons = table.buttons()
                action = "ts" if "ts" in buttons or rng.random() < 0.8 else "td"
                action = action if action in buttons else next(iter(buttons))
                await table.press(user, GROUP, table.message_id(), buttons[action]["callback_data"])
            else:
                rack_id = server.messages_sent_ids(user["id"])[-1]
                tiles = [b for row in server.last_keyboard(user["id"], rack_id) for b in row]
                finish = [b for b in tiles if ":f." in b["callback_data"]]
                discard = [b for b in tiles if ":d." in b["callback_data"]]
                choice = finish[0] if finish else discard[-1]
                await table.press(user, user["id"], rack_id, choice["callback_data"])
            steps += 1
            ended = table.live() is None or table.live().session.round is not game
            for call in server.calls[before:]:
                if call.chat_id != GROUP or (ended and game.finished):
                    continue
                text = call.visible_text()
                assert "d." not in all_data(call) and "f." not in all_data(call)
                after = game.view(None)
                seen = public | {t for pile in after["discard_piles"] for t in pile}
                seen |= {after["indicator"], after["okey"]}
                assert tiles_in(text) <= seen, (tiles_in(text) - seen, text)
        live = table.live()
        assert live is None or live.session.round is None or live.session.round.finished
        assert steps > 20
        # the match's end posts the table message again below its announcements, now with
        # "Play again" (docs/commands.md, "Rematch"): a repost, counted as one by
        # `adapter_group_calls` only since it carries a button
        calls = server.calls[start:]
        offers = [c for c in calls if c.method == "sendMessage" and ":again:" in all_data(c)]
        assert len(offers) == 1
        assert len(adapter_group_calls(calls)) - len(offers) <= steps
        assert not server.open_callbacks
        refused = [a for a in server.answered_callbacks.values() if a.get("show_alert")]
        assert refused == [], refused


async def test_acik_poker_whole_game_through_telegram(store):
    core = make_core(store, "telegram-acik")
    rng = random.Random(11)
    async with telegram_bot(core) as (server, bot):
        ayse, mehmet = server.user(AYSE, "Ayşe", "en"), server.user(MEHMET, "Mehmet", "tr")
        zeynep = server.user(ZEYNEP, "Zeynep", "en")
        server.started_users |= {AYSE, MEHMET, ZEYNEP}
        users = {str(AYSE): ayse, str(MEHMET): mehmet, str(ZEYNEP): zeynep}
        table = Table(server, bot, core, users)
        await table.command(ayse, "/poker open acik 10")
        for user in (ayse, mehmet, zeynep):
            await table.command(user, "/poker join 300")
        await table.command(zeynep, "/poker start")
        session = table.live().session
        downs = acik_hidden(session)
        assert len(downs) == 3 and group_leaks(server.calls, downs) == []
        for user_id in (AYSE, MEHMET, ZEYNEP):  # each down card went to its owner only
            assert (
                len(
                    set(cards_in(" ".join(c.visible_text() for c in server.sent_to(user_id))))
                    & downs
                )
                == 1
            )
        steps = await play_poker(table, users, rng, acik_hidden, hands=4)
        session = table.live().session
        assert session.hand_no >= 4 or min(session.chips.values()) == 0, steps
        assert steps >= 8 and not server.open_callbacks
        # The table shows only public buttons (so void bets never leak), so a press may be
        # refused; a refusal is an alert to the presser alone and never reaches the group.
        refused = [a["text"] for a in server.answered_callbacks.values() if a.get("show_alert")]
        said = "\n".join(c.visible_text() for c in server.sent_to(GROUP, delivered=False))
        assert all(text and text not in said for text in refused)
