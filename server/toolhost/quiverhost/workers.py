"""The threads that run work someone waits on with a bound (bounded.py: a
file's import, a preview, a secret check; Calls.call). Starting a thread costs
more than the work usually does, so it goes to a thread already waiting; the
pool grows when every thread is busy, which is also how a thread stuck past its
bound is replaced. (Requests are answered on the threads of turns.py.)
"""

from __future__ import annotations

import contextvars
import itertools
import queue
import sys
import threading
import traceback
from typing import Callable

SPARE = 4  # idle threads kept for the next burst; a thread finishing beyond them ends


class Workers:
    def __init__(self, name: str = "quiver-worker", spare: int = SPARE) -> None:
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._lock = threading.Lock()
        # Threads waiting on the queue that no queued job is counting on yet:
        # every job put is matched by one of these or by a thread started for it.
        self._idle = 0
        self._spare = spare
        self._name = name
        self._numbers = itertools.count(1)
        self.started = 0  # threads started so far (the tests read it)

    def submit(self, job: Callable[[], None], name: str | None = None) -> None:
        """Run `job` on a waiting thread, or on a new one when none is free.
        `name` is the thread's name while it runs the job (tracebacks, py-spy)."""
        with self._lock:
            waiting = self._idle > 0
            if waiting:
                self._idle -= 1
            else:
                self.started += 1
        self._jobs.put((job, name))
        if not waiting:
            threading.Thread(target=self._serve, name=f"{self._name}-{next(self._numbers)}",
                             daemon=True).start()

    @property
    def idle(self) -> int:
        return self._idle

    def _serve(self) -> None:
        thread = threading.current_thread()
        own_name = thread.name
        while True:
            job, name = self._jobs.get()
            thread.name = name or own_name
            try:
                # A fresh context per job, as a new thread would have: a context
                # variable one call sets must not be seen by the next.
                contextvars.Context().run(job)
            except BaseException:  # a bug in one job must not cost the pool its thread
                traceback.print_exc(file=sys.stderr)
            thread.name = own_name
            with self._lock:
                if self._idle >= self._spare:
                    return
                self._idle += 1


# One pool for the process.
WORKERS = Workers()
