"""One function's signature to its input schema (R-schema-table: the type hints
are the schema) and to what a call must inject (the file's Settings, a Context) or
confine (Path parameters). Each parameter it cannot read is an error on its line.
"""

from __future__ import annotations

import inspect
import typing
from dataclasses import dataclass, field
from typing import Any, Callable

from quiver import Context, Root, Secret

from .schema import TABLE, SchemaError, is_path, not_json, schema_of, split_optional

MISSING = inspect.Parameter.empty


@dataclass
class Param:
    name: str
    role: str  # "arg" | "path" | "settings" | "context"
    schema: dict | None = None
    required: bool = False
    nullable: bool = False  # `X | None`: null is a value it takes
    fill_none: bool = False  # `X | None` without a default: the host passes None
    line: int = 0


@dataclass
class Signature:
    params: list[Param] = field(default_factory=list)
    input_schema: dict = field(default_factory=lambda: {"type": "object", "properties": {},
                                                        "required": []})
    errors: list[tuple[int, str]] = field(default_factory=list)

    @property
    def has_paths(self) -> bool:
        return any(p.role == "path" for p in self.params)


def read_signature(fn: Callable, label: str, described: dict[str, str], settings_cls: Any,
                   line_of: Callable[[str | None], int], skip_first: bool = False) -> Signature:
    """`label` names the function in sentences ("fetch()"); `line_of(name)` gives a
    parameter's line, `line_of(None)` the def's."""
    result = Signature()
    try:
        hints = typing.get_type_hints(fn, include_extras=True)
        parameters = list(inspect.signature(fn).parameters.values())
    except Exception as exc:  # a hint naming something undefined, or an odd callable
        result.errors.append((line_of(None), f"the type hints of {label} cannot be resolved "
                                             f"({type(exc).__name__}: {exc}); import the names they "
                                             f"use, or write one of {TABLE}"))
        return result
    if skip_first and parameters:
        parameters = parameters[1:]
    properties, required = result.input_schema["properties"], result.input_schema["required"]
    for parameter in parameters:
        problem = _refused_kind(parameter, label)
        if problem:
            result.errors.append((line_of(parameter.name), problem))
            continue
        name = parameter.name
        if name not in hints:
            result.errors.append((line_of(name), f"`{name}` in {label} has no type hint; write "
                                                 f"`{name}: int` (or str, float, bool, list[X], "
                                                 "dict[str, X], Literal[...], X | None)"))
            continue
        hint = hints[name]
        try:
            inner, optional = split_optional(hint)
        except SchemaError as exc:
            result.errors.append((line_of(name), f"`{name}` in {label} {exc.problem}; {exc.instead}"))
            continue
        if inner is Context or (settings_cls is not None and inner is settings_cls):
            role = "context" if inner is Context else "settings"
            result.params.append(Param(name, role))
            continue
        if inner in (Root, Secret):
            result.errors.append((line_of(name), f"`{name}` in {label} is a {inner.__name__}, which "
                                                 "is a setting, not an argument the model fills; move "
                                                 "it to the file's Settings class"))
            continue
        try:
            schema = {"type": "string"} if is_path(inner) else schema_of(inner, hint)
        except SchemaError as exc:
            result.errors.append((line_of(name), f"`{name}` in {label} {exc.problem}; {exc.instead}"))
            continue
        if name in described:
            schema["description"] = described[name]
        has_default = parameter.default is not MISSING
        if has_default:
            default = str(parameter.default) if is_path(type(parameter.default)) else parameter.default
            bad = not_json(default)
            if bad:
                result.errors.append((line_of(name), f"the default of `{name}` in {label} is not JSON "
                                                     f"({bad} is not serialisable); give a str, int, "
                                                     "float, bool, None, list or dict default (or "
                                                     "none at all)"))
                continue
            schema["default"] = default
        param = Param(name, "path" if is_path(inner) else "arg", schema,
                      required=not has_default and not optional, nullable=optional,
                      fill_none=optional and not has_default, line=line_of(name))
        result.params.append(param)
        properties[name] = schema
        if param.required:
            required.append(name)
    return result


def _refused_kind(parameter: inspect.Parameter, label: str) -> str | None:
    name = parameter.name
    if parameter.kind is inspect.Parameter.POSITIONAL_ONLY:
        return (f"`{name}` in {label} is positional-only (before `/`); the host calls tools with "
                "keyword arguments, so remove the `/`")
    if parameter.kind is inspect.Parameter.VAR_POSITIONAL:
        return (f"{label} takes `*{name}`; the host calls tools with keyword arguments only, so "
                f"name each parameter instead, e.g. `{name}: list[str]`")
    if parameter.kind is inspect.Parameter.VAR_KEYWORD:
        return (f"{label} takes `**{name}`; the host passes only the parameters the schema names, "
                f"so name each one, e.g. `{name}: dict[str, str]`")
    return None
