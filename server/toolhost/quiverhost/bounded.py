"""Running code that may not come back and waiting for it: a file's import, a
preview, a secret check.

Python cannot stop a thread, so the work runs on a worker and the caller stops
waiting at the bound: the host stays up, the worker is abandoned (and the pool
grows past it). A tools/call from the client does not wait here: it runs on the
thread that read it, and deadlines.py answers for it when its bound passes.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Callable

from .reaper import REAPER
from .workers import WORKERS


@dataclass
class Finished:
    done: bool
    value: Any = None
    error: BaseException | None = None


def run_bounded(work: Callable[[], Any], seconds: float | None,
                wake: threading.Event | None = None, name: str = "quiver-work") -> Finished:
    """Run `work` for at most `seconds` (None: no bound). Setting `wake` from
    elsewhere (a cancellation) stops the wait early; `done` is then False."""
    wake = wake or threading.Event()
    box: dict[str, Any] = {}

    def run() -> None:
        busy = REAPER.enter()  # the work is tool code: its children are its own to wait for
        try:
            box["value"] = work()
        except BaseException as exc:  # SystemExit from a tool must not end the host
            box["error"] = exc
        finally:
            REAPER.leave(busy)
            box["done"] = True
            wake.set()

    WORKERS.submit(run, name)
    wake.wait(seconds)
    if not box.get("done"):
        return Finished(False)
    return Finished(True, box.get("value"), box.get("error"))
