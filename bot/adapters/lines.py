"""Input lines read without blocking the event loop, so that a stop signal is handled while the
console waits for its next line.

A daemon thread reads the file descriptor with `os.read` (no buffered-reader lock that could
hold up the interpreter's exit) and hands each decoded line to the loop; bytes that are not
valid in the encoding become U+FFFD instead of an error.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import threading
from collections.abc import AsyncIterator

CHUNK = 65536


async def read_lines(fd: int, stop: asyncio.Event, encoding: str = "utf-8") -> AsyncIterator[str]:
    """Yield the lines read from `fd` (each with its newline, the last one maybe without) until
    end of input or until `stop` is set, whichever comes first."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str | None] = asyncio.Queue()

    def put(item: str | None) -> bool:
        try:
            loop.call_soon_threadsafe(queue.put_nowait, item)
        except RuntimeError:  # the loop is closed: nobody is reading any more
            return False
        return True

    def reader() -> None:
        decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
        pending = ""
        while True:
            try:
                chunk = os.read(fd, CHUNK)
            except OSError:
                chunk = b""
            pending += decoder.decode(chunk, final=not chunk)
            *whole, pending = pending.split("\n")
            for line in whole:
                if not put(line + "\n"):
                    return
            if not chunk:
                if pending:
                    put(pending)
                put(None)
                return

    threading.Thread(target=reader, name="console-input", daemon=True).start()
    stopping = asyncio.ensure_future(stop.wait())
    try:
        while not stop.is_set():
            getting = asyncio.ensure_future(queue.get())
            await asyncio.wait({getting, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if not getting.done():
                getting.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await getting
                return
            line = getting.result()
            if line is None:
                return
            yield line
    finally:
        stopping.cancel()
