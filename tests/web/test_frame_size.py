"""The web page's frame per viewer stays under 50 KB with seat pictures on a full table: a
101 Okey round of four seated players, each with a picture (a URL, never image bytes), every
`state` frame each of the four pages gets (the first one with the page's texts included) is
measured as sent."""

from __future__ import annotations

import asyncio
import json
import random

from testkit.helpers import cmd, make_core
from testkit.hidden import okey_prelude, random_move, table_session
from testkit.stores import open_file_store
from testkit.web import serve_web

LIMIT = 50 * 1024  # bytes of one frame to one viewer
PLAYERS = ["ayse", "mehmet", "zeynep", "ali"]
MOVES = 160  # well into the round: melds laid, discard piles grown


def picture(user: str) -> str:
    """A Discord-length avatar URL (the longest the server makes)."""
    return f"https://cdn.discordapp.com/avatars/{205519959982473217}/a_{user:0>30}.png?size=64"


async def test_every_frame_of_a_full_101_table_with_pictures_stays_under_50_kb(tmp_path):
    store = await open_file_store(tmp_path)
    try:
        core = make_core(store, seed="frames")
        for line in okey_prelude(PLAYERS, "101 5 10"):
            user, _, text = line.partition(": ")
            await core.handle(cmd(user, text))
        session = table_session(core)
        assert session is not None and len(session.seats) == 4
        table = str(session.table_id)
        async with serve_web(core) as web:
            for user in PLAYERS:
                web.web.avatars.remember("test", user, picture(user))
            sockets, sizes = [], []
            for user in PLAYERS:  # each page's hello and its first frame (with the texts)
                ws = await web.connect()
                await ws.send_json({"type": "hello", "session": await web.session(user, table)})
                first = await asyncio.wait_for(ws.receive(), 5)
                sizes.append(len(str(first.data).encode()))
                view = json.loads(first.data)["view"]
                assert [s["avatar"] for s in view["seats"]] == [picture(u) for u in PLAYERS]
                # what the Activity's Rich Presence says: round 1/5, no seat open
                assert (view["round_no"], view["rounds"], view["max_seats"]) == (1, 5, 4)
                sockets.append(ws)
            rng = random.Random(7)
            played = 0
            for _ in range(MOVES):
                session = table_session(core)
                if session is None or session.actor() is None:
                    break
                user, text = random_move(session, rng)
                await core.handle(cmd(user, text))
                played += 1
                for ws in sockets:  # at least one state per viewer after each move
                    message = await asyncio.wait_for(ws.receive(), 5)
                    assert json.loads(message.data)["type"] == "state"
                    sizes.append(len(str(message.data).encode()))
            assert played > 40  # a real part of the round was played
            for ws in sockets:
                await ws.close()
        later = max(sizes[len(PLAYERS) :])
        print(f"frames {len(sizes)}: largest {max(sizes)} B (a first, with texts), later {later} B")
        assert max(sizes) < LIMIT, max(sizes)
    finally:
        await store.close()
