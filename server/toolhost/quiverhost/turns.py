"""Threads that take turns reading the client's lines (leader/followers). The
thread whose turn it is reads and answers quick requests itself; on one that
may take a while it passes the turn to a waiting thread (or a new one) and
answers that request itself, then waits for another turn. So a request starts
on the thread that read it, without waiting for another thread to wake up (a
hand-off costs more than a no-op call on a busy machine), and a slow request,
or one stuck past its bound, never holds up reading.

A request that is usually quick (a tool call) can be answered keeping the turn
(`keep`): no other thread wakes for it. One thread looks every NET seconds,
while requests are kept, for one kept longer than SOON and passes its turn; a
request that waits on the client passes it at once. So reading is held up
NET + SOON at most, and only by a request that was expected to be quick. (A
timer armed per request, ITIMER_REAL, costs about what the hand-off does:
R-ops-host-wakes.) R-host-reading-turn.
"""

from __future__ import annotations

import itertools
import sys
import threading
import time
import traceback
from typing import Callable

SPARE = 4  # threads kept waiting for a turn; one that finishes beyond them ends
SOON = 0.001  # seconds a kept request runs before its turn may pass
NET = 0.01  # seconds between looks at the kept request, while requests are kept
IDLE_LOOKS = 100  # looks finding nothing kept before the looking thread sleeps until a keep


class Turns:
    def __init__(self, name: str = "quiver-reader", spare: int = SPARE,
                 soon: float = SOON, net: float = NET) -> None:
        self._turn = threading.Lock()  # held by the thread whose turn it is
        self._lock = threading.Lock()
        # Threads waiting for the turn that no passed turn counts on yet: every
        # pass is matched by one of these or by a thread started for it.
        self._waiting = 0
        self._holder: int | None = None
        # The thread answering a request with the turn still in hand (`keep`), and since when.
        self._keeping: int | None = None
        self._kept_since = 0.0
        self._soon, self._net = soon, net
        self._looking = threading.Event()  # set while the net thread looks; a keep sets it
        self._wake_net = threading.Event()
        self._net_thread: threading.Thread | None = None
        self._spare = spare
        self._name = name
        self._numbers = itertools.count(1)
        self._ended = threading.Event()
        self._step: Callable[[], bool] = lambda: False
        self.started = 0  # threads started so far (the tests read it)

    def run(self, step: Callable[[], bool]) -> None:
        """Call `step` again and again, always on the thread whose turn it is,
        until it returns False; then return."""
        self._step = step
        self._start()
        self._ended.wait()

    def waiting(self) -> int:
        """Threads waiting for a turn that no pass counts on yet."""
        with self._lock:
            return self._waiting

    def pass_on(self) -> None:
        """Give the turn away and go on with what this thread is doing; it waits
        for a turn again when its step returns."""
        with self._lock:
            if self._keeping == threading.get_ident():
                self._keeping = None
            waiting = self._hand_over()
        if not waiting:
            self._start()

    def keep(self) -> None:
        """Answer a request on this thread still holding the turn, which passes
        if the request takes long (see the module); call `kept` when it is answered."""
        with self._lock:
            self._keeping = threading.get_ident()
            self._kept_since = time.monotonic()
        if not self._looking.is_set():
            self._look()

    def kept(self) -> None:
        """The kept request is answered: this thread reads on, unless its turn
        was passed meanwhile."""
        with self._lock:
            if self._keeping == threading.get_ident():
                self._keeping = None

    def pass_kept(self) -> None:
        """Pass on the turn a thread keeps while it answers (it took long, or is
        about to wait on the client, whose answer must be read meanwhile)."""
        self._pass_kept(0.0)

    def _pass_kept(self, older_than: float) -> None:
        with self._lock:
            if self._keeping is None or time.monotonic() - self._kept_since < older_than:
                return
            self._keeping = None
            waiting = self._hand_over()
        if not waiting:
            self._start()

    def _hand_over(self) -> bool:
        """With self._lock held: release the turn; whether a waiting thread takes it."""
        waiting = self._waiting > 0
        if waiting:
            self._waiting -= 1
        self._holder = None
        self._turn.release()
        return waiting

    def _look(self) -> None:
        """Start the net thread, or wake it from its sleep."""
        with self._lock:
            if self._looking.is_set():
                return
            self._looking.set()
            if self._net_thread is None:
                self._net_thread = threading.Thread(target=self._watch_kept, daemon=True,
                                                    name=f"{self._name}-net")
                self._net_thread.start()
            else:
                self._wake_net.set()

    def _watch_kept(self) -> None:
        idle = 0
        while not self._ended.is_set():
            time.sleep(self._net)
            if self._keeping is None:
                idle += 1
                if idle < IDLE_LOOKS:
                    continue
                with self._lock:  # a keep after this wakes the thread again
                    if self._keeping is not None:
                        continue
                    self._looking.clear()
                    self._wake_net.clear()
                self._wake_net.wait()
                idle = 0
                continue
            idle = 0
            try:
                self._pass_kept(self._soon)
            except Exception:  # a bug here must not stop the looking
                traceback.print_exc(file=sys.stderr)

    def _start(self) -> None:
        with self._lock:
            self.started += 1
        threading.Thread(target=self._take_turns, name=f"{self._name}-{next(self._numbers)}",
                         daemon=True).start()

    def _take_turns(self) -> None:
        me = threading.get_ident()
        while True:
            self._turn.acquire()
            self._holder = me
            while self._holder == me:
                try:
                    going = self._step()
                except BaseException:  # a bug ends reading rather than die holding the turn
                    traceback.print_exc(file=sys.stderr)
                    going = False
                if not going:
                    self._ended.set()
                    return  # keeping the turn: there is nothing left to read
            with self._lock:
                if self._waiting >= self._spare:
                    return
                self._waiting += 1
