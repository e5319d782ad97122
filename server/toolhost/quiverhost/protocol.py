"""JSON-RPC 2.0, one message per line, over a pair of byte streams (MCP's stdio
transport). Requests can go both ways: the host answers the client's, and can
send its own and wait for the reply (what ctx.ask will use).
"""

from __future__ import annotations

import itertools
import json
import sys
import threading
import traceback
from typing import Any, BinaryIO, Callable

from .errors import exception_text

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

NO_REPLY = object()  # a handler's answer for a request that must not be answered (cancelled)


class RpcError(Exception):
    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code, self.message, self.data = code, message, data

    def as_json(self) -> dict:
        error = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error


Handler = Callable[[str, dict, Any], Any]


class Connection:
    def __init__(self, reader: BinaryIO, writer: BinaryIO) -> None:
        self._reader, self._writer = reader, writer
        self._write_lock = threading.Lock()
        self._pending: dict[str, tuple[threading.Event, dict]] = {}
        self._ids = itertools.count(1)
        self._answering: set[threading.Thread] = set()
        self._answering_lock = threading.Lock()
        self._ended = False
        self.closed = threading.Event()

    def send(self, message: dict) -> None:
        """Write one message; a TypeError if it holds something JSON cannot carry."""
        text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
        # "replace": a lone surrogate (from a badly decoded file) must not stop the line.
        data = (text + "\n").encode("utf-8", "replace")
        with self._write_lock:  # calls answer from many threads; lines must not interleave
            try:
                self._writer.write(data)
                self._writer.flush()
            except (OSError, ValueError):
                self.closed.set()

    def notify(self, method: str, params: dict | None = None) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def request(self, method: str, params: dict | None = None,
                timeout: float | None = None) -> Any:
        """Ask the client something and wait for its answer."""
        request_id = f"host-{next(self._ids)}"
        arrived, box = threading.Event(), {}
        self._pending[request_id] = (arrived, box)
        try:
            if self._ended:
                raise ConnectionError(f"the client has closed the connection; {method} cannot be asked")
            message = {"jsonrpc": "2.0", "id": request_id, "method": method}
            if params is not None:
                message["params"] = params
            self.send(message)
            if not arrived.wait(timeout):
                raise TimeoutError(f"the client did not answer {method} within {timeout:g} s")
            if "closed" in box:
                raise ConnectionError(f"the client closed the connection before answering {method}")
            if "error" in box:
                error = box["error"] if isinstance(box["error"], dict) else {}
                raise RpcError(error.get("code", INTERNAL_ERROR), error.get("message", "error"),
                               error.get("data"))
            return box.get("result")
        finally:
            self._pending.pop(request_id, None)

    def serve(self, on_request: Handler, on_notification: Callable[[str, dict], None],
              threaded: Callable[[str], bool]) -> None:
        """Read until the client closes its end; `threaded(method)` says which
        requests run on a thread of their own (the ones that may take a while)."""
        for raw in iter(self._reader.readline, b""):
            if not raw.strip():
                continue
            try:
                message = json.loads(raw)
            except (ValueError, UnicodeDecodeError) as exc:
                self.send({"jsonrpc": "2.0", "id": None,
                           "error": {"code": PARSE_ERROR, "message": f"Parse error: {exc}"}})
                continue
            self._route(message, on_request, on_notification, threaded)
        # The client closed its end: nothing it could still answer, but the calls
        # in flight (each bounded) are answered before the host stops.
        self._ended = True
        for arrived, box in list(self._pending.values()):
            box["closed"] = True
            arrived.set()
        with self._answering_lock:
            answering = list(self._answering)
        for thread in answering:
            thread.join()
        self.closed.set()

    def _route(self, message: Any, on_request: Handler,
               on_notification: Callable[[str, dict], None], threaded: Callable[[str], bool]) -> None:
        if not isinstance(message, dict):
            what = "batches are not supported" if isinstance(message, list) else "not an object"
            self._error(None, RpcError(INVALID_REQUEST, f"Invalid Request: {what}; send one "
                                                        "JSON-RPC object per line"))
            return
        method = message.get("method")
        if method is None and "id" in message and ("result" in message or "error" in message):
            waiting = self._pending.get(str(message["id"]))
            if waiting:
                arrived, box = waiting
                box.update({k: message[k] for k in ("result", "error") if k in message})
                arrived.set()
            return
        if not isinstance(method, str):
            self._error(message.get("id"), RpcError(INVALID_REQUEST, "Invalid Request: no method"))
            return
        params = message.get("params", {})
        if "id" not in message:
            if isinstance(params, dict):
                try:
                    on_notification(method, params)
                except Exception:
                    traceback.print_exc(file=sys.stderr)
            return
        if threaded(method):
            thread = threading.Thread(target=self._answer_in_thread,
                                      args=(message["id"], method, params, on_request),
                                      name=f"quiver-rpc-{method}", daemon=True)
            with self._answering_lock:
                self._answering.add(thread)
            thread.start()
        else:
            self._answer(message["id"], method, params, on_request)

    def _answer_in_thread(self, request_id: Any, method: str, params: Any,
                          on_request: Handler) -> None:
        try:
            self._answer(request_id, method, params, on_request)
        finally:
            with self._answering_lock:
                self._answering.discard(threading.current_thread())

    def _answer(self, request_id: Any, method: str, params: Any, on_request: Handler) -> None:
        try:
            if not isinstance(params, dict):
                raise RpcError(INVALID_PARAMS, f"the params of {method} must be an object")
            result = on_request(method, params, request_id)
        except RpcError as exc:
            self._error(request_id, exc)
            return
        except Exception as exc:
            traceback.print_exc(file=sys.stderr)
            self._error(request_id, RpcError(INTERNAL_ERROR, exception_text(exc)))
            return
        if result is NO_REPLY:
            return
        try:
            self.send({"jsonrpc": "2.0", "id": request_id, "result": result})
        except (TypeError, ValueError) as exc:
            self._error(request_id, RpcError(INTERNAL_ERROR, f"the answer to {method} is not JSON "
                                                             f"({exception_text(exc)})"))

    def _error(self, request_id: Any, error: RpcError) -> None:
        self.send({"jsonrpc": "2.0", "id": request_id, "error": error.as_json()})
