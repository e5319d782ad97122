"""The class shape of a tool file (docs/rules.md, Tool classes): subclass Tool,
declare an input model or a table of operations, and implement call()
returning a ToolResult. The host derives each subclass into one tool, or one
tool per operation (quiverhost/tool_class.py), and runs it (tool_class_run.py).

Stdlib only, like the rest of quiver. Edit it when the class contract gains a word.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from . import Context, Image


@dataclass(frozen=True)
class Operation:
    """One distinct action of a Tool, offered on its own as `<name>__<key>`,
    with its own arguments, title and behaviour."""

    title: str
    description: str
    input_model: Any = None
    capabilities: frozenset = frozenset()
    read_only: bool = False
    destructive: bool = False
    # None: as read_only says (a read-only operation may run beside others).
    concurrent: bool | None = None
    risk: str | None = None
    timeout: float | None = None
    replay: str | None = None


@dataclass(frozen=True)
class ToolResult:
    """What call() returns: text the model reads, marked as a failure or not,
    with any pictures for a vision model."""

    text: str
    is_error: bool = False
    images: tuple = ()

    def __post_init__(self) -> None:
        if not isinstance(self.text, str):
            raise TypeError(f"a ToolResult's text is what the model reads, a str; got "
                            f"{type(self.text).__name__}: write ToolResult.ok(str(value))")
        for image in self.images:
            if not isinstance(image, Image):
                raise TypeError(f"ToolResult.with_images takes quiver.Image pictures; got "
                                f"{type(image).__name__}: write Image(data, \"image/png\")")

    @classmethod
    def ok(cls, text: str) -> "ToolResult":
        return cls(text)

    @classmethod
    def error(cls, text: str) -> "ToolResult":
        """A failure the model reads and may act on; the call's outcome is "failed"."""
        return cls(text, is_error=True)

    @classmethod
    def with_images(cls, text: str, images: list | tuple) -> "ToolResult":
        return cls(text, images=tuple(images))


class ToolContext(Context):
    """The Context a Tool's call() gets: everything a Context has (workdir,
    progress, cancelled, ask, system, io), plus which operation was called and
    the file's settings. Built by the host, never by a tool."""

    operation: str | None
    settings: Any

    @classmethod
    def _of(cls, ctx: Context, operation: str | None, settings: Any) -> "ToolContext":
        made = cls.__new__(cls)
        made.__dict__.update(ctx.__dict__)
        made.operation = operation
        made.settings = settings
        return made


class Tool:
    """Subclass it once per tool. `name` is the tool's identity (kept stable),
    `title` what a builder reads (reword it freely), `description` the one
    sentence the model reads. Every attribute is checked when the file is
    derived, so a wrong one is an error against the file with its line."""

    title: ClassVar[str | None] = None
    description: ClassVar[str | None] = None
    input_model: ClassVar[Any] = None
    operations: ClassVar[dict | None] = None
    settings_model: ClassVar[Any] = None
    path_inputs: ClassVar[frozenset] = frozenset()
    root_setting: ClassVar[str | None] = None
    secret_inputs: ClassVar[frozenset] = frozenset()
    credential_help: ClassVar[str | None] = None
    capabilities: ClassVar[frozenset] = frozenset()
    runtime: ClassVar[str] = "in_process"
    # A tool without operations declares its behaviour here (an Operation carries its own).
    read_only: ClassVar[bool] = False
    destructive: ClassVar[bool] = False
    concurrent: ClassVar[bool | None] = None
    risk: ClassVar[str | None] = None
    timeout: ClassVar[float | None] = None
    replay: ClassVar[str | None] = None

    # The key of the operation being called (None for a tool without operations); also ctx.operation.
    operation: str | None = None

    def _declared(self) -> Any:
        table = type(self).operations or {}
        return table.get(self.operation, self)

    def is_read_only(self, args: Any) -> bool:
        return bool(self._declared().read_only)

    def is_concurrency_safe(self, args: Any) -> bool:
        declared = getattr(self._declared(), "concurrent", None)
        return self.is_read_only(args) if declared is None else bool(declared)

    def is_destructive(self, args: Any) -> bool:
        return bool(self._declared().destructive)

    def progress_message(self, args: Any) -> str | None:
        """A line shown when the call starts ("Reading README.md..."); None for none."""
        return None

    def check_secret(self, name: str, value: str) -> str | None:
        """None when the secret setting `name` is usable; else a sentence saying why not."""
        return None

    async def call(self, args: Any, ctx: ToolContext) -> ToolResult:
        raise NotImplementedError(f"{type(self).__name__} does not define call()")
