"""What a Quiver tool file imports: the @tool marker, the injected Context, the
Root and Secret settings types, the outcomes a tool can raise, and Image.

Stdlib only: tool files import this inside the tool host. Edit it when the
tool file contract (docs/writing-tools.md) gains a word.
"""

from __future__ import annotations

import contextvars
import mimetypes
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

__all__ = [
    "Context", "Image", "Refused", "Root", "Secret", "TransientError", "tool",
    "note_tool_failure", "note_tool_refusal",
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


class _Witness:
    """What a call says about itself besides its result (seed 001's witnesses)."""

    def __init__(self) -> None:
        self.outcome: str | None = None
        self.reason: str | None = None


_CURRENT: contextvars.ContextVar[_Witness | None] = contextvars.ContextVar("quiver_call",
                                                                         default=None)


class Context:
    """What the host hands a tool: its call id, working directory, progress,
    and the other files of the tree. Built by the host, never by a tool."""

    def __init__(self, *, call_id: str, workdir: str, session: str | None, file: str,
                 progress: Callable[[str], None], tool: Callable[[str], Any],
                 witness: _Witness, cancelled: Callable[[], bool]) -> None:
        self.call_id = call_id
        self.workdir = workdir
        self.session = session
        self.file = file
        self._progress = progress
        self._tool = tool
        self._witness = witness
        self._cancelled = cancelled

    def progress(self, text: str) -> None:
        """Send one progress line to whoever made the call (if it asked for progress)."""
        self._progress(str(text))

    def tool(self, name: str) -> Any:
        """The instance (or module, for a file of functions) of another file of
        this tree: the very one this session is using."""
        return self._tool(name)

    @property
    def cancelled(self) -> bool:
        """True once the caller gave up on this call; a long loop may stop early."""
        return self._cancelled()

    def ask(self, question: str, choices: list[str] | tuple[str, ...] = ()) -> str | None:
        raise NotImplementedError(
            "ctx.ask is not available in this tool host yet; say what you need in the "
            "result instead, and the model will ask the user")

    @property
    def system(self) -> Any:
        raise NotImplementedError(
            "ctx.system is not available in this tool host yet; import the function "
            "you need from the tree, or let the model call the built-in source itself")


def note_tool_refusal(ctx: Context) -> None:
    """Seed 001: the string this call returns is a refusal (nothing happened)."""
    ctx._witness.outcome = "refused"


def note_tool_failure(reason: str) -> None:
    """Seed 001: the string this call returns reports a failure; a no-op outside a call."""
    witness = _CURRENT.get()
    if witness is not None:
        witness.outcome = "failed"
        witness.reason = str(reason)
