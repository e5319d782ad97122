"""The bounds of calls that run on the thread that answers them. One thread
watches every deadline; when one passes before its call is done it runs the
call's `expire` (which answers TimeoutError in the call's stead), and the call's
thread is left to finish on its own. Watching a call costs a heap push, not a
thread of its own.
"""

from __future__ import annotations

import heapq
import itertools
import sys
import threading
import time
import traceback
from typing import Callable

COMPACT_FROM = 64  # finished watches kept in the heap before it is rebuilt without them


class Watch:
    __slots__ = ("expire",)

    def __init__(self, expire: Callable[[], None]) -> None:
        self.expire: Callable[[], None] | None = expire


class Deadlines:
    def __init__(self, name: str = "quiver-deadlines") -> None:
        self._heap: list[tuple[float, int, Watch]] = []
        self._order = itertools.count()
        self._wake = threading.Condition(threading.Lock())
        self._finished = 0  # watches in the heap whose call is done
        self._name = name
        self._thread: threading.Thread | None = None

    def watch(self, seconds: float, expire: Callable[[], None]) -> Watch:
        """Run `expire` on the watching thread `seconds` from now, unless `done`
        is called first."""
        watch = Watch(expire)
        entry = (time.monotonic() + seconds, next(self._order), watch)
        with self._wake:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                self._thread.start()
            heapq.heappush(self._heap, entry)
            if self._heap[0] is entry:  # sooner than what the watcher sleeps towards
                self._wake.notify()
        return watch

    def done(self, watch: Watch) -> bool:
        """The call is done: True if it was within its bound, False if `expire`
        has run (or is running) already."""
        with self._wake:
            if watch.expire is None:
                return False
            watch.expire = None
            # Finished watches stay in the heap until they reach its top; rebuild
            # it when they are most of it, so a long bound does not hoard them.
            self._finished += 1
            if self._finished > COMPACT_FROM and self._finished * 2 > len(self._heap):
                self._heap = [entry for entry in self._heap if entry[2].expire is not None]
                heapq.heapify(self._heap)
                self._finished = 0
            return True

    def _run(self) -> None:
        with self._wake:
            while True:
                due = []
                now = time.monotonic()
                while self._heap and (self._heap[0][2].expire is None or self._heap[0][0] <= now):
                    _, _, watch = heapq.heappop(self._heap)
                    if watch.expire is None:
                        self._finished -= 1
                    else:
                        due.append(watch.expire)
                        watch.expire = None
                if due:
                    # An expire writes an answer; calls may start and finish meanwhile.
                    self._wake.release()
                    try:
                        for expire in due:
                            try:
                                expire()
                            except Exception:
                                traceback.print_exc(file=sys.stderr)
                    finally:
                        self._wake.acquire()
                    continue
                self._wake.wait(self._heap[0][0] - now if self._heap else None)


# One watcher for the process.
DEADLINES = Deadlines()
