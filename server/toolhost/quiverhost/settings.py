"""A file's `Settings` class: the JSON Schema a builder fills (settings_schema,
R-settings-model), and the instance a call gets from
`_meta["quiver/settings"]`: never from the model's arguments, never from the
environment.
"""

from __future__ import annotations

import copy
import typing
from dataclasses import dataclass
from typing import Any, Callable

from quiver import Root, Secret

from . import docstrings
from .schema import SchemaError, not_json, schema_of, split_optional
from .validate import mismatch

MISSING = object()


class SettingsError(Exception):
    """A call's settings cannot be built; the message says what to fill."""


@dataclass
class Field:
    name: str
    schema: dict
    default: Any
    optional: bool
    kind: str  # "plain" | "root" | "secret"


@dataclass
class SettingsModel:
    cls: type
    fields: list[Field]
    root: str | None
    schema: dict

    @property
    def secrets(self) -> list[str]:
        return [f.name for f in self.fields if f.kind == "secret"]


def derive_settings(namespace: dict, line_of: Callable[[str], int],
                    field_line: Callable[[str, str], int]) -> tuple[SettingsModel | None, list]:
    """The model of the file's Settings class (None without one) and its errors."""
    cls = namespace.get("Settings")
    if cls is None:
        return None, []
    if not isinstance(cls, type):
        return None, [(line_of("Settings"), "Settings is not a class; write `class Settings:` "
                                            "with one annotated field per setting")]
    errors: list[tuple[int, str]] = []
    try:
        hints = typing.get_type_hints(cls, globalns=namespace, include_extras=True)
    except Exception as exc:  # an unresolvable hint: report it, derive nothing more
        return None, [(line_of("Settings"), f"the type hints of Settings cannot be resolved "
                                            f"({type(exc).__name__}: {exc}); import the names they use")]
    described = docstrings.parse(cls.__doc__).attributes
    help_text = namespace.get("CREDENTIAL_HELP")
    fields: list[Field] = []
    for name, ann in hints.items():
        if name.startswith("_") or typing.get_origin(ann) is typing.ClassVar:
            continue
        line = field_line("Settings", name)
        try:
            field, problem = _field(cls, name, ann, help_text)
        except SchemaError as exc:
            errors.append((line, f"the setting `{name}` {exc.problem}; {exc.instead}"))
            continue
        if problem:
            errors.append((line, problem))
        if name in described:
            field.schema["description"] = described[name]
        fields.append(field)
    roots = [f.name for f in fields if f.kind == "root"]
    if len(roots) > 1:
        errors.append((field_line("Settings", roots[1]),
                       f"Settings has {len(roots)} Root fields ({', '.join(roots)}); path arguments "
                       "are confined to one folder, so keep one Root"))
    schema = {
        "type": "object",
        "properties": {f.name: f.schema for f in fields},
        "required": [f.name for f in fields if f.default is MISSING and not f.optional],
    }
    return SettingsModel(cls, fields, roots[0] if roots else None, schema), errors


def _field(cls: type, name: str, ann: Any, help_text: Any) -> tuple[Field, str | None]:
    inner, optional = split_optional(ann)
    if inner is Root:
        kind, schema = "root", {"type": "string", "x-quiver-kind": "root"}
    elif inner is Secret:
        kind, schema = "secret", {"type": "string", "writeOnly": True, "x-quiver-kind": "secret"}
        if isinstance(help_text, str):
            schema["x-quiver-credential-help"] = help_text
    else:
        kind, schema = "plain", schema_of(inner, ann)
    default = getattr(cls, name, MISSING)
    problem = None
    if default is not MISSING:
        bad = not_json(default)
        if bad:
            problem = (f"the default of the setting `{name}` is not JSON ({bad} is not "
                       "serialisable); give a str, int, float, bool, None, list or dict default "
                       "(or none at all)")
            default = MISSING
        else:
            schema["default"] = default
    return Field(name, schema, default, optional, kind), problem


def build_settings(model: SettingsModel, values: Any, file: str) -> Any:
    """The Settings instance for one call: `values` merged over the defaults."""
    if values is None:
        values = {}
    if not isinstance(values, dict):
        raise SettingsError(f"the settings of {file} must be an object of field names to values")
    instance = model.cls.__new__(model.cls)
    for field in model.fields:
        if field.name in values:
            value = values[field.name]
        elif field.default is not MISSING:
            value = copy.deepcopy(field.default)
        elif field.optional:
            value = None
        else:
            raise SettingsError(f"the setting `{field.name}` of {file} is required and was not "
                                "given; fill it in the agent's settings for this source")
        if value is not None:
            schema = {k: v for k, v in field.schema.items() if k != "default"}
            problem = mismatch(schema, value, f"the setting `{field.name}` of {file}")
            if problem:
                raise SettingsError(problem)
            if field.kind == "root":
                value = Root(value)
            elif field.kind == "secret":
                value = Secret(value)
        object.__setattr__(instance, field.name, value)
    return instance
