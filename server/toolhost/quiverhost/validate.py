"""Checking a JSON value against the schemas this host derives (the fixed
table's subset), so a wrong argument or setting answers one sentence naming
the field, instead of a TypeError from deep inside the tool.
"""

from __future__ import annotations

from typing import Any

_JSON_NAMES = {"string": "a string", "integer": "an integer", "number": "a number",
               "boolean": "true or false", "array": "a list", "object": "an object",
               "null": "null"}


def kind_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _fits(expected: str, value: Any) -> bool:
    actual = kind_of(value)
    return actual == expected or (expected == "number" and actual == "integer")


def mismatch(schema: dict, value: Any, where: str) -> str | None:
    """None when `value` fits `schema`; else a sentence about `where` (e.g. "`count`")."""
    if "anyOf" in schema:
        problems = [mismatch(option, value, where) for option in schema["anyOf"]]
        if any(problem is None for problem in problems):
            return None
        return problems[0]
    if "enum" in schema:
        same = any(v == value and kind_of(v) == kind_of(value) for v in schema["enum"])
        if not same:
            allowed = ", ".join(repr(v) for v in schema["enum"])
            return f"{where} must be one of {allowed}, not {value!r}"
        return None
    expected = schema.get("type")
    if expected and not _fits(expected, value):
        actual = kind_of(value)
        return (f"{where} must be {_JSON_NAMES.get(expected, expected)}, "
                f"not {_JSON_NAMES.get(actual, actual)}")
    if expected == "array" and "items" in schema:
        for index, item in enumerate(value):
            problem = mismatch(schema["items"], item, f"{where.rstrip('`')}[{index}]`")
            if problem:
                return problem
    if expected == "object" and isinstance(schema.get("additionalProperties"), dict):
        for key, item in value.items():
            problem = mismatch(schema["additionalProperties"], item, f"{where.rstrip('`')}.{key}`")
            if problem:
                return problem
    return None
