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
        # When the watcher wakes next on its own (None: only when told): a watch is
        # told to it only when sooner, so a call under the usual bound wakes no thread.
        self._until: float | None = None
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
            if self._until is None or entry[0] < self._until:
                self._until = entry[0]
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
                # Finished watches not yet due are left to done()'s rebuild: popping them
                # would empty the heap, and then every next call's watch would wake this thread.
                while self._heap and self._heap[0][0] <= now:
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
                self._until = self._heap[0][0] if self._heap else None
                self._wake.wait(self._until - now if self._until is not None else None)


# One watcher for the process.
DEADLINES = Deadlines()


class PausableBound:
    """A call's bound that stops counting while the call waits on the studio
    (ctx.ask, ctx.system): time spent waiting for a person never counts
    against the tool's timeout (R-call-wait-not-counted). Only calls with a
    Context can wait so, and only those pay for this."""

    def __init__(self, seconds: float, expire: Callable[[], None],
                 deadlines: Deadlines = DEADLINES) -> None:
        self._lock = threading.Lock()
        self._deadlines = deadlines
        self._left = seconds
        self._since = time.monotonic()
        self._waits = 0
        self._expire = expire
        self._over = False
        self._finished = False
        self._watch: Watch | None = deadlines.watch(seconds, self._due)

    def _due(self) -> None:
        with self._lock:
            self._watch = None
            if self._finished:
                return
            if self._waits:
                return  # resume() watches again with what is left
            left = self._left - (time.monotonic() - self._since)
            if left > 0.001:  # the call waited since this watch began: its time is owed back
                self._watch = self._deadlines.watch(left, self._due)
                return
            self._over = True
        self._expire()

    def pause(self) -> None:
        with self._lock:
            self._waits += 1
            if self._waits == 1:
                self._left -= time.monotonic() - self._since

    def resume(self) -> None:
        with self._lock:
            self._waits -= 1
            if self._waits:
                return
            self._since = time.monotonic()
            if self._watch is None and not self._over and not self._finished:
                self._watch = self._deadlines.watch(max(self._left, 0.0), self._due)

    def done(self) -> bool:
        """The call is done: True if within its bound, False if `expire` ran."""
        with self._lock:
            self._finished = True
            watch, self._watch = self._watch, None
            over = self._over
        if watch is not None:
            self._deadlines.done(watch)
        return not over
