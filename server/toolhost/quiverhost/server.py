"""The MCP methods of the tool host over one tree: initialize, ping,
tools/list, tools/call, progress and list_changed notifications, and Quiver's
own quiver/catalog, quiver/preview, quiver/check_secret, quiver/hook and
quiver/offered; and the requests a call sends back to the studio (ctx.system,
ctx.ask).
"""

from __future__ import annotations

import itertools
import re
import sys
import threading
import time
import traceback
from typing import Any

from quiver import Secret

from . import VERSION
from .bounded import run_bounded
from .calls import Calls, Control
from .catalog import CheckGate
from .errors import exception_text
from .hooks import Hooks
from .loader import Tree
from .memory import Memory
from .offered import held
from .tool_class_run import call_behaviour
from .protocol import INVALID_PARAMS, METHOD_NOT_FOUND, NO_REPLY, Connection, Reply, RpcError
from .masking import masker

PROTOCOL_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
FILE_NAME = re.compile(r"^[^/\\]+\.py$")
CHECK_SECRET_SECONDS = 10.0
# Requests that run user code, or wait on it: the thread that reads one passes
# reading on to another and answers it itself (turns.py).
THREADED = {"tools/call", "quiver/preview", "quiver/check_secret", "quiver/hook", "quiver/behaviour"}
# A tool whose last call took longer than this passes reading on at once; the
# others' calls keep it unless they take long (turns.py, R-host-reading-turn).
SLOW_CALL_S = 0.001
SLOW_TOOLS_KEPT = 1000  # names remembered as slow, at most


