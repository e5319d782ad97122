"""The call hook (R-perm-hook, R-perm-hook-fails-closed): each call the studio
governs carries the sha256 of the hook's text; the host keeps the text it was
given (compiled) under that hash, calls its `check(call)` with a bound, and
turns the answer into allow, ask, refuse or none. A hash the host does not hold
(a new or restarted host, an edited file) is answered as missing, and the
studio sends the text once with the call, so the text crosses the pipe once per
change, not once per call.

The studio, not the host, reads hooks/tools.py (R-host-hook-outside-tree): the
file sits beside the tree, outside what the sandbox lets a tool write, so a
tool cannot rewrite the rule that judges it. A hook that cannot decide (a
syntax error, an exception, a wrong answer, no answer in time) refuses: a
broken rule must not open the door.
"""

from __future__ import annotations

import hashlib
import re
import threading
import types
from typing import Any

import quiver

from .bounded import run_bounded
from .errors import exception_text
from .protocol import INVALID_PARAMS, RpcError

HOOK_PATH = "hooks/tools.py"
HOOK_SECONDS = 10.0
WHAT_TO_RETURN = ('return None (the agent\'s permission decides), "allow", "ask" or '
                  'quiver.Ask("why"), or raise quiver.Refused("why")')
SHA256 = re.compile(r"^[0-9a-f]{64}$")
PARAMS = ("quiver/hook needs `hash`, the sha256 of hooks/tools.py's text (with `source`, "
          "the text itself, when the host said it was missing), and `call`: "
          "{name, arguments, source, agent, run}")


class HookError(Exception):
    """The hook could not decide; its text goes to the model as the refusal."""


def digest_of(source: str) -> str:
    """The hash a text is kept under: sha256 of its UTF-8 bytes, in hex, as the studio computes it."""
    return hashlib.sha256(source.encode("utf-8", "replace")).hexdigest()


class Hooks:
    def __init__(self, seconds: float = HOOK_SECONDS) -> None:
        self.seconds = seconds
        self._lock = threading.Lock()
        # One hook per tree, so only the newest text is kept: an edit followed by its undo
        # compiles afresh, as any changed file does, rather than bring back the old module.
        self._kept: tuple[str, Any] | None = None  # (sha256, check or the HookError)

    def answer(self, params: dict) -> dict:
        """quiver/hook: the decision, or {missing: hash} when no text is kept under the call's hash."""
        digest, source, call = params.get("hash"), params.get("source"), params.get("call")
        if (not isinstance(digest, str) or not SHA256.match(digest)
                or not isinstance(call, dict) or not isinstance(call.get("name"), str)
                or (source is not None and not isinstance(source, str))):
            raise RpcError(INVALID_PARAMS, PARAMS)
        if source is not None:
            if digest_of(source) != digest:
                return _failed(f"{HOOK_PATH} arrived under a hash that is not its text's sha256; "
                               "the studio and the tool host are out of step")
            return self._decide(self._keep(digest, source), call)
        with self._lock:
            kept = self._kept
        if kept is None or kept[0] != digest:
            return {"missing": digest}
        return self._decide(kept[1], call)

    def _keep(self, digest: str, source: str) -> Any:
        """The text compiled and kept under its hash. The check (or why there is none) is
        returned too, so the call that brought the text is decided by that text even if
        another one arrives meanwhile."""
        with self._lock:
            if self._kept is not None and self._kept[0] == digest:
                return self._kept[1]
        module = types.ModuleType("quiver_hooks")
        module.__file__ = HOOK_PATH
        try:
            exec(compile(source, HOOK_PATH, "exec"), module.__dict__)
            check = module.__dict__.get("check")
            if not callable(check):
                raise HookError(f"{HOOK_PATH} has no function check(call); define one that "
                                f"takes the call and {WHAT_TO_RETURN}")
            found: Any = check
        except HookError as exc:
            found = exc
        except BaseException as exc:  # SystemExit in a module body must not end the host
            found = HookError(f"{HOOK_PATH} could not be loaded: {exception_text(exc)}")
        with self._lock:
            self._kept = (digest, found)
        return found

    def _decide(self, check: Any, call: dict) -> dict:
        """{decision: allow | ask | refuse | none, reason}; `error` when the hook itself failed."""
        try:
            if isinstance(check, HookError):
                raise check
            seen = quiver.Call(name=str(call.get("name", "")), arguments=dict(call.get("arguments") or {}),
                               source=str(call.get("source", "")), agent=call.get("agent"),
                               run=call.get("run"))
            finished = run_bounded(lambda: check(seen), self.seconds, name="quiver-hook")
            if not finished.done:
                raise HookError(f"{HOOK_PATH} did not decide on {seen.name} within "
                                f"{self.seconds:g} s")
            if isinstance(finished.error, quiver.Refused):
                return _refuse(str(finished.error) or None)
            if finished.error is not None:
                raise HookError(f"{HOOK_PATH} failed on {seen.name}: "
                                f"{exception_text(finished.error)}")
            return _reading(finished.value, seen.name)
        except HookError as exc:
            return _failed(str(exc))


def _failed(reason: str) -> dict:
    return {"decision": "refuse", "reason": reason, "error": True}


def _refuse(reason: str | None) -> dict:
    return {"decision": "refuse", "reason": reason}


def _reading(value: Any, name: str) -> dict:
    if value is None:
        return {"decision": "none", "reason": None}
    if value is True or value == "allow":
        return {"decision": "allow", "reason": None}
    if value == "ask":
        return {"decision": "ask", "reason": None}
    if isinstance(value, quiver.Ask):
        return {"decision": "ask", "reason": None if value.reason is None else str(value.reason)}
    if isinstance(value, quiver.Refused):
        return _refuse(str(value) or None)
    if value is False:
        return _refuse(None)
    raise HookError(f"{HOOK_PATH} answered {value!r:.80} for {name}, which is not a decision; "
                    f"{WHAT_TO_RETURN}")
