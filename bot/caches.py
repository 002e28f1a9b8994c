"""`Lru` and `Expiring`: bounded maps, shared by the core (pictures, charts) and the adapters
(per-table and per-user state), so an adapter needs nothing of `bot.render` for them.

What is drawn (pictures, charts, replay strips) is kept by its content (a hashable scene), so
the same picture asked for again is not drawn again; the cache holds at most `max_items`
entries and, with a `weight` function, at most `max_weight` of their total weight (bytes), the
least recently used going first. The chat adapters bound their per-table and per-user maps with
it where no close event tells them to forget an entry.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from typing import Generic, TypeVar, overload

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Lru(Generic[K, V]):
    """A map of at most `max_items` entries (and `max_weight` total weight when `weight` is
    given); reading or writing an entry makes it the most recent one."""

    def __init__(
        self,
        max_items: int,
        *,
        weight: Callable[[V], int] | None = None,
        max_weight: int | None = None,
    ) -> None:
        if max_items < 1:
            raise ValueError("max_items must be at least 1")
        self.max_items = max_items
        self.weight = weight
        self.max_weight = max_weight
        self.total = 0  # the entries' summed weight (0 without `weight`)
        self.hits = 0
        self.misses = 0
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __iter__(self) -> Iterator[K]:
        return iter(list(self._items))

    def __getitem__(self, key: K) -> V:
        with self._lock:
            value = self._items[key]  # KeyError when absent
            self._items.move_to_end(key)
            return value

    def __setitem__(self, key: K, value: V) -> None:
        self.put(key, value)

    def __delitem__(self, key: K) -> None:
        with self._lock:
            if key not in self._items:
                raise KeyError(key)
            self._drop(key)

    def keys(self) -> list[K]:
        """The keys, least recent first."""
        return list(self._items)

    def items(self) -> list[tuple[K, V]]:
        """The entries, least recent first."""
        return list(self._items.items())

    def setdefault(self, key: K, default: V) -> V:
        """The value of `key`, or `default` kept under it."""
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        self.put(key, default)
        return default

    @overload
    def get(self, key: K) -> V | None: ...
    @overload
    def get(self, key: K, default: V) -> V: ...
    def get(self, key: K, default: V | None = None) -> V | None:
        """The value of `key` (now the most recent), or `default`."""
        with self._lock:
            if key not in self._items:
                self.misses += 1
                return default
            self.hits += 1
            self._items.move_to_end(key)
            return self._items[key]

    def put(self, key: K, value: V) -> None:
        """Keep `value` under `key`, dropping the least recent entries beyond the bounds (a value
        heavier than `max_weight` alone is not kept)."""
        with self._lock:
            self._drop(key)
            size = self.weight(value) if self.weight is not None else 0
            if self.max_weight is not None and size > self.max_weight:
                return
            self._items[key] = value
            self.total += size
            while len(self._items) > self.max_items or (
                self.max_weight is not None and self.total > self.max_weight
            ):
                self._drop(next(iter(self._items)))

    def pop(self, key: K, default: V | None = None) -> V | None:
        """Forget `key`; its value, or `default`."""
        with self._lock:
            value = self._items.get(key, default)
            self._drop(key)
            return value

    def clear(self) -> None:
        """Forget everything."""
        with self._lock:
            self._items.clear()
            self.total = 0

    def get_or_make(self, key: K, make: Callable[[], V]) -> V:
        """The value of `key`, made by `make()` and kept on a miss (made outside the lock: two
        threads missing together may both make it, the last one is kept)."""
        with self._lock:
            if key in self._items:
                self.hits += 1
                self._items.move_to_end(key)
                return self._items[key]
            self.misses += 1
        value = make()
        self.put(key, value)
        return value

    def _drop(self, key: K) -> None:
        if key in self._items:
            value = self._items.pop(key)
            if self.weight is not None:
                self.total -= self.weight(value)


class Expiring(Generic[K]):
    """A set whose members leave `seconds` after they were added (by `clock`), holding at most
    `max_items` (the oldest leave first)."""

    def __init__(self, seconds: float, clock: Callable[[], float], max_items: int) -> None:
        self.seconds = seconds
        self.clock = clock
        self._added: Lru[K, float] = Lru(max_items)

    def __len__(self) -> int:
        return len(self._added)

    def add(self, key: K) -> None:
        """Make `key` a member from now on, for `seconds`."""
        self._added.pop(key)
        self._added[key] = self.clock()

    def discard(self, key: K) -> None:
        """`key` is no member any more."""
        self._added.pop(key)

    def __contains__(self, key: object) -> bool:
        added = self._added.get(key)  # type: ignore[arg-type]
        if added is None:
            return False
        if self.clock() - added >= self.seconds:
            self._added.pop(key)  # type: ignore[arg-type]
            return False
        return True

    def expire(self) -> None:
        """Drop every member whose time is up."""
        now = self.clock()
        for key, added in self._added.items():
            if now - added >= self.seconds:
                self._added.pop(key)
