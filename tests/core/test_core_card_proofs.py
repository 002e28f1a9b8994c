"""Unshown cards stay unshown (docs/fairness.md), through the core on a real Store.

Random hands of each game are played; for every hand the cards or tiles a player held that the
channel never saw (a folded hand, an uncalled bluff, an Okey rack) must appear in no public text,
no `/verify`, `/replay` or `/export` answer to anybody else, and the seed in none at all, until
the table has closed and `seed_reveal_hours` have passed. Each player's private proof is checked
against the root posted in the channel at the deal by an implementation written here (hashlib
and hmac only, not `games.commitment`), which also refuses a wrong card, salt or path. After the
reveal time the seed is public and the posted root is recomputed from it here."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import re
from dataclasses import dataclass, field

import pytest

from bot.core.app import Core
from bot.core.messages import Outgoing, OutKind
from bot.core.players.replay import load_hand
from bot.render import text as show
from games import history
from games.base import shuffled
from games.okey.tiles import full_set
from storage import Store
from testkit.drive import leaked
from testkit.helpers import Clock, cmd, make_core
from testkit.hidden import random_move, table_session
from testkit.replaying import SPECTATOR, USERS, _holdings
from testkit.sealing import close_table, reach_reveal
from tests.core.test_core_replay import without_start_draw

ROOT_LINE = re.compile(r"Card commitment \(Merkle root\): ([0-9a-f]{64})")
MATCHES = "sha256(seed) matches the posted hash."

# --- an independent checker: the formats of docs/fairness.md, with hashlib and hmac only ------


def leaf(position: int, card: str, salt: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + position.to_bytes(4, "big") + salt + card.encode()).digest()


def node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def proves(root: str, leaves: int, item: dict) -> bool:
    """True when one opening of a proof file leads from its card to `root`, by the sides its
    position in a tree of `leaves` leaves must take (the odd node is carried up)."""
    position = item["position"]
    current = leaf(position, item["card"], bytes.fromhex(item["salt"]))
    path = list(item["path"])
    index, width = position, leaves
    while width > 1:
        if index % 2 or index + 1 < width:
            if not path:
                return False
            side, partner = path.pop(0)
            want = "L" if index % 2 else "R"
            if side != want:
                return False
            sibling = bytes.fromhex(partner)
            current = node(sibling, current) if side == "L" else node(current, sibling)
        index, width = index // 2, (width + 1) // 2
    return not path and current.hex() == root


def root_from_seed(order: list[str], seed: bytes) -> str:
    """The root of a deal order once the seed is known: salts, leaves, the tree."""
    level = [
        leaf(i, card, hmac.new(seed, b"turkish-table/salt|%d" % i, hashlib.sha256).digest())
        for i, card in enumerate(order)
    ]
    while len(level) > 1:
        up = [node(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        level = up + ([level[-1]] if len(level) % 2 else [])
    return level[0].hex()


def engine_order(setup: history.Setup, seed: bytes) -> list[str]:
    """The order a hand was dealt from, taken from the engines (not from the proof modules)."""
    if setup.game == "okey":
        return shuffled(full_set(), seed, "okey-deal")
    engine, _ = history.deal(setup, seed)
    if setup.game == "acik":
        return [str(c) for c in engine.deck]
    return [str(c) for c in shuffled(engine.rules.deck, seed, "deal")]


# --- playing -----------------------------------------------------------------------------------


@dataclass
class Table:
    """A table played through the core: per hand, what each user held, the channel's text and
    the root posted at its deal."""

    core: Core
    store: Store
    clock: Clock
    users: tuple[str, ...]
    held: dict[str, dict[str, set[str]]] = field(default_factory=dict)
    channel: list[str] = field(default_factory=list)
    roots: dict[str, str] = field(default_factory=dict)
    finished: list[str] = field(default_factory=list)
    community: str = "home"  # the group the table plays in

    async def send(self, user: str, line: str) -> list[Outgoing]:
        out = await self.core.handle(cmd(user, line, community=self.community))
        assert not [o for o in out if o.kind is OutKind.ERROR], (line, out)
        self.channel += [o.text for o in out if o.kind in (OutKind.PUBLIC, OutKind.EDIT_TABLE)]
        return out

    @property
    def table_id(self) -> int:
        return int(self.finished[0].split("-")[0])


async def play(game: str, players: int, seed: int, hands: int) -> Table:
    """Random legal moves until `hands` hands or rounds have ended."""
    clock = Clock()
    store = await Store.open("sqlite+aiosqlite://", clock=clock)
    table = Table(
        make_core(store, seed=f"proofs-{seed}", clock=clock), store, clock, USERS[:players]
    )
    users = table.users
    if game == "okey":
        opening = [(users[0], "/okey start 3"), *((u, "/okey join") for u in users[1:])]
        opening.append((users[0], "/okey begin"))
    else:
        opening = [(users[0], f"/poker open {game} 10"), *((u, "/poker join 300") for u in users)]
        opening.append((users[0], "/poker start"))
    for user, line in opening:
        await table.send(user, line)
    rng = random.Random(seed)
    for _ in range(3000):
        now = _holdings(table_session(table.core))
        if now is None or len(table.finished) >= hands:
            break
        hand_id, holding = now
        for user, cards in holding.items():
            table.held.setdefault(hand_id, {}).setdefault(user, set()).update(cards)
        user, line = random_move(table_session(table.core), rng)
        await table.send(user, line)
        after = _holdings(table_session(table.core))
        if after is None or after[0] != hand_id:
            table.finished.append(hand_id)
    # the root posted at each deal, in the order the hands were dealt
    posted = []
    for found in ROOT_LINE.findall("\n".join(table.channel)):
        if found not in posted:
            posted.append(found)
    first = int(table.finished[0].split("-")[1])
    table.roots = {f"{table.table_id}-{first + i}": root for i, root in enumerate(posted)}
    return table


def hidden_from(table: Table, hand_id: str, asker: str | None) -> set[str]:
    """Cards other players held in the hand that the channel never saw (both notations)."""
    channel = "\n".join(table.channel)
    held = table.held[hand_id]
    others = set().union(*(c for u, c in held.items() if u != asker)) - held.get(asker, set())
    out: set[str] = set()
    for card in others:
        forms = {card, show.card(card)}
        if not leaked(channel, forms):
            out |= forms
    return out


async def unseen_tiles(table: Table, hand_id: str) -> int:
    """How many tiles stayed in racks nobody saw at the end of an Okey round (every rack but
    the finisher's)."""
    hand = await load_hand(table.store, hand_id, table.table_id)
    engine = hand.played.engine
    winner = (engine.result or {}).get("winner")
    return sum(len(rack) for seat, rack in enumerate(engine.racks) if seat != winner)


def everything(out: list[Outgoing]) -> str:
    """Every text and attachment of an answer (an export without the Okey starter draw: tiles of
    a separate shuffle, public by the rules, whose names only repeat rack tiles')."""
    parts = [o.text or "" for o in out]
    for o in out:
        if o.attachment is not None:
            name, content = o.attachment
            jsonl = name.endswith(".jsonl")
            parts.append(without_start_draw(content.decode()) if jsonl else content.decode())
    return "\n".join(parts)


async def ask(table: Table, user: str, line: str) -> list[Outgoing]:
    out = await table.core.handle(cmd(user, line, community=table.community))
    assert not [o for o in out if o.kind is OutKind.ERROR], (line, out)
    return out


def proof_file(out: list[Outgoing]) -> dict:
    (answer,) = out
    assert answer.kind is OutKind.PRIVATE and answer.attachment is not None
    return json.loads(answer.attachment[1])


# --- the tests ---------------------------------------------------------------------------------


GAMES = ("turkish", "acik", "okey")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [1, 2])
async def test_unshown_cards_stay_unshown_until_the_reveal_time(game, seed):
    table = await play(game, 3, seed, hands=3)
    try:
        assert table.finished and set(table.roots) >= set(table.finished)
        seeds = {h: (await table.store.seed(h)).seed_hex for h in table.finished}
        unseen = {h: await unseen_tiles(table, h) for h in table.finished} if game == "okey" else {}
        hidden_somewhere = 0
        for stage in ("open", "closed"):  # the table still open, then closed but not for long
            if stage == "closed":
                await close_table(table.core, table.table_id)
                await reach_reveal(table.core, table.table_id, early=1)
            channel = "\n".join(table.channel)
            assert not [s for s in seeds.values() if s in channel]
            for hand_id in table.finished:
                root = table.roots[hand_id]
                for asker in (*table.users, SPECTATOR):
                    hidden = hidden_from(table, hand_id, asker)
                    hidden_somewhere += bool(hidden)
                    for line in (f"/verify {hand_id}", f"/replay {hand_id}", f"/export {hand_id}"):
                        out = await ask(table, asker, line)
                        assert all(o.kind is OutKind.PRIVATE for o in out), line
                        said = everything(out)
                        assert seeds[hand_id] not in said, (asker, line)
                        assert not leaked(said, hidden), (asker, line, leaked(said, hidden))
                    document = proof_file(await ask(table, asker, f"/verify {hand_id}"))
                    assert document["root"] == root  # the root posted at the deal
                    for item in document["cards"]:
                        assert proves(root, document["leaves"], item), item
                    cards = {i["position"]: i["card"] for i in document["cards"]}
                    own = {cards[p] for p in document["own"]}
                    if asker in table.held[hand_id]:  # their own cards, never another's
                        assert own & table.held[hand_id][asker]
                    else:
                        assert not own
                    assert not own & hidden
                    shown = {cards[p] for p in document["shown"]}
                    assert not shown & hidden
                    if game == "okey":  # tiles repeat: count what stayed in unseen racks
                        assert len(document["shown"]) <= document["leaves"] - unseen[hand_id]
        if game != "okey":  # every Okey tile has a twin: hidden names show up as the other's
            assert hidden_somewhere, "no hand kept a card hidden: the test proved nothing"
    finally:
        await table.store.close()


