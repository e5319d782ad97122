"""Instances of class files, by scope (R-file-scope, R-file-ctx-tool): "call" builds one per call,
"run" keeps one per session (`_meta["quiver/session"]`, else the connection).
ctx.tool("other") hands out the very instance the session is using. A file
that is re-imported has its kept instances dropped.
"""

from __future__ import annotations

import threading
from typing import Any, Callable

from .entries import Derived


class Sessions:
    def __init__(self) -> None:
        self._kept: dict[tuple[str | None, str], Any] = {}
        self._building: dict[tuple[str | None, str], threading.Lock] = {}
        self._lock = threading.Lock()

    def instance(self, derived: Derived, session: str | None, build: Callable[[], Any]) -> Any:
        """The instance of a class file for this session; `build` makes a new one."""
        if derived.scope != "run":
            return build()
        key = (session, derived.path)
        with self._lock:
            if key in self._kept:
                return self._kept[key]
            lock = self._building.setdefault(key, threading.Lock())
        with lock:  # one build per key, without holding up other files or sessions
            with self._lock:
                if key in self._kept:
                    return self._kept[key]
            made = build()
            with self._lock:
                self._kept[key] = made
            return made

    def drop_files(self, paths: list[str]) -> None:
        with self._lock:
            for key in [key for key in self._kept if key[1] in paths]:
                del self._kept[key]
            for key in [key for key in self._building if key[1] in paths]:
                del self._building[key]