class Host:
    def __init__(self, tree: Tree, connection: Connection, watch_interval: float = 1.0,
                 workdir: str | None = None, soft_memory_mb: int | None = None) -> None:
        self.tree = tree
        self.connection = connection
        self.calls = Calls(tree, workdir, studio=connection.request, notify=connection.notify,
                           memory=Memory(soft_memory_mb))
        self.hooks = Hooks()
        self.gate = CheckGate()
        self.watch_interval = watch_interval
        self.initialized = False
        self._controls: dict[Any, Control] = {}
        self._slow: set[str] = set()
        self.methods = {
            "initialize": self.initialize, "ping": lambda params, _reply: {},
            "tools/list": self.list_tools, "tools/call": self.call_tool,
            "quiver/catalog": self.catalog, "quiver/preview": self.preview,
            "quiver/check_secret": self.check_secret, "quiver/hook": self.hook,
            "quiver/offered": self.offered, "quiver/behaviour": self.behaviour,
        }

    def serve(self) -> None:
        self.tree.refresh()
        if self.watch_interval > 0:
            threading.Thread(target=self._watch, name="quiver-watch", daemon=True).start()
        self.connection.serve(self.handle, self.notice, lambda method: method in THREADED,
                              self._quick)

    def _quick(self, method: str, params: dict) -> bool:
        name = params.get("name")
        return method == "tools/call" and isinstance(name, str) and name not in self._slow

    def refresh(self) -> None:
        """Re-import moved files, drop their instances, and tell the client."""
        changed = self.tree.refresh()
        if changed:
            self.calls.sessions.drop_files(changed)
            if self.initialized:
                self.connection.notify("notifications/tools/list_changed")

    def _watch(self) -> None:
        while not self.connection.closed.wait(self.watch_interval):
            try:
                self.refresh()
            except Exception:
                traceback.print_exc(file=sys.stderr)

    def handle(self, method: str, params: dict, reply: Reply) -> Any:
        handler = self.methods.get(method)
        if handler is None:
            raise RpcError(METHOD_NOT_FOUND, f"Method not found: {method}")
        return handler(params, reply)

    def notice(self, method: str, params: dict) -> None:
        if method == "notifications/initialized":
            self.initialized = True
        elif method == "notifications/cancelled":
            control = self._controls.get(params.get("requestId"))
            if control:
                control.cancel()

    def initialize(self, params: dict, _reply: Reply) -> dict:
        asked = params.get("protocolVersion")
        self.initialized = True
        return {"protocolVersion": asked if asked in PROTOCOL_VERSIONS else PROTOCOL_VERSIONS[0],
                "capabilities": {"tools": {"listChanged": True}},
                "serverInfo": {"name": "quiver-toolhost", "version": VERSION}}

    def list_tools(self, params: dict, _reply: Reply) -> dict:
        self.refresh()
        return {"tools": self.tree.catalog.listing(self.gate)}

    def call_tool(self, params: dict, reply: Reply) -> Any:
        name = params.get("name")
        if not isinstance(name, str):
            raise RpcError(INVALID_PARAMS, "tools/call needs the tool's `name`")
        self.refresh()
        meta = params.get("_meta") if isinstance(params.get("_meta"), dict) else {}
        # The call runs on this thread (the one that read it); a timeout or a
        # cancellation answers early through `reply`, which then drops the late result.
        control = self._controls[reply.id] = Control(
            lambda answer: reply.nothing() if answer is None else reply.result(answer))
        started = time.monotonic()
        try:
            result = self.calls.run(name, params.get("arguments"), meta,
                                    progress=self._progress(meta.get("progressToken")),
                                    control=control)
        finally:
            if self._controls.get(reply.id) is control:  # a stuck call's id may be in use again
                del self._controls[reply.id]
            self._remember_speed(name, time.monotonic() - started)
        return NO_REPLY if result is None else result

    def _remember_speed(self, name: str, seconds: float) -> None:
        if seconds <= SLOW_CALL_S:
            self._slow.discard(name)
        else:
            if len(self._slow) >= SLOW_TOOLS_KEPT:
                self._slow.clear()
            self._slow.add(name)

    def _progress(self, token: Any):
        if token is None:
            return _no_progress
        counter = itertools.count(1)

        def send(text: str) -> None:
            self.connection.notify("notifications/progress", {
                "progressToken": token, "progress": next(counter), "message": text})
        return send

    def catalog(self, params: dict, _reply: Reply) -> dict:
        self.refresh()
        # The studio's catalog answers as tools/list does (R-module-check).
        return {"files": self.tree.catalog.entries(detail=params.get("detail") is True,
                                                   gate=self.gate)}

    def offered(self, params: dict, _reply: Reply) -> dict:
        self.refresh()
        return held(self.tree.catalog, self.gate, params)

    def preview(self, params: dict, _reply: Reply) -> dict:
        path, source = params.get("path"), params.get("source")
        if not isinstance(path, str) or not FILE_NAME.match(path):
            raise RpcError(INVALID_PARAMS, "quiver/preview needs `path`, a file of the tree such as "
                                           '"notes.py" (flat, ending in .py)')
        if not isinstance(source, str):
            raise RpcError(INVALID_PARAMS, "quiver/preview needs `source`, the unsaved text")
        self.refresh()
        # A gate of its own: the buffer's check() is a new function on every preview.
        return self.tree.preview(path, source, detail=params.get("detail") is True,
                                 gate=CheckGate())

    def check_secret(self, params: dict, _reply: Reply) -> dict:
        path, field, value = params.get("path"), params.get("field"), params.get("value")
        if not all(isinstance(v, str) for v in (path, field, value)):
            raise RpcError(INVALID_PARAMS, "quiver/check_secret needs `path`, `field` and `value`, "
                                           "all strings")
        self.refresh()
        derived = self.tree.catalog.file(path)
        if derived is None or derived.module is None:
            raise RpcError(INVALID_PARAMS, f"no loadable file {path} in this tree")
        secrets = derived.settings.secrets if derived.settings else []
        if field not in secrets:
            raise RpcError(INVALID_PARAMS, f"{path} has no Secret setting `{field}`; its secret "
                                           f"settings are: {', '.join(secrets) or 'none'}")
        check = derived.secret_check or vars(derived.module).get("check_secret")
        if not callable(check):
            return {"ok": True, "message": None}
        finished = run_bounded(lambda: check(field, Secret(value)), CHECK_SECRET_SECONDS,
                               name="quiver-check-secret")
        if not finished.done:
            message = f"check_secret did not answer within {CHECK_SECRET_SECONDS:g} s"
        elif finished.error is not None:
            message = exception_text(finished.error)
        else:
            message = None if finished.value is None else str(finished.value)
        if message is None:
            return {"ok": True, "message": None}
        return {"ok": False, "message": masker([value])(message)}


    def hook(self, params: dict, _reply: Reply) -> dict:
        return self.hooks.answer(params)

    def behaviour(self, params: dict, _reply: Reply) -> dict:
        """A Tool class's own answers for one call (R-tool-class-per-call)."""
        self.refresh()
        return call_behaviour(self.tree.catalog, params)


def _no_progress(text: str) -> None:
    """A call that asked for no progress: its lines go nowhere."""