def tampered(item: dict) -> list[dict]:
    """The opening with a wrong card, a wrong salt, a wrong partner hash, a wrong side, a path
    step left out, and another position."""
    salt = bytes.fromhex(item["salt"])
    side, partner = item["path"][0]
    flipped = ("0" if partner[0] != "0" else "1") + partner[1:]
    return [
        {**item, "card": "Ah" if item["card"] != "Ah" else "Kh"},
        {**item, "salt": bytes([salt[0] ^ 1, *salt[1:]]).hex()},
        {**item, "path": [[side, flipped], *item["path"][1:]]},
        {**item, "path": [["R" if side == "L" else "L", partner], *item["path"][1:]]},
        {**item, "path": item["path"][1:]},
        {**item, "position": item["position"] ^ 1},
    ]


@pytest.mark.parametrize("game", GAMES)
async def test_a_tampered_private_proof_fails(game):
    table = await play(game, 2, 7, hands=1)
    try:
        hand_id = table.finished[0]
        for user in table.users:
            document = proof_file(await ask(table, user, f"/verify {hand_id}"))
            own = [i for i in document["cards"] if i["position"] in document["own"]]
            assert own
            for item in own:
                assert proves(table.roots[hand_id], document["leaves"], item)
                for bad in tampered(item):
                    assert not proves(table.roots[hand_id], document["leaves"], bad), bad
                assert not proves("00" * 32, document["leaves"], item)
    finally:
        await table.store.close()


