"""The call hook (R-perm-hook, R-perm-hook-fails-closed): the studio sends the hook's source with each call
it governs, and this compiles it once per text, calls its `check(call)` with a
bound, and turns the answer into allow, ask, refuse or none.

The studio, not the host, reads hooks/tools.py: the file sits beside the tree,
outside what the sandbox lets a tool write, so a tool cannot rewrite the rule
that judges it. A hook that cannot decide (a syntax error, an exception, a
wrong answer, no answer in time) refuses: a broken rule must not open the door.
"""

from __future__ import annotations

import hashlib
import threading
import types
from typing import Any

import quiver

from .bounded import run_bounded
from .errors import exception_text

HOOK_PATH = "hooks/tools.py"
HOOK_SECONDS = 10.0
WHAT_TO_RETURN = ('return None (the agent\'s permission decides), "allow", "ask" or '
                  'quiver.Ask("why"), or raise quiver.Refused("why")')


class HookError(Exception):
    """The hook could not decide; its text goes to the model as the refusal."""


class Hooks:
    def __init__(self, seconds: float = HOOK_SECONDS) -> None:
        self.seconds = seconds
        self._lock = threading.Lock()
        self._compiled: dict[str, Any] = {}  # sha256 of the source -> check, or the HookError

    def _check(self, source: str) -> Any:
        digest = hashlib.sha256(source.encode("utf-8", "replace")).hexdigest()
        with self._lock:
            found = self._compiled.get(digest)
        if found is not None:
            return found
        module = types.ModuleType("quiver_hooks")
        module.__file__ = HOOK_PATH
        try:
            exec(compile(source, HOOK_PATH, "exec"), module.__dict__)
            check = module.__dict__.get("check")
            if not callable(check):
                raise HookError(f"{HOOK_PATH} has no function check(call); define one that "
                                f"takes the call and {WHAT_TO_RETURN}")
            found = check
        except HookError as exc:
            found = exc
        except BaseException as exc:  # SystemExit in a module body must not end the host
            found = HookError(f"{HOOK_PATH} could not be loaded: {exception_text(exc)}")
        with self._lock:
            self._compiled = {digest: found}  # one hook per tree: the newest text only
        return found

    def decide(self, source: str, call: dict) -> dict:
        """{decision: allow | ask | refuse | none, reason}; `error` when the hook itself failed."""
        try:
            check = self._check(source)
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
            return {"decision": "refuse", "reason": str(exc), "error": True}


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
