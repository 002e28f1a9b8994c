"""Pure pieces of the Telegram adapter: command parsing, callback data, deep links, the admin cache,
update ordering."""

import asyncio

import pytest
from hypothesis import given
from hypothesis import strategies as st
from telegram import Update
from telegram.error import NetworkError

from bot.adapters.batch import coalesce
from bot.adapters.telegram.admins import AdminCache
from bot.adapters.telegram.callbacks import MAX_CALLBACK_BYTES, CallbackCodec, Pressed
from bot.adapters.telegram.delivery import fit
from bot.adapters.telegram.ordering import PerChatUpdateProcessor
from bot.adapters.telegram.parsing import Place, deep_link, locale_of, parse_command
from bot.adapters.telegram.pickers import DrawPicker, amount_sizes, card_label
from bot.adapters.telegram.texts import MENU
from bot.core.messages import Button, Outgoing, OutKind
from testkit.fakes.cards import cards_in


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("/poker open turkish 10", ("poker", ("open", "turkish", "10"))),
        ("/poker_open turkish 10", ("poker", ("open", "turkish", "10"))),
        ("/Poker@Masa_Test_Bot join 200", ("poker", ("join", "200"))),
        ("/okey_take@masa_test_bot stock", ("okey", ("take", "stock"))),
        ("/help", ("help", ())),
        ("/yardım", ("yardım", ())),
        ("  /balance  ", ("balance", ())),
    ],
)
def test_parse_command(text, expected):
    assert parse_command(text, "masa_test_bot") == expected


@pytest.mark.parametrize("text", ["hello", "/", "/@masa_test_bot", "/help@other_bot", ""])
def test_parse_command_ignores_what_is_not_ours(text):
    assert parse_command(text, "masa_test_bot") is None


def test_locale_of():
    assert locale_of("tr") == "tr"
    assert locale_of("en-GB") == "en"
    assert locale_of(None) is None
    assert locale_of("") is None


def test_deep_link():
    assert deep_link("masa_bot", "cards") == "https://t.me/masa_bot?start=cards"
    with pytest.raises(ValueError, match="payload"):
        deep_link("masa_bot", "bad payload!")


ID_CHARS = st.characters(blacklist_characters=":|", blacklist_categories=["Cs"])


@given(
    table=st.text(ID_CHARS, min_size=1),
    action=st.text(
        st.characters(blacklist_characters="|", blacklist_categories=["Cs"]), min_size=1
    ),
    nonce=st.text(ID_CHARS, min_size=1),
    amount=st.none() | st.integers(0, 10**12),
)
def test_callback_round_trip_always_fits(table, action, nonce, amount):
    codec = CallbackCodec()
    extras = () if amount is None else (str(amount),)
    data = codec.encode(f"{table}:{action}:{nonce}", *extras)
    assert 1 <= len(data.encode()) <= MAX_CALLBACK_BYTES
    assert codec.decode(data) == Pressed(table, action, nonce, extras)


def test_picker_extras_round_trip():
    codec = CallbackCodec()
    assert codec.decode(codec.encode("7:draw:ab", "~Ah")) == Pressed(
        "7", "draw", "ab", ("Ah",), "toggle"
    )
    assert codec.decode(codec.encode("7:draw:ab", "=")) == Pressed("7", "draw", "ab", (), "confirm")
    for forged in ["7:draw:ab|", "7:draw:ab|~", "7:draw:ab|=|x", "7:draw:ab|~Ah|~Kd"]:
        assert codec.decode(forged) is None


def test_short_ids_travel_as_they_are_and_forgeries_decode_to_none():
    codec = CallbackCodec()
    assert codec.encode("t7:call:3") == "t7:call:3"
    assert CallbackCodec().decode("t7:call:3") == Pressed("t7", "call", "3")
    for forged in ["", "nonsense", "a:b", "::", "~0123456789abcdef", "t7::3", ":call:3"]:
        assert codec.decode(forged) is None


def test_long_ids_are_forgotten_beyond_capacity():
    codec = CallbackCodec(capacity=2)
    tokens = [codec.encode(f"table{i}:{'x' * 60}:n") for i in range(3)]
    assert codec.decode(tokens[0]) is None
    assert codec.decode(tokens[2]) == Pressed("table2", "x" * 60, "n")


def test_fit_cuts_to_the_limit():
    assert fit("abc", 10) == "abc"
    assert fit("abcdef", 4) == "abc…"
    assert fit("", 4) == "…"


def test_coalesce_keeps_only_the_last_edit_per_table():
    items = [
        Outgoing(OutKind.EDIT_TABLE, "1", table_id="a"),
        Outgoing(OutKind.PUBLIC, "news", table_id="a"),
        Outgoing(OutKind.EDIT_TABLE, "2", table_id="a"),
        Outgoing(OutKind.EDIT_TABLE, "x", table_id="b"),
        Outgoing(OutKind.EDIT_TABLE, "3", table_id="a"),
    ]
    assert [i.text for i in coalesce(items)] == ["news", "x", "3"]


def test_menu_fits_telegram():
    names = [name for name, _, _ in MENU]
    assert len(names) == len(set(names)) <= 100
    for name, tr, en in MENU:
        assert name.replace("_", "").isalnum() and name.islower() and len(name) <= 32
        assert 1 <= len(tr) <= 256 and 1 <= len(en) <= 256


