"""Players: get-or-create, names, locales."""

from __future__ import annotations

import pytest

from storage import InvalidRequest, NotFound, Store


async def test_get_or_create_keeps_id_and_updates_name(store: Store) -> None:
    first = await store.player("discord", 42, "Ali", locale="tr")
    again = await store.player("discord", "42", "Ali Veli", locale="en")
    assert again.id == first.id
    assert again.name == "Ali Veli"
    assert again.user_id == "42"
    # The platform locale only fills an empty one: a /lang choice is not overwritten.
    assert again.locale == "tr"
    assert await store.get_player(first.id) == again


async def test_same_user_id_on_two_platforms_are_two_players(store: Store) -> None:
    discord = await store.player("discord", 7, "A")
    telegram = await store.player("telegram", 7, "A")
    assert discord.id != telegram.id


async def test_set_locale_overrides_and_clears(store: Store) -> None:
    player = await store.player("telegram", 1, "Ayşe")
    assert player.locale is None
    await store.set_locale(player.id, "en")
    assert (await store.get_player(player.id)).locale == "en"
    assert (await store.player("telegram", 1, "Ayşe", locale="tr")).locale == "en"
    await store.set_locale(player.id, None)
    assert (await store.get_player(player.id)).locale is None


async def test_unknown_player_is_not_found(store: Store) -> None:
    with pytest.raises(NotFound, match="no player with id 99"):
        await store.get_player(99)
    with pytest.raises(NotFound):
        await store.set_locale(99, "tr")


@pytest.mark.parametrize(
    ("platform", "user", "name"),
    [("", 1, "x"), ("discord", "", "x"), ("discord", 1, "  "), ("discord", "u" * 65, "x")],
)
async def test_bad_player_input_is_refused(
    store: Store, platform: str, user: object, name: str
) -> None:
    with pytest.raises(InvalidRequest):
        await store.player(platform, user, name)  # type: ignore[arg-type]


async def test_long_display_name_is_cut(store: Store) -> None:
    player = await store.player("discord", 5, "ş" * 150)
    assert player.name == "ş" * 100


async def test_find_player_reads_without_creating(store: Store) -> None:
    assert await store.find_player("telegram", "42") is None
    created = await store.player("telegram", 42, "Ayşe", locale="tr")
    found = await store.find_player("telegram", 42)
    assert found == created
    assert await store.find_player("discord", "42") is None
    assert await store.find_player("telegram", "43") is None


async def test_tile_symbols_round_trip(store: Store) -> None:
    player = await store.player("telegram", 3, "Zeynep")
    assert player.tile_symbols is False  # never chosen: colours only
    await store.set_tile_symbols(player.id, True)
    assert (await store.get_player(player.id)).tile_symbols is True
    assert (await store.find_player("telegram", 3)).tile_symbols is True  # type: ignore[union-attr]
    # a later sign-in (name, platform locale) keeps the choice
    assert (await store.player("telegram", 3, "Zeynep K", locale="tr")).tile_symbols is True
    await store.set_tile_symbols(player.id, False)
    assert (await store.get_player(player.id)).tile_symbols is False
    with pytest.raises(NotFound):
        await store.set_tile_symbols(99, True)
    with pytest.raises(InvalidRequest):
        await store.set_tile_symbols(player.id, "yes")  # type: ignore[arg-type]
