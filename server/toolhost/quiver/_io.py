"""ctx.io: the decisions a tool asks of the person running the agent, each an
approval card on the call's card in the studio (docs/rules.md, "Asking the
person from a tool").

Each method works from a plain `def` tool (it blocks and returns the answer)
and from an `async def` one (inside a running event loop it returns an
awaitable; `await` it). Edit it when the studio's card for a decision changes.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Generator

__all__ = ["IOHandler"]

Studio = Callable[[str, dict], Any]

# What the studio accepts (server/host/protocol.ts), checked here first so a
# tool author hears the limit as a ValueError rather than as a denial.
_LIMITS = {"question": 10_000, "option": 1_000, "options": 50, "plan": 20_000, "command": 10_000,
           "reason": 2_000, "path": 4_096, "summary": 2_000}
_DECISIONS = ("always", "once", "deny")


class _Awaiting:
    """An IOHandler answer inside a running event loop: awaiting it asks the
    person (on a thread, so the loop goes on). Used without `await` it raises
    rather than reading as truthy, so an unawaited approval never passes for a
    yes (R-tool-io-both-ways)."""

    def __init__(self, method: str, blocking: Callable[[], Any]) -> None:
        self._method = method
        self._blocking = blocking

    def __await__(self) -> Generator[Any, None, Any]:
        import asyncio  # not at the top: most hosts never import it, and it slows every start

        # to_thread copies the context, so the call running now is the one that asks.
        return asyncio.to_thread(self._blocking).__await__()

    def _misused(self, *_: Any) -> Any:
        raise TypeError(f"ctx.io.{self._method}(...) was called inside a running event loop (an "
                        f"async def tool); write `await ctx.io.{self._method}(...)` to get the answer")

    __bool__ = __str__ = __iter__ = __eq__ = __len__ = __getitem__ = _misused
    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"<ctx.io.{self._method} awaiting the person; await it>"


def _both(method: str, blocking: Callable[[], Any]) -> Any:
    """The answer now, or an awaitable of it where an event loop runs in this thread."""
    asyncio = sys.modules.get("asyncio")  # no event loop runs where asyncio was never imported
    try:
        if asyncio is None:
            raise RuntimeError("no running event loop")
        asyncio.get_running_loop()
    except RuntimeError:
        return blocking()
    return _Awaiting(method, blocking)


def _text(value: Any, field: str, method: str, *, empty: bool = False) -> str:
    if not isinstance(value, str) or (not empty and not value.strip()):
        raise ValueError(f"ctx.io.{method} needs `{field}` as text the person can read")
    if len(value) > _LIMITS[field]:
        raise ValueError(f"ctx.io.{method}: `{field}` is {len(value)} characters; keep it to "
                         f"{_LIMITS[field]}")
    return value


class IOHandler:
    """The person running the agent, for a tool that needs their decision.

    Every method shows a card on the call's card and waits, with the call's
    own bound stopped, for the person's answer (R-tool-io-clock). When nobody
    can answer (the run is stopped, nobody can approve in it, the studio went
    away), the answer is the safe one: no reply for `ask`, not approved for
    the rest (R-tool-io-nobody). Outside a run there is nobody to ask, and
    each method raises LookupError, as ctx.ask does.
    """

    def __init__(self, studio: Callable[[], Studio]) -> None:
        self._studio = studio

    def _request(self, params: dict) -> dict | None:
        """The studio's reply, or None when nobody answered."""
        from . import CallFailed  # the package imports this module first
        try:
            reply = self._studio()("quiver/io", params)
        except CallFailed:
            return None
        return reply if isinstance(reply, dict) else None

    def ask(self, question: str, options: list[str] | tuple[str, ...] | None = None) -> Any:
        """Ask a question, with `options` offered as buttons beside a free answer.
        The reply as text; None when nobody answers: go on with your best
        reading and say so."""
        question = _text(question, "question", "ask")
        picked = [_text(str(o), "option", "ask") for o in (options or ())]
        if len(picked) > _LIMITS["options"]:
            raise ValueError(f"ctx.io.ask takes at most {_LIMITS['options']} options")

        def blocking() -> str | None:
            reply = self._request({"kind": "ask", "question": question, "options": picked})
            answer = reply.get("answer") if reply else None
            return answer if isinstance(answer, str) else None
        return _both("ask", blocking)

    def request_plan_approval(self, plan: str) -> Any:
        """Show a plan for approval: (approved, note), the note being what the
        person wrote beside their decision ("" when nothing)."""
        plan = _text(plan, "plan", "request_plan_approval")

        def blocking() -> tuple[bool, str]:
            reply = self._request({"kind": "plan", "plan": plan})
            note = reply.get("note") if reply else None
            return (bool(reply and reply.get("approved") is True),
                    note if isinstance(note, str) else "")
        return _both("request_plan_approval", blocking)

    def request_shell_approval(self, command: str, reason: str) -> Any:
        """Ask to run a shell command, saying why: True when allowed."""
        command = _text(command, "command", "request_shell_approval")
        reason = _text(reason, "reason", "request_shell_approval", empty=True)

        def blocking() -> bool:
            reply = self._request({"kind": "shell", "command": command, "reason": reason})
            return bool(reply and reply.get("approved") is True)
        return _both("request_shell_approval", blocking)

    def request_write_approval(self, path: str, summary: str) -> Any:
        """Ask to write a file: "always" (this path, for the rest of the run;
        later requests for it answer so without asking), "once", or "deny"."""
        path = _text(path, "path", "request_write_approval")
        summary = _text(summary, "summary", "request_write_approval", empty=True)

        def blocking() -> str:
            reply = self._request({"kind": "write", "path": path, "summary": summary})
            decision = reply.get("decision") if reply else None
            return decision if decision in _DECISIONS else "deny"
        return _both("request_write_approval", blocking)
