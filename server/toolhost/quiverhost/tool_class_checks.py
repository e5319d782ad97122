"""The checks of a Tool class's declarations that need no input model
(R-tool-class-mistakes): its name, title, description, runtime, capabilities,
call(), and an Operation's own fields. Each answers a sentence saying what to
write instead, or None.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

from quiver import Operation, Tool

from .behaviour import OPTION_CHECKS

# The studio's closed vocabulary (server/operations/capabilities.ts; a test keeps the two equal).
CAPABILITIES = (
    "file.read", "file.list", "file.search", "file.write", "file.delete", "file.export",
    "shell.exec", "code.exec", "web.fetch", "memory.read", "memory.write", "plan.read",
    "plan.write", "user.ask", "db.query", "db.write", "message.send", "ticket.read",
    "ticket.write", "time.read",
)
RUNTIMES = ("in_process", "hosted")
KEY = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
PER_CALL = ("is_read_only", "is_concurrency_safe", "is_destructive")


def snake(name: str) -> str:
    words = re.sub(r"(?<!^)(?=[A-Z])", "_", name.removesuffix("Tool") or name).lower()
    return words or "my_tool"


def looks_like_tool(cls: type) -> bool:
    """A class written as a Tool that does not subclass quiver.Tool (a wrong base)."""
    return (not issubclass(cls, Tool) and inspect.isfunction(vars(cls).get("call"))
            and any(attr in vars(cls) for attr in ("input_model", "operations")))


def name_problem(cls: type, name: Any) -> str | None:
    if name is None:
        return (f'{cls.__name__} has no name; write name = "{snake(cls.__name__)}" in it: the name '
                "is the tool's identity, which agents and approvals refer to, so keep it stable "
                f"(a base for other Tool classes is private: call it _{cls.__name__})")
    if not isinstance(name, str) or not name:
        return (f"{cls.__name__}.name is {name!r}; write the tool's name as a string, e.g. "
                f'name = "{snake(cls.__name__)}"')
    return None


def text_problem(cls: type, attr: str, value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return None
    what = "what a builder reads" if attr == "title" else "the one sentence the model reads"
    return f"{cls.__name__}.{attr} is {value!r}; write {what} as a string"


def runtime_problem(cls: type, value: Any) -> str | None:
    if value in RUNTIMES:
        return None
    return (f'{cls.__name__}.runtime is {value!r}; write "in_process" (the tool runs in the tool '
            'host, so it reaches localhost) or "hosted" (it calls a service elsewhere, which '
            "cannot reach localhost)")


def capabilities_problem(owner: str, value: Any) -> str | None:
    if not isinstance(value, (set, frozenset, list, tuple)) or not all(
            isinstance(tag, str) for tag in value):
        return f'{owner}.capabilities is {value!r}; write a frozenset of tags, e.g. frozenset({{"db.query"}})'
    unknown = sorted(tag for tag in value if tag not in CAPABILITIES)
    if unknown:
        return (f'{owner}.capabilities has "{unknown[0]}", which is not in the studio\'s '
                f"vocabulary, so no need would ever find it; use one of {', '.join(CAPABILITIES)}")
    return None


def call_problem(cls: type) -> str | None:
    call = getattr(cls, "call", None)
    if call is Tool.call:
        return (f"{cls.__name__} does not define call(); write `async def call(self, args, ctx) -> "
                "ToolResult` returning ToolResult.ok(text) or ToolResult.error(text)")
    if not inspect.isfunction(call):
        return f"{cls.__name__}.call is not a method; write `async def call(self, args, ctx)`"
    params = list(inspect.signature(call).parameters.values())[1:]
    if len(params) != 2 or any(p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                               for p in params):
        return (f"{cls.__name__}.call takes ({', '.join(p.name for p in params)}) besides self; the "
                "host passes two, the arguments and the context: write `async def call(self, "
                "args, ctx)`")
    return None


def behaviour_choices(owner: str, declared: dict) -> tuple[dict, list[str]]:
    """risk/timeout/replay/read_only/destructive/concurrent as the @tool options check them."""
    chosen, problems = {}, []
    for key, value in declared.items():
        if value is None:
            continue
        problem = OPTION_CHECKS[key](value)
        if problem:
            problems.append(f"{owner}.{key} is {value!r}; {problem}")
        else:
            chosen[key] = value
    return chosen, problems


def operation_problem(cls: type, key: Any, value: Any) -> str | None:
    name = cls.__name__
    if not isinstance(key, str) or not KEY.match(key) or "__" in key:
        return (f"{name}.operations has the key {key!r}; an operation's key becomes part of its tool "
                "name (<name>__<key>): use letters, digits and single underscores, e.g. \"query\"")
    if not isinstance(value, Operation):
        return (f'{name}.operations["{key}"] is a {type(value).__name__}; write Operation(title=..., '
                "description=..., input_model=...) from quiver")
    for attr in ("title", "description"):
        if not isinstance(getattr(value, attr), str):
            return (f'{name}.operations["{key}"].{attr} is {getattr(value, attr)!r}; write it as a '
                    "string")
    return None


def operations_problem(cls: type, operations: Any) -> str | None:
    if operations is None:
        return None
    if not isinstance(operations, dict) or not operations:
        return (f"{cls.__name__}.operations is {operations!r}; write a dict of keys to Operation(...), "
                '{"query": Operation(title=..., description=..., input_model=...)}, or leave it out '
                "for a tool with one action")
    if cls.__dict__.get("input_model") is not None:
        return (f"{cls.__name__} has both input_model and operations; each operation carries its own "
                "input_model: move it into the operations that take it")
    return None
