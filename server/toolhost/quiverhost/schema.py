"""Type hints to JSON Schema by the fixed table (R-schema-table); anything outside the
table is an error whose sentence says what to write instead. Never guesses.
"""

from __future__ import annotations

import enum
import math
import pathlib
import sys
import types
import typing
from typing import Annotated, Any, Literal, get_args, get_origin

SCALARS = {bool: "boolean", int: "integer", float: "number", str: "string"}
TABLE = "str, int, float, bool, list[X], dict[str, X], Literal[...] or X | None"
NONE = type(None)


class SchemaError(Exception):
    """`problem` continues a subject ("`count` in fetch() ..."); `instead` says
    what to write. The caller joins them into one sentence."""

    def __init__(self, problem: str, instead: str) -> None:
        super().__init__(f"{problem}; {instead}")
        self.problem = problem
        self.instead = instead


def spell(ann: Any) -> str:
    """An annotation as the developer wrote it, without `typing.` noise."""
    if ann is NONE:
        return "None"
    if isinstance(ann, type) and not get_args(ann):
        return ann.__name__
    return repr(ann).replace("typing.", "").replace("pathlib.", "")


def unwrap(ann: Any) -> Any:
    while get_origin(ann) is Annotated:
        ann = get_args(ann)[0]
    return ann


def is_union(ann: Any) -> bool:
    return get_origin(ann) in (typing.Union, types.UnionType)


def split_optional(ann: Any) -> tuple[Any, bool]:
    """`X | None` and `Optional[X]` give (X, True); a plain X gives (X, False)."""
    ann = unwrap(ann)
    if not is_union(ann):
        return ann, False
    members = get_args(ann)
    rest = [member for member in members if member is not NONE]
    if len(rest) == 1:
        return unwrap(rest[0]), len(rest) < len(members)
    raise SchemaError(
        f"is annotated `{spell(ann)}`, a union of {len(rest)} types",
        "a parameter has one type (plus None): pick one, e.g. `str`, or list the "
        "allowed values with Literal[...]")


def is_path(ann: Any) -> bool:
    return isinstance(ann, type) and issubclass(ann, pathlib.PurePath)


def schema_of(ann: Any, whole: Any = None) -> dict:
    """The schema of one annotation; `whole` is the full annotation, for messages."""
    whole = ann if whole is None else whole
    ann = unwrap(ann)
    for scalar, name in SCALARS.items():
        if ann is scalar:
            return {"type": name}
    origin, args = get_origin(ann), get_args(ann)
    if ann in (list, typing.List) or (origin is list and not args):
        raise SchemaError(f"is annotated `{spell(whole)}`, a list that does not say what it holds",
                          "write what it holds, e.g. `list[str]`")
    if origin is list:
        return {"type": "array", "items": schema_of(args[0], whole)}
    if ann in (dict, typing.Dict) or (origin is dict and not args):
        return {"type": "object"}
    if origin is dict:
        if args[0] is not str:
            raise SchemaError(f"is annotated `{spell(whole)}`, whose keys are not str",
                              f"JSON object keys are strings: write `dict[str, {spell(args[1])}]`")
        return {"type": "object", "additionalProperties": schema_of(args[1], whole)}
    if origin is Literal:
        return _enum(args, whole)
    if is_union(ann):
        inner, optional = split_optional(ann)
        if optional:
            return {"anyOf": [schema_of(inner, whole), {"type": "null"}]}
    raise SchemaError(_outside(ann, whole), _instead(ann, origin))


def _enum(values: tuple, whole: Any) -> dict:
    kinds = []
    for value in values:
        if value is not None and type(value) not in SCALARS:
            raise SchemaError(f"is annotated `{spell(whole)}`, whose value {value!r} is not JSON",
                              "list str, int, float or bool values in Literal[...]")
        kinds.append("null" if value is None else SCALARS[type(value)])
    schema: dict = {"enum": list(values)}
    if len(set(kinds)) == 1:
        schema = {"type": kinds[0], **schema}
    return schema


def _outside(ann: Any, whole: Any) -> str:
    if whole is ann or unwrap(whole) is ann:
        return f"is annotated `{spell(ann)}`, which is not in the fixed table of types"
    return f"is annotated `{spell(whole)}`, and `{spell(ann)}` is not in the fixed table of types"


def _instead(ann: Any, origin: Any) -> str:
    base = origin or ann
    if base in (tuple, set, frozenset, typing.Tuple, typing.Set):
        return "write `list[X]` for a sequence of values"
    if ann is Any:
        return f"say what it holds: {TABLE} (or `dict` for an object of anything)"
    if ann is bytes:
        return "write `str` (text, or base64 if it must be bytes)"
    if is_path(ann):
        return "take one `Path` per parameter: only a parameter of its own is confined"
    if isinstance(ann, type) and issubclass(ann, enum.Enum):
        return "write `Literal[...]` of its values"
    if isinstance(ann, type) and ann.__module__.partition(".")[0] in sys.stdlib_module_names:
        return f"write `str` and parse it inside the tool (an ISO date, say), or one of {TABLE}"
    if isinstance(ann, type):
        return f"take its fields as parameters of their own, or a `dict[str, X]`; the table is {TABLE}"
    return f"write one of {TABLE}"


def not_json(value: Any) -> str | None:
    """None when `value` is plain JSON; else the name of the part that is not."""
    if value is None or isinstance(value, (str, int)):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else repr(value)
    if isinstance(value, (list, tuple)):
        return next((bad for item in value if (bad := not_json(item))), None)
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"{type(key).__name__} (as a key)"
            if bad := not_json(item):
                return bad
        return None
    return type(value).__name__
