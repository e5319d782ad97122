"""A Tool-class file's settings and paths: the one settings_model its
classes share (R-tool-class-settings), its root and secret fields, and the
declared path inputs (R-tool-class-paths).
"""

from __future__ import annotations

from typing import Any, Callable

from .entries import Derived
from .input_models import InputModel, read_model
from .settings import MISSING, Field, SettingsModel
from .sourcemap import SourceMap


def file_settings(derived: Derived, tools: list[type], namespace: dict,
                  where: SourceMap) -> InputModel | None:
    """The file's one settings model, made its SettingsModel (None without one)."""
    errors = derived.errors
    declared = [cls for cls in tools if cls.settings_model is not None]
    roots = {cls.root_setting for cls in tools if isinstance(cls.root_setting, str)
             and cls.root_setting}
    secrets = set().union(*(cls.secret_inputs for cls in tools if words(cls.secret_inputs)))
    if not declared:
        for cls in tools:
            if cls.root_setting or (words(cls.secret_inputs) and cls.secret_inputs):
                errors.append((where.class_line(cls.__name__), f"{cls.__name__} names settings "
                               "(root_setting or secret_inputs) but has no settings_model; declare "
                               "the class whose fields they are: settings_model = Settings"))
        return None
    first, model = declared[0], declared[0].settings_model
    for cls in declared[1:]:
        if cls.settings_model is not model:
            errors.append((where.field_line(cls.__name__, "settings_model"),
                           f"{cls.__name__}.settings_model is {name_of(cls.settings_model)}, but "
                           f"{first.__name__} in this file uses {name_of(model)}; the tools of one "
                           "file are one source with one set of settings: use "
                           f"{name_of(model)} in both, or move {cls.__name__} to a file of its own"))
    if len(roots) > 1:
        errors.append((where.class_line(declared[-1].__name__),
                       f"the Tool classes of this file name {len(roots)} root settings "
                       f"({', '.join(sorted(roots))}); path inputs are confined to one folder per "
                       "file, so name one"))
    declared_at = where.field_line(first.__name__, "settings_model")
    read = read_model(model, f"the settings_model of {first.__name__}", namespace,
                      lambda field: field_line(where, model, field, declared_at), settings=True)
    errors += read.errors
    _check_named(errors, read, model, declared_at, roots, secrets)
    help_text = next((c.credential_help for c in tools if isinstance(c.credential_help, str)), None)
    fields = [_field(f, roots, secrets, help_text) for f in read.fields]
    holder = model if read.shape in ("dataclass", "class") else type("SettingsValues", (), {})
    derived.settings = SettingsModel(holder, fields, next(iter(roots)) if len(roots) == 1 else None, {
        "type": "object", "properties": {f.name: f.schema for f in fields},
        "required": [f.name for f in fields if f.default is MISSING and not f.optional]})
    return read


def _check_named(errors: list, read: InputModel, model: Any, line: int, roots: set[str],
                 secrets: set[str]) -> None:
    known = {f.name: f for f in read.fields}
    named = [(r, "root_setting") for r in sorted(roots)] + [(s, "secret_inputs")
                                                            for s in sorted(secrets)]
    for wanted, what in named:
        if wanted not in known:
            errors.append((line, f"{what} names `{wanted}`, which {name_of(model)} does not have; "
                                 f"add `{wanted}: str` to {name_of(model)}"))
        elif known[wanted].schema.get("type") != "string":
            errors.append((known[wanted].line, f"`{wanted}` of {name_of(model)} is named in {what}, "
                                               "so it must be a `str`; change its type"))


def _field(f: Any, roots: set[str], secrets: set[str], help_text: str | None) -> Field:
    kind = "root" if f.name in roots else "secret" if f.name in secrets else "plain"
    schema = dict(f.schema)
    if kind == "root":
        schema["x-quiver-kind"] = "root"
    elif kind == "secret":
        schema.update({"writeOnly": True, "x-quiver-kind": "secret"})
        if help_text:
            schema["x-quiver-credential-help"] = help_text
    return Field(f.name, schema, schema.get("default", MISSING), f.nullable, kind)


def path_inputs(derived: Derived, cls: type, at: Callable[[str], int]) -> set[str]:
    """The class's declared path inputs, both halves given (else an error and none)."""
    paths, root, name = cls.path_inputs, cls.root_setting, cls.__name__
    if not words(paths):
        derived.errors.append((at("path_inputs"), f"{name}.path_inputs is {paths!r}; write a "
                                                  'frozenset of field names, e.g. frozenset({"path"})'))
        return set()
    if paths and not root:
        derived.errors.append((at("path_inputs"), f"{name} declares path_inputs "
                               f"({', '.join(sorted(paths))}) but no root_setting; a path is confined "
                               "under the folder the builder sets, so name the settings field that "
                               'holds it, e.g. root_setting = "root"'))
    if root and not paths:
        derived.errors.append((at("root_setting"), f"{name} declares root_setting = {root!r} but no "
                               "path_inputs; a root confines only the inputs declared as paths: list "
                               'them, e.g. path_inputs = frozenset({"path"}), or remove root_setting'))
    return set(paths) if root else set()


def check_paths(errors: list, read: InputModel, paths: set[str], owner: str) -> set[str]:
    """The declared paths this model has; a path field it does not declare is an error."""
    found = set()
    for field in read.fields:
        if field.name in paths:
            found.add(field.name)
            if field.schema.get("type") != "string":
                errors.append((field.line, f"`{field.name}` of {owner} is in path_inputs, so it "
                                           "must be a `str` or a `Path`; change its type"))
        elif field.is_path:
            errors.append((field.line, f"`{field.name}` of {owner} is a Path, and paths are "
                                       "confined only when declared: add it to path_inputs (with "
                                       "root_setting), or make it a `str`"))
    return found


def field_line(where: SourceMap, model: Any, field: str | None, fallback: int) -> int:
    if field is None or not isinstance(model, type):
        return fallback
    line = where.field_line(model.__name__, field)
    return line if line > 1 else fallback


def name_of(model: Any) -> str:
    return model.__name__ if isinstance(model, type) else repr(model)


def words(value: Any) -> bool:
    return isinstance(value, (set, frozenset, list, tuple)) and all(
        isinstance(v, str) for v in value)
