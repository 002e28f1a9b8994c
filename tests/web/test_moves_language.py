"""The last moves and the previous hand's result lines on the web table are in each viewer's
language: a Turkish table seen by an English and a Turkish page (the same player on two devices
too), while the chat's table message and announcements keep the table's language; a snapshot of
a version that kept the move log or the previous hand's lines as text loads and shows those
lines as they were written, to every page."""

from __future__ import annotations

from bot.core.messages import OutKind
from testkit.helpers import cmd, make_core
from testkit.web import receive_until, serve_web

OLD_LINES = ["Ayse 10 fişle masaya oturdu.", "Mehmet pas dedi."]  # as an older version logged
OLD_LAST = ["El 1-1 bitti.", "Ayse 20 fiş kazandı."]  # the previous hand, as an older version kept


async def open_turkish_table(core) -> str:
    """A Türk pokeri table opened in Turkish, ayse and mehmet seated, the first hand dealt."""
    await core.handle(cmd("ayse", "/poker open turkish 10", locale="tr"))
    await core.handle(cmd("ayse", "/poker join 200", locale="tr"))
    await core.handle(cmd("mehmet", "/poker join 200"))
    await core.handle(cmd("ayse", "/poker start", locale="tr"))
    return str(core.tables.in_channel("test", "c1").id)


# (user, the page's language): ayse on a Turkish and an English device, mehmet in English, zed a
# spectator in Turkish
PAGES = (("ayse", "tr"), ("ayse", "en"), ("mehmet", "en"), ("zed", "tr"))


async def open_pages(web, table: str) -> dict:
    """Every page of `PAGES` on `table`: (user, language) -> (its socket, its first state)."""
    return {(user, locale): await web.viewer(user, table, locale=locale) for user, locale in PAGES}


async def test_each_page_gets_the_moves_in_its_language_the_chat_in_the_tables(memory_store):
    core = make_core(memory_store)
    table = await open_turkish_table(core)
    async with serve_web(core) as web:
        pages = await open_pages(web, table)
        views = {key: first["view"] for key, (_ws, first) in pages.items()}
        actor = next(key for key, view in views.items() if view["actions"])
        ws, _first = pages[actor]
        kinds = [a["kind"] for a in views[actor]["actions"]]
        kind = "check" if "check" in kinds else ("pass" if "pass" in kinds else "fold")
        await ws.send_json({"type": "act", "ref": 1, "kind": kind, "nonce": views[actor]["nonce"]})
        assert await receive_until(ws, "ack") == {"type": "ack", "ref": 1}
        moves = {}
        for key, (socket, _first) in pages.items():
            state = await receive_until(socket, "state")
            assert state["view"]["locale"] == "tr"  # the table's language, whoever looks
            moves[key] = state["view"]["moves"]
        chat = [item.text for item in web.delivered if item.kind is OutKind.EDIT_TABLE][-1]
    mover = actor[0].capitalize()  # the seat's name, as `cmd` and the page give it
    turkish, english = moves[("ayse", "tr")], moves[("ayse", "en")]
    assert len(turkish) == len(english) == 1 and turkish != english
    assert turkish[0].startswith(mover) and english[0].startswith(mover)
    assert moves[("zed", "tr")] == turkish and moves[("mehmet", "en")] == english
    assert chat.endswith("\n" + turkish[0])  # the chat's table message: the table's language


async def test_an_old_snapshot_with_text_moves_shows_them_as_written(memory_store):
    core = make_core(memory_store)
    table = await open_turkish_table(core)
    [record] = await memory_store.load_open_tables()
    snapshot = dict(record.snapshot, moves=OLD_LINES)
    await memory_store.commit(record.id, record.version, snapshot)
    again = make_core(memory_store)
    [back] = [o for o in await again.start() if o.kind is OutKind.EDIT_TABLE]
    assert "\n".join(OLD_LINES) in back.text
    async with serve_web(again) as web:
        for locale in ("tr", "en"):
            _ws, first = await web.viewer("zed", table, locale=locale)
            assert first["view"]["moves"] == OLD_LINES


async def play_until_a_hand_ends(pages) -> dict:
    """Act from whichever page may (folding when it can, else passing or checking) until every
    page's state holds the previous hand (`last`): each page's last view."""
    views = {key: first["view"] for key, (_ws, first) in pages.items()}
    for ref in range(1, 40):
        if all(view["last"] for view in views.values()):
            return views
        actor = next(key for key, view in views.items() if view["actions"])
        kinds = [a["kind"] for a in views[actor]["actions"]]
        kind = next(k for k in ("fold", "pass", "check", "call") if k in kinds)
        ws, _first = pages[actor]
        await ws.send_json(
            {"type": "act", "ref": ref, "kind": kind, "nonce": views[actor]["nonce"]}
        )
        assert await receive_until(ws, "ack") == {"type": "ack", "ref": ref}
        views = {key: (await receive_until(s, "state"))["view"] for key, (s, _f) in pages.items()}
    raise AssertionError("no hand ended")


async def test_each_page_gets_the_previous_hand_in_its_language(memory_store):
    core = make_core(memory_store)
    table = await open_turkish_table(core)
    async with serve_web(core) as web:
        pages = await open_pages(web, table)
        views = await play_until_a_hand_ends(pages)
        announced = [item.text for item in web.delivered if item.kind is OutKind.PUBLIC]
    lasts = {key: view["last"] for key, view in views.items()}
    turkish, english = lasts[("ayse", "tr")]["lines"], lasts[("ayse", "en")]["lines"]
    assert turkish and len(turkish) == len(english)
    assert all(tr != en for tr, en in zip(turkish, english, strict=True))
    assert lasts[("zed", "tr")]["lines"] == turkish and lasts[("mehmet", "en")]["lines"] == english
    # everything else of the previous hand is the same whoever reads it
    assert all(
        dict(last, lines=[]) == dict(lasts[("ayse", "tr")], lines=[]) for last in lasts.values()
    )
    # the chat announced the result in the table's language, as the Turkish pages read it
    assert all(any(line in text for text in announced) for line in turkish)
    assert not any(line in text for line in english for text in announced)


async def test_an_old_snapshot_with_text_last_lines_shows_them_as_written(memory_store):
    core = make_core(memory_store)
    table = await open_turkish_table(core)
    [record] = await memory_store.load_open_tables()
    last = {"hand_id": "1-1", "lines": OLD_LAST, "players": [], "melds": [], "rack": None}
    snapshot = dict(record.snapshot, last=last)
    await memory_store.commit(record.id, record.version, snapshot)
    again = make_core(memory_store)
    await again.start()
    async with serve_web(again) as web:
        for locale in ("tr", "en"):
            _ws, first = await web.viewer("zed", table, locale=locale)
            assert first["view"]["last"]["lines"] == OLD_LAST
