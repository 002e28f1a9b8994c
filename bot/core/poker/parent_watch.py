"""Worker processes that end when the process that started them is gone.

A `ProcessPoolExecutor` worker waits on its call queue, a pipe whose writing end the worker holds
itself, so it never sees an end of file: when the bot is killed (`kill -9`, the OOM killer, a
crash) its workers are re-parented and wait forever, and the resource tracker with them (it ends
only once every holder of its pipe has closed it, the workers included). `watch_parent`, the
pool's initializer, starts a daemon thread in each worker that checks every `CHECK_SECONDS`
whether the worker's parent is still the process that started the pool, and ends the worker
at once when it is not. Polling the parent id, not `PR_SET_PDEATHSIG`: that signal follows the
parent *thread* that spawned the worker, and a pool may spawn from a thread that ends first.
"""

from __future__ import annotations

import os
import threading
import time

CHECK_SECONDS = 0.5  # how often a worker checks its parent (a worker outlives it at most this)
ORPHAN_EXIT = 3  # the exit status of a worker whose parent is gone (nobody reads it)


def watch_parent(parent: int, every: float = CHECK_SECONDS) -> None:
    """Pool initializer: end this worker process as soon as its parent is no longer `parent`
    (the pid of the process that started the pool, passed in `initargs`)."""
    if os.getppid() != parent:  # the parent died while this worker was starting
        os._exit(ORPHAN_EXIT)
    watcher = threading.Thread(
        target=_watch, args=(parent, every), name="parent-watch", daemon=True
    )
    watcher.start()


def _watch(parent: int, every: float) -> None:
    while True:
        time.sleep(every)
        if os.getppid() != parent:
            # no clean-up: the work in hand is for a process that is gone
            os._exit(ORPHAN_EXIT)
