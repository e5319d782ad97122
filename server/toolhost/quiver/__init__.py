"""What a Quiver tool file imports: the @tool marker, the injected Context, the
Root and Secret settings types, the outcomes a tool can raise, Image, and
open_under/list_under to open a Path argument without following a link.

Stdlib only: tool files import this inside the tool host. Edit it when the
tool file contract (docs/writing-tools.md) gains a word.
"""

from __future__ import annotations

import contextvars
import mimetypes
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ._io import IOHandler
from ._under import Entry, list_under, open_under

__all__ = [
    "Ask", "Call", "CallFailed", "Context", "Entry", "IOHandler", "Image", "Refused", "Root",
    "Secret", "TransientError", "list_under", "note_tool_failure", "note_tool_refusal", "open_under", "tool",
    "Operation", "Tool", "ToolContext", "ToolResult",
]


class Root(str):
    """A Settings field naming the folder every `Path` argument is confined to."""


class Secret(str):
    """A Settings field filled from the secret store; the model never sees it.

    It is the value itself (use it as a str), but its repr is masked so an
    f"{settings!r}" or a traceback does not print it.
    """

    def __repr__(self) -> str:
        return "Secret('***')"


class Refused(Exception):
    """Raise it to decline a call: nothing happened, and the outcome is "refused"."""


class TransientError(Exception):
    """Raise it for a failure worth retrying (a timeout upstream, a 503); the
    studio retries it where the operation's replay policy allows."""


class CallFailed(Exception):
    """A built-in operation called through `ctx.system` failed or timed out;
    the message is what the model would have read."""

    def __init__(self, message: str, outcome: str = "failed") -> None:
        super().__init__(message)
        self.outcome = outcome


@dataclass(frozen=True)
class Call:
    """One call as the call hook (hooks/tools.py) sees it, before it runs."""

    name: str
    arguments: dict
    source: str
    agent: str | None = None
    run: str | None = None

    @property
    def args(self) -> dict:
        return self.arguments


@dataclass(frozen=True)
class Ask:
    """What a call hook returns to have the person approve the call first."""

    reason: str | None = None


@dataclass(frozen=True)
class Image:
    """A picture returned to a vision model, alone or in a list beside text."""

    data: bytes
    mime_type: str = "image/png"

    @classmethod
    def from_file(cls, path: str | Path, mime_type: str | None = None) -> "Image":
        path = Path(path)
        guessed = mime_type or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return cls(path.read_bytes(), guessed)


def tool(fn: Callable | None = None, /, *, title: str | None = None, risk: str | None = None,
         timeout: float | None = None, read_only: bool | None = None,
         destructive: bool | None = None, concurrent: bool | None = None,
         replay: str | None = None, capabilities: list[str] | None = None):
    """Mark a function (or method) as a tool; once one is marked, only marked ones are.

    Usable bare (`@tool`) or with the operation's behaviour
    (`@tool(risk="write", timeout=30)`). The options are checked when the file
    is derived, so a wrong value is an error against the file with its line.
    """
    given = {"title": title, "risk": risk, "timeout": timeout, "read_only": read_only,
             "destructive": destructive, "concurrent": concurrent, "replay": replay,
             "capabilities": capabilities}
    options = {key: value for key, value in given.items() if value is not None}

    def mark(target: Callable) -> Callable:
        target.__quiver_tool__ = options
        return target

    if fn is None:
        return mark
    if callable(fn):
        return mark(fn)
    raise TypeError("write @tool or @tool(title=..., risk=...); options are keywords")


def _nowhere(text: str) -> None:
    """Progress of a call that asked for none."""


def _no_studio(method: str, params: dict) -> Any:
    raise LookupError("ctx.ask and ctx.system work only inside a call")


class _Witness:
    """What a call says about itself besides its result (R-module-witness),
    and its lines back to whoever made it: progress, cancellation, the studio."""

    def __init__(self, progress: Callable[[str], None] = _nowhere,
                 cancelled: Callable[[], bool] = lambda: False,
                 studio: Callable[[str, dict], Any] = _no_studio,
                 idempotency_key: str | None = None) -> None:
        self.outcome: str | None = None
        self.idempotency_key = idempotency_key
        self.reason: str | None = None
        self.progress = progress
        self.cancelled = cancelled
        self.studio = studio


_CURRENT: contextvars.ContextVar[_Witness | None] = contextvars.ContextVar("quiver_call",
                                                                         default=None)