@pytest.mark.parametrize("game", GAMES)
async def test_after_the_reveal_time_everything_verifies(game):
    table = await play(game, 3, 3, hands=2)
    try:
        await close_table(table.core, table.table_id)
        await reach_reveal(table.core, table.table_id)
        for hand_id in table.finished:
            record = await table.store.seed(hand_id)
            seed = bytes.fromhex(record.seed_hex)
            out = await ask(table, SPECTATOR, f"/verify {hand_id}")
            assert len(out) == 1 and out[0].kind is OutKind.PUBLIC
            assert record.seed_hex in out[0].text and MATCHES in out[0].text
            assert "The root is the one posted at the deal." in out[0].text
            hand = await load_hand(table.store, hand_id, table.table_id)
            order = engine_order(hand.played.setup, seed)
            assert root_from_seed(order, seed) == table.roots[hand_id]
            # every card anyone held was dealt from that order
            assert set().union(*table.held[hand_id].values()) <= set(order)
            for asker in (*table.users, SPECTATOR):
                export = await ask(table, asker, f"/export {hand_id}")
                check = history.check(history.read(export[0].attachment[1].decode()))
                assert check.ok and check.seed_ok, check.problems
                replay = await ask(table, asker, f"/replay {hand_id}")
                assert record.seed_hex in replay[0].text
    finally:
        await table.store.close()


async def test_verify_of_another_communitys_hand_is_refused():
    table = await play("acik", 2, 4, hands=1)
    try:
        hand_id = table.finished[0]
        here = await table.store.table_head(table.table_id)
        for locale, reason in (("en", "another community"), ("tr", "başka bir toplulukta")):
            out = await table.core.handle(
                cmd(SPECTATOR, f"/verify {hand_id}", locale=locale, community="elsewhere")
            )
            assert [o.kind for o in out] == [OutKind.ERROR] and reason in out[0].text
        # a player of the hand may still ask from anywhere; the same community is answered
        own = await table.core.handle(cmd(table.users[0], f"/verify {hand_id}", community="x"))
        assert own[0].kind is OutKind.PRIVATE
        assert here.community == table.community
        same = await ask(table, SPECTATOR, f"/verify {hand_id}")
        assert same[0].kind is OutKind.PRIVATE
    finally:
        await table.store.close()
