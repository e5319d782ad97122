"""Running code that may not come back: a tool call, or a file's import.

Python cannot stop a thread, so the work runs in a daemon thread and the
caller stops waiting at the bound: the host stays up, the thread is abandoned.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Callable


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
        try:
            box["value"] = work()
        except BaseException as exc:  # SystemExit from a tool must not end the host
            box["error"] = exc
        finally:
            box["done"] = True
            wake.set()

    threading.Thread(target=run, name=name, daemon=True).start()
    wake.wait(seconds)
    if not box.get("done"):
        return Finished(False)
    return Finished(True, box.get("value"), box.get("error"))
