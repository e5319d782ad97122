"""A Tool's input model (or settings model) to its JSON Schema and back to an
instance (R-tool-class-input-model): a dataclass, a TypedDict or a plain
annotated class by the same fixed table as a function's parameters
(R-schema-table), described by an `Attributes:` docstring; a pydantic
BaseModel through its own model_json_schema(), where pydantic is importable.
"""

from __future__ import annotations

import copy
import dataclasses
import sys
import typing
from dataclasses import dataclass, field
from typing import Any, Callable

from quiver import Context, Root, Secret

from . import docstrings
from .schema import SchemaError, is_path, not_json, schema_of, split_optional

MISSING = dataclasses.MISSING
SHAPES = ("a dataclass, a TypedDict, a class with annotated fields (described in an "
          "`Attributes:` docstring) or a pydantic BaseModel")


_INSTEAD_INPUT = ("the model fills every field of an input model, and a folder or a secret is "
                  "the builder's: declare it in settings_model and name it in root_setting or "
                  "secret_inputs")
_INSTEAD_SETTINGS = ("in a settings_model write `str` and name the field in root_setting (the "
                     "folder) or secret_inputs (a secret)")


class ModelInvalid(Exception):
    """Arguments the schema let through that the model itself refused (a
    pydantic validator, a dataclass's __post_init__): the sentence says which."""


@dataclass
class ModelField:
    name: str
    schema: dict
    required: bool
    nullable: bool
    fill_none: bool
    is_path: bool
    line: int


@dataclass
class InputModel:
    model: Any
    shape: str  # "none" | "dataclass" | "typeddict" | "class" | "pydantic"
    fields: list[ModelField] = field(default_factory=list)
    schema: dict = field(default_factory=lambda: {"type": "object", "properties": {},
                                                  "required": []})
    errors: list[tuple[int, str]] = field(default_factory=list)


def pydantic_base() -> type | None:
    """BaseModel when the tree's environment has pydantic, without importing it otherwise."""
    module = sys.modules.get("pydantic")
    if module is None:
        try:
            import pydantic as module  # noqa: PLC0415 (optional: only a tree's dependency)
        except ImportError:
            return None
    return getattr(module, "BaseModel", None)


def shape_of(model: Any) -> str | None:
    if model is None:
        return "none"
    if not isinstance(model, type):
        return None
    base = pydantic_base()
    if base is not None and issubclass(model, base):
        return "pydantic"
    if dataclasses.is_dataclass(model):
        return "dataclass"
    if typing.is_typeddict(model):
        return "typeddict"
    if getattr(model, "__annotations__", None) and model.__init__ is object.__init__:
        return "class"
    return None


def read_model(model: Any, label: str, namespace: dict, line_of: Callable[[str | None], int],
               settings: bool = False) -> InputModel:
    """`label` names the model in sentences ("the input_model of SqlTool");
    `line_of(field)` is a field's line, `line_of(None)` the declaration's;
    `settings` reads a settings_model, whose folder and secrets are `str` fields
    named by root_setting and secret_inputs."""
    shape = shape_of(model)
    if shape is None:
        return InputModel(None, "none", errors=[(line_of(None), f"{label} is {_spell(model)}; "
                                                               f"write {SHAPES}")])
    read = InputModel(model, shape)
    if shape == "none":
        return read
    if shape == "pydantic":
        _read_pydantic(read, label, line_of)
        return read
    own = model.__module__ == namespace.get("__name__")
    try:
        hints = typing.get_type_hints(model, globalns=namespace if own else None,
                                      include_extras=True)
    except Exception as exc:  # a hint naming something undefined
        read.errors.append((line_of(None), f"the type hints of {model.__name__} cannot be resolved "
                                           f"({type(exc).__name__}: {exc}); import the names they use"))
        return read
    described = docstrings.parse(model.__doc__).attributes
    optional_keys = getattr(model, "__optional_keys__", frozenset())
    for name, hint in hints.items():
        if name.startswith("_") or typing.get_origin(hint) is typing.ClassVar:
            continue
        line = line_of(name)
        if typing.get_origin(hint) in (typing.NotRequired, typing.Required):  # a TypedDict's marks
            hint = typing.get_args(hint)[0]
        try:
            inner, optional = split_optional(hint)
            if inner in (Root, Secret, Context):
                raise SchemaError(f"is a {inner.__name__}", _INSTEAD_SETTINGS if settings
                                  else _INSTEAD_INPUT)
            schema = {"type": "string"} if is_path(inner) else schema_of(inner, hint)
        except SchemaError as exc:
            read.errors.append((line, f"the field `{name}` of {model.__name__} {exc.problem}; "
                                      f"{exc.instead}"))
            continue
        if name in described:
            schema["description"] = described[name]
        default = _default(model, shape, name)
        if default is not MISSING:
            bad = not_json(default)
            if bad:
                read.errors.append((line, f"the default of the field `{name}` of {model.__name__} "
                                          f"is not JSON ({bad} is not serialisable); give a str, "
                                          "int, float, bool, None, list or dict default"))
                continue
            schema["default"] = default
        required = default is MISSING and not optional and name not in optional_keys
        read.fields.append(ModelField(name, schema, required, optional,
                                      optional and default is MISSING, is_path(inner), line))
        read.schema["properties"][name] = schema
        if required:
            read.schema["required"].append(name)
    return read