class Context:
    """What the host hands a tool: its call id, working directory, progress,
    the other files of the tree, the studio's built-in sources and the person.
    Built by the host, never by a tool.

    An instance kept for a whole run holds the Context of the call that made
    it; progress, cancelled, ask and system still speak for the call running
    now, so a kept Context never talks to a call that has finished."""

    def __init__(self, *, call_id: str, workdir: str, session: str | None, file: str,
                 tool: Callable[[str], Any], witness: _Witness) -> None:
        self.call_id = call_id
        self.workdir = workdir
        self.session = session
        self.file = file
        self._tool = tool
        self._witness = witness

    def _call(self) -> _Witness:
        return _CURRENT.get() or self._witness

    def progress(self, text: str) -> None:
        """Send one progress line to whoever made the call (if it asked for progress)."""
        self._call().progress(str(text))

    def tool(self, name: str) -> Any:
        """The instance (or module, for a file of functions) of another file of
        this tree: the very one this session is using."""
        return self._tool(name)

    @property
    def idempotency_key(self) -> str | None:
        """The same for every time the studio dispatches this one call of a run,
        again after a restart (R-journal-idempotent): a tool whose replay is
        "idempotent" passes it to the service it changes, or keeps it, so the
        effect happens once. None outside a run."""
        return self._call().idempotency_key

    @property
    def cancelled(self) -> bool:
        """True once the caller gave up on this call; a long loop may stop early."""
        return self._call().cancelled()

    def ask(self, question: str, choices: list[str] | tuple[str, ...] = ()) -> str | None:
        """Ask the person running the agent and wait for the reply (no time limit;
        the call's own bound stops while it waits). None when nobody answers:
        carry on with your best reading and say so."""
        if not isinstance(question, str) or not question.strip():
            raise ValueError("ctx.ask needs a question: a sentence the person can answer")
        picked = [str(choice) for choice in choices]
        reply = self._call().studio("quiver/ask", {"question": question, "choices": picked})
        answer = reply.get("answer") if isinstance(reply, dict) else None
        return answer if isinstance(answer, str) else None

    @property
    def io(self) -> IOHandler:
        """The person's decisions on the call's card: ask, plan, shell and
        write approvals (docs/rules.md, "Asking the person from a tool")."""
        return IOHandler(lambda: self._call().studio)

    @property
    def system(self) -> "_System":
        """The studio's built-in sources, called back through the studio under
        the agent's permissions: ctx.system.filesystem.read_file(path="a.txt")."""
        return _System(self)


class _System:
    def __init__(self, ctx: Context) -> None:
        self._ctx = ctx

    def __getattr__(self, source: str) -> "_Source":
        if source.startswith("_"):
            raise AttributeError(source)
        return _Source(self._ctx, source)


class _Source:
    def __init__(self, ctx: Context, source: str) -> None:
        self._ctx, self._source = ctx, source

    def __getattr__(self, operation: str) -> Callable[..., Any]:
        if operation.startswith("_"):
            raise AttributeError(operation)

        def call(*args: Any, **arguments: Any) -> Any:
            if args:
                raise TypeError(f"call ctx.system.{self._source}.{operation} with keyword "
                                "arguments, named as the operation's parameters")
            reply = self._ctx._call().studio("quiver/system", {
                "source": self._source, "operation": operation, "arguments": arguments})
            return _outcome(reply, f"{self._source}.{operation}")
        call.__name__ = operation
        return call


def _outcome(reply: Any, name: str) -> str:
    """A built-in's answer as a tool sees it: the text, or the exception that says why not."""
    if not isinstance(reply, dict):
        raise CallFailed(f"ctx.system.{name} had no answer from the studio")
    text = str(reply.get("text", ""))
    outcome = reply.get("outcome")
    if outcome == "ok":
        return text
    if outcome == "refused":
        raise Refused(text)
    if outcome == "transient":
        raise TransientError(text)
    raise CallFailed(text, outcome if isinstance(outcome, str) else "failed")


def note_tool_refusal(ctx: Context) -> None:
    """R-module-witness: the string this call returns is a refusal (nothing happened)."""
    ctx._call().outcome = "refused"


def note_tool_failure(reason: str) -> None:
    """R-module-witness: the string this call returns reports a failure; a no-op
    outside a call."""
    witness = _CURRENT.get()
    if witness is not None:
        witness.outcome = "failed"
        witness.reason = str(reason)


# Last: the class shape builds on Context and Image above (docs/rules.md, Tool classes).
from ._tool import Operation, Tool, ToolContext, ToolResult  # noqa: E402
