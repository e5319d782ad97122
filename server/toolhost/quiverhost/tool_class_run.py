"""One call of a Tool class's operation, after calls.py has checked and
confined its arguments and built its settings: the input model's instance
(validation errors answer the model, call() does not run), the progress line,
call() itself and its ToolResult; and the call's own behaviour answers
(is_read_only, is_concurrency_safe, is_destructive) for the loop
(R-tool-class-per-call).
"""

from __future__ import annotations

import inspect
import sys
from typing import Any, Callable

import quiver
from quiver import Refused, ToolContext, ToolResult

from .bounded import run_bounded
from .errors import exception_text
from .input_models import InputModel, ModelInvalid, build
from .protocol import INVALID_PARAMS, RpcError
from .validate import mismatch

# When a behaviour method cannot answer, the answer that asks most of the loop:
# not read-only, run alone, and treated as destructive (so the person may be asked).
CAUTIOUS = {"read_only": False, "concurrent": False, "destructive": True}
METHODS = {"read_only": "is_read_only", "concurrent": "is_concurrency_safe",
           "destructive": "is_destructive"}


BEHAVIOUR_SECONDS = 5.0


def call_behaviour(catalog: Any, params: dict) -> dict:
    """quiver/behaviour: whether this call is read-only, may run beside others
    and is destructive, as the operation says for these very arguments; the
    operation's declared answers when it does not decide per call."""
    name = params.get("name")
    found = catalog.find(name) if isinstance(name, str) else None
    if found is None:
        raise RpcError(INVALID_PARAMS, f"quiver/behaviour needs the `name` of an offered tool; "
                                       f"{name!r} is not one")
    op = found[0]
    declared = {key: op.behaviour[key] for key in METHODS}
    if op.style != "tool" or not op.behaviour.get("per_call"):
        return {**declared, "per_call": False, "problem": None}
    finished = run_bounded(lambda: op.func.answers(params.get("arguments")), BEHAVIOUR_SECONDS,
                           name="quiver-behaviour")
    if not finished.done:
        answers = {**CAUTIOUS, "problem": f"it did not answer within {BEHAVIOUR_SECONDS:g} s"}
    elif finished.error is not None:
        answers = {**CAUTIOUS, "problem": exception_text(finished.error)}
    else:
        answers = finished.value
    merged = {key: declared[key] if answers.get(key) is None else answers[key] for key in METHODS}
    return {**merged, "per_call": True, "problem": answers.get("problem")}


def make_runner(cls: type, key: str | None, name: str, read: InputModel, paths: set[str],
                settings_read: InputModel | None, wants_progress: bool) -> Callable:
    as_text = {f.name for f in read.fields if f.name in paths and not f.is_path}

    def instance() -> Any:
        made = cls()
        made.operation = key
        return made

    def arguments(values: dict) -> Any:
        # A path input declared `str` gets the resolved path as text; a `Path` one, the Path.
        given = {k: str(v) if k in as_text and v is not None else v for k, v in values.items()}
        try:
            return build(read, given)
        except ModelInvalid as exc:
            raise Refused(f"the arguments of {name} do not fit {read.model.__name__}: {exc}; correct "
                          "them and call again") from None

    def run(values: dict, settings: Any, ctx: quiver.Context) -> Any:
        tool = instance()
        args = arguments(values)
        tool_ctx = ToolContext._of(ctx, key, _settings_value(settings_read, settings))
        if wants_progress:
            _say_progress(tool, args, ctx, name)
        value = tool.call(args, tool_ctx)
        if inspect.isawaitable(value):
            return _later(value, name)
        return _result(value, name)

    def answers(raw: Any) -> dict:
        """The call's own answers, from the arguments as the model wrote them."""
        static = {"read_only": None, "concurrent": None, "destructive": None}
        values = _checked(read, raw)
        if values is None:
            return {**static, "problem": "the arguments do not fit the input model"}
        tool = instance()
        try:
            args = arguments(values)
        except Refused as exc:
            return {**static, "problem": str(exc)}
        found: dict[str, Any] = {}
        for answer, method in METHODS.items():
            try:
                value = getattr(tool, method)(args)
            except Exception as exc:  # tool code: its sentence goes with the cautious answer
                found = {**CAUTIOUS, "problem": f"{method}() raised {exception_text(exc)}"}
                break
            if not isinstance(value, bool):
                found = {**CAUTIOUS, "problem": f"{method}() answered {value!r}, not True or False"}
                break
            found[answer] = value
        return found

    run.answers = answers
    return run


async def _later(awaitable: Any, name: str) -> Any:
    return _result(await awaitable, name)


def _result(value: Any, name: str) -> Any:
    """A ToolResult as the host's result path takes it: text, or text beside images."""
    if not isinstance(value, ToolResult):
        raise TypeError(f"call() of {name} returned {type(value).__name__}; return "
                        "ToolResult.ok(text), ToolResult.error(text) or "
                        "ToolResult.with_images(text, images)")
    if value.is_error:
        quiver.note_tool_failure(value.text)
    return [value.text, *value.images] if value.images else value.text


def _say_progress(tool: Any, args: Any, ctx: quiver.Context, name: str) -> None:
    try:
        line = tool.progress_message(args)
    except Exception as exc:  # a broken progress line must not fail the call it announces
        print(f"quiver-toolhost: progress_message() of {name} raised {exception_text(exc)}",
              file=sys.stderr)
        return
    if isinstance(line, str) and line.strip():
        ctx.progress(line)


def _settings_value(read: InputModel | None, holder: Any) -> Any:
    if read is None or holder is None:
        return None
    if read.shape == "typeddict":
        return dict(vars(holder))
    if read.shape == "pydantic":
        return read.model.model_construct(**vars(holder))
    return holder


def _checked(read: InputModel, raw: Any) -> dict | None:
    """The arguments as calls.py would pass them (minus confinement), or None when they do not fit."""
    raw = {} if raw is None else raw
    if not isinstance(raw, dict) or any(k not in read.schema["properties"] for k in raw):
        return None
    values: dict[str, Any] = {}
    for field in read.fields:
        if field.name in raw:
            value = raw[field.name]
            if not (value is None and field.nullable) and mismatch(field.schema, value, field.name):
                return None
            values[field.name] = value
        elif field.required:
            return None
        elif field.fill_none:
            values[field.name] = None
    return values