def _read_pydantic(read: InputModel, label: str, line_of: Callable[[str | None], int]) -> None:
    model = read.model
    try:
        schema = model.model_json_schema()
    except Exception as exc:  # pydantic's own sentence on why it has no JSON schema
        read.errors.append((line_of(None), f"{label} {model.__name__} has no JSON schema "
                                           f"({type(exc).__name__}: {exc}); use JSON types for "
                                           "its fields"))
        return
    properties = schema.get("properties", {})
    required = list(schema.get("required", []))
    read.schema = {"type": "object", "properties": properties, "required": required}
    if "$defs" in schema:
        read.schema["$defs"] = schema["$defs"]
    annotations = {info.alias or name: info.annotation for name, info in model.model_fields.items()}
    for name, prop in properties.items():
        nullable = any(option.get("type") == "null" for option in prop.get("anyOf", []))
        inner = annotations.get(name)
        inner = split_optional(inner)[0] if inner is not None else None
        read.fields.append(ModelField(name, prop, name in required, nullable, False,
                                      is_path(inner), line_of(name)))


def _default(model: type, shape: str, name: str) -> Any:
    if shape == "dataclass":
        found = {f.name: f for f in dataclasses.fields(model)}.get(name)
        if found is None:
            return MISSING
        if found.default_factory is not MISSING:
            return found.default_factory()
        return found.default
    if shape == "class":
        return getattr(model, name, MISSING)
    return MISSING


def build(read: InputModel, values: dict) -> Any:
    """The model's instance from arguments already checked against its schema."""
    model = read.model
    if read.shape == "none":
        return None
    if read.shape == "pydantic":
        error = sys.modules["pydantic"].ValidationError
        try:
            return model.model_validate(values)
        except error as exc:
            raise ModelInvalid("; ".join(
                f"`{'.'.join(str(part) for part in problem['loc']) or 'arguments'}`: "
                f"{problem['msg']}" for problem in exc.errors())) from None
    if read.shape == "typeddict":
        return dict(values)
    if read.shape == "dataclass":
        try:
            return model(**values)
        except (ValueError, TypeError) as exc:
            raise ModelInvalid(str(exc) or type(exc).__name__) from None
    made = model.__new__(model)
    for item in read.fields:
        if item.name in values:
            value = values[item.name]
        else:
            value = copy.deepcopy(item.schema.get("default")) if "default" in item.schema else None
        object.__setattr__(made, item.name, value)
    return made


def _spell(value: Any) -> str:
    if isinstance(value, type):
        return f"the class {value.__name__}, which is none of these"
    return f"{value!r}, not a class" if not isinstance(value, (dict, list)) else \
        f"a {type(value).__name__}, not a class"