def test_button_custom_id_matches_codec():
    button = Button("Call", "t1", "call", "9")
    assert CallbackCodec().decode(button.custom_id) == Pressed("t1", "call", "9")


async def test_admin_cache_uses_the_clock():
    statuses = {(-1, 1): "administrator", (-1, 2): "member", (-1, 3): "creator"}
    asked: list[tuple[int, int]] = []
    now = [0.0]

    async def fetch(chat: int, user: int) -> str:
        asked.append((chat, user))
        return statuses[(chat, user)]

    cache = AdminCache(fetch, ttl=60, clock=lambda: now[0])
    assert await cache.is_admin(-1, 1)
    assert not await cache.is_admin(-1, 2)
    assert await cache.is_admin(-1, 3)
    assert not await cache.is_admin(5, 5)  # a private chat has no moderators; nothing asked
    statuses[(-1, 1)] = "member"
    now[0] = 59.0
    assert await cache.is_admin(-1, 1)  # still cached
    now[0] = 61.0
    assert not await cache.is_admin(-1, 1)  # expired: asked again
    assert asked == [(-1, 1), (-1, 2), (-1, 3), (-1, 1)]


async def test_admin_cache_failed_lookup_is_not_a_moderator_and_not_cached():
    calls = [0]

    async def fetch(chat: int, user: int) -> str:
        calls[0] += 1
        if calls[0] == 1:
            raise NetworkError("down")
        return "administrator"

    cache = AdminCache(fetch, clock=lambda: 0.0)
    assert not await cache.is_admin(-1, 1)
    assert await cache.is_admin(-1, 1)


@pytest.mark.parametrize(
    ("low", "high", "sizes"),
    [
        (10, 1000, [10, 20, 30, 50, 500, 1000]),
        (10, 25, [10, 12, 20, 25]),
        (40, 40, [40]),
        (10, None, [10, 20, 30, 50]),
        (None, 300, [300]),
        (None, None, []),
    ],
)
def test_amount_sizes(low, high, sizes):
    assert amount_sizes(low, high) == sizes


@given(low=st.integers(1, 10**6), span=st.integers(0, 10**7))
def test_amount_sizes_stay_in_bounds(low, span):
    sizes = amount_sizes(low, low + span)
    assert sizes[0] == low and sizes[-1] == low + span
    assert sizes == sorted(set(sizes)) and len(sizes) <= 6


def test_cards_in_reads_notation_and_symbols():
    assert cards_in("Your cards: A♥ 10♦ Ks 7c Q♣") == ["Ah", "Td", "Ks", "7c", "Qc"]
    assert cards_in("Kartların: Ah Ah Kd (The 2 pairs)") == ["Ah", "Kd"]
    assert cards_in("Tables 12-3 and 1000 chips, R5 K13") == []
    assert card_label("Td") == "T♦"


def test_draw_picker_toggles_within_the_limit():
    picker = DrawPicker("7", "draw", "n1", ["Ah", "Kd", "Qs", "7c", "8c"], max_cards=2)
    assert picker.toggle("7c") and picker.toggle("Ah")
    assert not picker.toggle("Kd")  # a third card is over the limit
    assert not picker.toggle("2h")  # not in the hand
    assert picker.args() == ("Ah", "7c")
    assert picker.toggle("Ah") and picker.args() == ("7c",)


def test_place_keys_round_trip():
    assert Place(-100, None).key == "-100" and Place(-100, 7).key == "-100/7"
    assert Place.parse("-100/7") == Place(-100, 7) and Place.parse("-100") == Place(-100)
    assert Place.parse("998877665544332211") == Place(998877665544332211)
    assert not Place.parse("55").is_group and Place.parse("-55").is_group
    for bad in [None, "", "c1", "-100/x", "a/b"]:
        assert Place.parse(bad) is None
    assert Place(-1, 3).send_kwargs() == {"message_thread_id": 3} and Place(-1).send_kwargs() == {}


def _update(update_id: int, chat_id: int) -> Update:
    chat = {"id": chat_id, "type": "supergroup", "title": "g"}
    message = {"message_id": update_id, "date": 0, "chat": chat, "text": "x"}
    return Update.de_json({"update_id": update_id, "message": message}, None)


async def test_updates_of_one_chat_run_in_order_and_other_chats_meanwhile():
    processor = PerChatUpdateProcessor(4)
    log: list[str] = []
    release = asyncio.Event()

    async def handler(name: str, wait: bool) -> None:
        log.append(f"start {name}")
        if wait:
            await release.wait()
        log.append(f"end {name}")

    tasks = [
        asyncio.create_task(processor.process_update(_update(1, -1), handler("a1", True))),
        asyncio.create_task(processor.process_update(_update(2, -1), handler("a2", False))),
        asyncio.create_task(processor.process_update(_update(3, -2), handler("b1", False))),
    ]
    for _ in range(50):  # let the tasks run as far as they can (no clock involved)
        await asyncio.sleep(0)
    assert "end b1" in log  # chat -2 is not held up by chat -1
    assert "start a2" not in log  # chat -1's second update waits for its first
    release.set()
    await asyncio.gather(*tasks)
    assert log.index("end a1") < log.index("start a2")
    assert processor._locks == {} and processor._waiting == {}
