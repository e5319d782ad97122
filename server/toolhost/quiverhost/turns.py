"""Threads that take turns reading the client's lines (leader/followers). The
thread whose turn it is reads and answers quick requests itself; on one that
may take a while it passes the turn to a waiting thread (or a new one) and
answers that request itself, then waits for another turn. So a request starts
on the thread that read it, without waiting for another thread to wake up (a
hand-off costs more than a no-op call on a busy machine), and a slow request,
or one stuck past its bound, never holds up reading.
"""

from __future__ import annotations

import itertools
import sys
import threading
import traceback
from typing import Callable

SPARE = 4  # threads kept waiting for a turn; one that finishes beyond them ends


class Turns:
    def __init__(self, name: str = "quiver-reader", spare: int = SPARE) -> None:
        self._turn = threading.Lock()  # held by the thread whose turn it is
        self._lock = threading.Lock()
        # Threads waiting for the turn that no passed turn counts on yet: every
        # pass is matched by one of these or by a thread started for it.
        self._waiting = 0
        self._holder: int | None = None
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

    def pass_on(self) -> None:
        """Give the turn away and go on with what this thread is doing; it waits
        for a turn again when its step returns."""
        with self._lock:
            waiting = self._waiting > 0
            if waiting:
                self._waiting -= 1
        self._holder = None
        self._turn.release()
        if not waiting:
            self._start()

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
