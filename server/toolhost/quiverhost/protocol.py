"""JSON-RPC 2.0, one message per line, over a pair of byte streams (MCP's stdio
transport). Requests can go both ways: the host answers the client's, and can
send its own and wait for the reply (what ctx.ask will use). A request is
answered on the thread that read it (turns.py), once (Reply).
"""

from __future__ import annotations

import contextvars
import itertools
import json
import sys
import threading
import traceback
from typing import Any, BinaryIO, Callable

from .errors import exception_text
from .turns import Turns

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

NO_REPLY = object()  # a handler's answer for a request that must not be answered (cancelled)
# Built once: json.dumps with options builds a new encoder on every message.
_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


class RpcError(Exception):
    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code, self.message, self.data = code, message, data

    def as_json(self) -> dict:
        error = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error


class Reply:
    """The one answer to one request: its handler's return value, unless an
    answer was given earlier from another thread (a call past its bound, a call
    the client cancelled), in which case the later one is dropped."""

    __slots__ = ("id", "method", "answered", "_connection")

    def __init__(self, connection: "Connection", request_id: Any, method: str) -> None:
        self.id, self.method, self._connection = request_id, method, connection
        self.answered = False

    def result(self, result: Any) -> bool:
        """Answer `result`; False if the request was answered already."""
        return self._connection._settle(self, {"jsonrpc": "2.0", "id": self.id, "result": result})

    def error(self, error: RpcError) -> bool:
        return self._connection._settle(self, {"jsonrpc": "2.0", "id": self.id,
                                               "error": error.as_json()})

    def nothing(self) -> bool:
        """Settle the request without answering it (the client cancelled it)."""
        return self._connection._settle(self, None)


Handler = Callable[[str, dict, Reply], Any]


class Connection:
    def __init__(self, reader: BinaryIO, writer: BinaryIO) -> None:
        self._reader, self._writer = reader, writer
        self._turns = Turns()
        self._write_lock = threading.Lock()
        # Requests read and not yet settled; at the end of input the host waits
        # for these, not for the threads that ran them (one may be stuck past its bound).
        self._unanswered = 0
        self._all_answered = threading.Condition(self._write_lock)
        self._pending: dict[str, tuple[threading.Event, dict]] = {}
        self._ids = itertools.count(1)
        self._ended = False
        self.closed = threading.Event()

    def send(self, message: dict) -> None:
        """Write one message; a TypeError if it holds something JSON cannot carry."""
        data = _encoded(message)
        with self._write_lock:  # calls answer from many threads; lines must not interleave
            self._write(data)

    def _write(self, data: bytes) -> None:
        try:
            self._writer.write(data)
            self._writer.flush()
        except (OSError, ValueError):
            self.closed.set()

    def _settle(self, reply: Reply, message: dict | None) -> bool:
        data = None
        if message is not None:
            try:
                data = _encoded(message)
            except (TypeError, ValueError) as exc:
                data = _encoded({"jsonrpc": "2.0", "id": reply.id, "error": {
                    "code": INTERNAL_ERROR,
                    "message": f"the answer to {reply.method} is not JSON ({exception_text(exc)})"}})
        with self._write_lock:
            if reply.answered:
                return False
            reply.answered = True
            if data is not None:
                self._write(data)
            self._unanswered -= 1
            if self._unanswered == 0 and self._ended:
                self._all_answered.notify_all()
        return True

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
            self._turns.pass_kept()  # the answer must be read while this waits
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
              threaded: Callable[[str], bool],
              quick: Callable[[str, dict], bool] = lambda method, params: False) -> None:
        """Read until the client closes its end; `threaded(method)` says which
        requests may take a while: the thread that reads one passes reading on
        to another (turns.py) and answers it itself, at once, or only once it
        takes long when `quick(method, params)` says it usually does not."""
        self._turns.run(lambda: self._read_one(on_request, on_notification, threaded, quick))
        # The client closed its end: nothing it could still answer, but the calls
        # in flight (each bounded) are answered before the host stops.
        with self._write_lock:
            self._ended = True
        for arrived, box in list(self._pending.values()):
            box["closed"] = True
            arrived.set()
        with self._all_answered:
            self._all_answered.wait_for(lambda: self._unanswered == 0)
        self.closed.set()

    def _read_one(self, on_request: Handler, on_notification: Callable[[str, dict], None],
                  threaded: Callable[[str], bool], quick: Callable[[str, dict], bool]) -> bool:
        """Read and route one line; False at the end of the input."""
        try:
            raw = self._reader.readline()
        except (OSError, ValueError):  # the stream broke or was closed under us
            return False
        if not raw:
            return False
        if raw.strip():
            try:
                message = json.loads(raw)
            except (ValueError, UnicodeDecodeError) as exc:
                self.send({"jsonrpc": "2.0", "id": None,
                           "error": {"code": PARSE_ERROR, "message": f"Parse error: {exc}"}})
                return True
            self._route(message, on_request, on_notification, threaded, quick)
        return True

    def _route(self, message: Any, on_request: Handler,
               on_notification: Callable[[str, dict], None], threaded: Callable[[str], bool],
               quick: Callable[[str, dict], bool]) -> None:
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
        reply = Reply(self, message["id"], method)
        with self._write_lock:
            self._unanswered += 1
        if threaded(method):
            kept = isinstance(params, dict) and quick(method, params)
            if kept:
                self._turns.keep()  # passed on only if it takes long
            else:
                self._turns.pass_on()  # reading goes on elsewhere; this thread answers
            try:
                # In a fresh context, as on a thread of its own: a context variable one
                # call sets (decimal's precision, say) must not be seen by the next.
                contextvars.Context().run(self._answer, reply, params, on_request)
            finally:
                if kept:
                    self._turns.kept()
        else:
            self._answer(reply, params, on_request)

    def _answer(self, reply: Reply, params: Any, on_request: Handler) -> None:
        try:
            if not isinstance(params, dict):
                raise RpcError(INVALID_PARAMS, f"the params of {reply.method} must be an object")
            result = on_request(reply.method, params, reply)
        except RpcError as exc:
            reply.error(exc)
            return
        except Exception as exc:
            traceback.print_exc(file=sys.stderr)
            reply.error(RpcError(INTERNAL_ERROR, exception_text(exc)))
            return
        if result is NO_REPLY:
            reply.nothing()
        else:
            reply.result(result)

    def _error(self, request_id: Any, error: RpcError) -> None:
        self.send({"jsonrpc": "2.0", "id": request_id, "error": error.as_json()})


def _encoded(message: dict) -> bytes:
    # "replace": a lone surrogate (from a badly decoded file) must not stop the line.
    return (_ENCODE(message) + "\n").encode("utf-8", "replace")
