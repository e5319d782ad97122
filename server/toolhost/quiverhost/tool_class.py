"""A Tool-class file to its operations (docs/rules.md, Tool classes): each
public subclass of quiver.Tool is one tool named by its `name`, or one tool
per operation named `<name>__<key>`; the file's settings come from the one
settings_model its classes share (R-tool-class-settings).
"""

from __future__ import annotations

from typing import Any

from quiver import Tool

from . import behaviour, docstrings
from .entries import Derived, Op, humanize
from .input_models import InputModel, read_model
from .settings import MISSING, Field, SettingsModel
from .signature import Param, Signature
from .sourcemap import SourceMap
from .tool_class_checks import (PER_CALL, behaviour_choices, call_problem, capabilities_problem,
                                looks_like_tool, name_problem, operation_problem,
                                operations_problem, runtime_problem, text_problem)
from .tool_class_run import make_runner


def tool_classes(namespace: dict, module_name: str) -> tuple[list[type], list[type]]:
    """The file's public Tool subclasses, and its classes written as Tools on another base."""
    tools, lookalikes, seen = [], [], set()
    for name, value in namespace.items():
        if (not isinstance(value, type) or name.startswith("_") or value.__module__ != module_name
                or id(value) in seen or value is Tool):
            continue
        seen.add(id(value))
        if issubclass(value, Tool):
            tools.append(value)
        elif looks_like_tool(value):
            lookalikes.append(value)
    return tools, lookalikes


def derive_tool_classes(derived: Derived, namespace: dict, where: SourceMap, defaults: dict,
                        tools: list[type], lookalikes: list[type]) -> None:
    derived.kind = "tool_class"
    errors = derived.errors
    for cls in lookalikes:
        errors.append((where.class_line(cls.__name__), f"{cls.__name__} is written as a Tool (it has "
                       "call() and an input_model or operations) but does not subclass quiver.Tool, "
                       f"so it offers nothing: write `class {cls.__name__}(Tool):` with `from quiver "
                       "import Tool`"))
    scope = namespace.get("scope", "call")
    if scope != "call":
        errors.append((where.name_line("scope"), f"scope is {scope!r}; a Tool class is built afresh "
                       "for every call, so remove scope, and keep what must last the run in a class "
                       'file of its own (scope = "run")'))
    tools = sorted(tools, key=lambda cls: where.class_line(cls.__name__))
    settings_read = _file_settings(derived, tools, namespace, where)
    checks: dict[str, type] = {}
    for cls in tools:
        for field in cls.secret_inputs if _words(cls.secret_inputs) else ():
            if cls.check_secret is not Tool.check_secret:
                checks.setdefault(field, cls)
        _derive_class(derived, cls, namespace, where, defaults, settings_read)
    help_text = next((cls.credential_help for cls in tools if isinstance(cls.credential_help, str)),
                     None)
    derived.credential_help = help_text
    if checks:
        derived.secret_check = lambda field, value: (
            checks[field]().check_secret(field, value) if field in checks else None)
    names: dict[str, int] = {}
    for op in derived.ops:
        if op.name in names:
            errors.append((op.line, f"two tools of this file are named `{op.name}` (the first on line "
                                    f"{names[op.name]}); give each Tool class its own name"))
        names.setdefault(op.name, op.line)


def _derive_class(derived: Derived, cls: type, namespace: dict, where: SourceMap, defaults: dict,
                  settings_read: InputModel | None) -> None:
    errors, cname = derived.errors, cls.__name__
    line = where.class_line(cname)

    def at(attr: str) -> int:
        return where.field_line(cname, attr) if attr in vars(cls) else line

    name = getattr(cls, "name", None)
    problems = [(at("name"), name_problem(cls, name)), (at("title"), text_problem(cls, "title", cls.title)),
                (at("description"), text_problem(cls, "description", cls.description)),
                (at("runtime"), runtime_problem(cls, cls.runtime)),
                (at("capabilities"), capabilities_problem(cname, cls.capabilities)),
                (where.def_line(vars(cls)["call"]) if "call" in vars(cls) else line, call_problem(cls)),
                (at("operations"), operations_problem(cls, cls.operations))]
    errors += [(where_, problem) for where_, problem in problems if problem]
    if not isinstance(name, str) or not name:
        name = cls.__name__.lower()
    description = cls.description if isinstance(cls.description, str) else None
    description = description or docstrings.parse(cls.__doc__).first_line or ""
    title = cls.title if isinstance(cls.title, str) and cls.title else humanize(name)
    paths = _path_inputs(derived, cls, at)
    per_call = [m for m in PER_CALL if getattr(cls, m) is not getattr(Tool, m)]
    wants_progress = cls.progress_message is not Tool.progress_message
    operations = cls.operations if isinstance(cls.operations, dict) and cls.operations else None
    table: list[tuple[str | None, Any]] = list(operations.items()) if operations else [(None, cls)]
    found_paths: set[str] = set()
    for key, declared in table:
        if key is not None:
            problem = operation_problem(cls, key, declared)
            if problem:
                errors.append((at("operations"), problem))
                continue
            caps = capabilities_problem(f'{cname}.operations["{key}"]', declared.capabilities)
            if caps:
                errors.append((at("operations"), caps))
        owner = f'{cname}.operations["{key}"]' if key else cname
        model_at = at("operations") if key else at("input_model")
        model = declared.input_model if key else cls.input_model
        read = read_model(model, f"the input_model of {owner}", namespace,
                          lambda field, m=model, fallback=model_at: _field_line(where, m, field, fallback))
        errors += read.errors
        found_paths |= _check_paths(errors, read, paths, owner)
        resolved, problems = _behaviour(cls, declared, owner, defaults)
        errors += [(at("operations") if key else line, problem) for problem in problems]
        resolved.update(runtime=cls.runtime if cls.runtime in ("in_process", "hosted") else "in_process",
                        per_call=per_call)
        op_name = f"{name}__{key}" if key else name
        signature = Signature(
            params=[Param(f.name, "path" if f.name in paths else "arg", f.schema, f.required,
                          f.nullable, f.fill_none, f.line) for f in read.fields],
            input_schema=read.schema)
        derived.ops.append(Op(
            name=op_name, file=derived.path, line=line, style="tool", attr=key or "call",
            func=make_runner(cls, key, op_name, read, paths, settings_read, wants_progress),
            title=declared.title if key else title,
            description=declared.description if key else description,
            input_schema=read.schema, scope="call", behaviour=resolved, signature=signature))
    for missing in sorted(paths - found_paths):
        errors.append((at("path_inputs"), f"{cname}.path_inputs names `{missing}`, which no input_model "
                                          "of it has; name fields of its input model, or remove it"))


def _behaviour(cls: type, declared: Any, owner: str, defaults: dict) -> tuple[dict, list[str]]:
    keys = ("risk", "timeout", "replay", "read_only", "destructive", "concurrent", "capabilities")
    values = {key: getattr(declared, key, None) for key in keys}
    values["capabilities"] = sorted(set(values["capabilities"] or ()) | set(
        cls.capabilities if _words(cls.capabilities) else ())) or None
    if values["risk"] is None and values["read_only"] is not None:
        values["risk"] = "read" if values["read_only"] else defaults.get("RISK", "write")
    chosen, problems = behaviour_choices(f"{owner}", values)
    resolved, _ = behaviour.resolve(defaults, chosen, owner, 0)
    resolved.pop("title")
    return resolved, problems


def _path_inputs(derived: Derived, cls: type, at) -> set[str]:
    paths, root = cls.path_inputs, cls.root_setting
    if not _words(paths):
        derived.errors.append((at("path_inputs"), f"{cls.__name__}.path_inputs is {paths!r}; write a "
                                                  'frozenset of field names, e.g. frozenset({"path"})'))
        return set()
    if paths and not root:
        derived.errors.append((at("path_inputs"), f"{cls.__name__} declares path_inputs ({', '.join(sorted(paths))}) "
                                                  "but no root_setting; a path is confined under the folder "
                                                  "the builder sets, so name the settings field that holds it, "
                                                  'e.g. root_setting = "root"'))
    if root and not paths:
        derived.errors.append((at("root_setting"), f"{cls.__name__} declares root_setting = {root!r} but no "
                                                   "path_inputs; a root confines only the inputs declared as "
                                                   'paths: list them, e.g. path_inputs = frozenset({"path"}), '
                                                   "or remove root_setting"))
    return set(paths) if root else set()


def _check_paths(errors: list, read: InputModel, paths: set[str], owner: str) -> set[str]:
    found = set()
    for field in read.fields:
        if field.name in paths:
            found.add(field.name)
            if field.schema.get("type") != "string":
                errors.append((field.line, f"`{field.name}` of {owner} is in path_inputs, so it must "
                                           "be a `str` or a `Path`; change its type"))
        elif field.is_path:
            errors.append((field.line, f"`{field.name}` of {owner} is a Path, and paths are confined "
                                       "only when declared: add it to path_inputs (with root_setting), "
                                       "or make it a `str`"))
    return found


def _file_settings(derived: Derived, tools: list[type], namespace: dict,
                   where: SourceMap) -> InputModel | None:
    """The file's one settings model, shared by every Tool class in it (R-tool-class-settings)."""
    declared = [cls for cls in tools if cls.settings_model is not None]
    roots = {cls.root_setting for cls in tools if isinstance(cls.root_setting, str) and cls.root_setting}
    secrets = set().union(*(cls.secret_inputs for cls in tools if _words(cls.secret_inputs)))
    if not declared:
        for cls in tools:
            if cls.root_setting or (_words(cls.secret_inputs) and cls.secret_inputs):
                derived.errors.append((where.class_line(cls.__name__), f"{cls.__name__} names settings "
                                       "(root_setting or secret_inputs) but has no settings_model; "
                                       "declare the class whose fields they are: settings_model = Settings"))
        return None
    first = declared[0]
    for cls in declared[1:]:
        if cls.settings_model is not first.settings_model:
            derived.errors.append((where.field_line(cls.__name__, "settings_model"),
                                   f"{cls.__name__}.settings_model is {_name(cls.settings_model)}, but "
                                   f"{first.__name__} in this file uses {_name(first.settings_model)}; "
                                   "the tools of one file are one source with one set of settings: use "
                                   f"{_name(first.settings_model)} in both, or move {cls.__name__} to a "
                                   "file of its own"))
    if len(roots) > 1:
        derived.errors.append((where.class_line(declared[-1].__name__),
                               f"the Tool classes of this file name {len(roots)} root settings "
                               f"({', '.join(sorted(roots))}); path inputs are confined to one folder "
                               "per file, so name one"))
    model = first.settings_model
    read = read_model(model, f"the settings_model of {first.__name__}", namespace,
                      lambda field: _field_line(where, model, field,
                                                where.field_line(first.__name__, "settings_model")),
                      settings=True)
    derived.errors += read.errors
    fields, known = [], {f.name: f for f in read.fields}
    help_text = next((c.credential_help for c in tools if isinstance(c.credential_help, str)), None)
    for wanted, what in [(r, "root_setting") for r in sorted(roots)] + [(s, "secret_inputs") for s in sorted(secrets)]:
        if wanted not in known:
            derived.errors.append((where.field_line(first.__name__, "settings_model"),
                                   f"{what} names `{wanted}`, which {_name(model)} does not have; add "
                                   f"`{wanted}: str` to {_name(model)}"))
        elif known[wanted].schema.get("type") != "string":
            derived.errors.append((known[wanted].line, f"`{wanted}` of {_name(model)} is named in {what}, "
                                                      "so it must be a `str`; change its type"))
    for f in read.fields:
        kind = "root" if f.name in roots else "secret" if f.name in secrets else "plain"
        schema = dict(f.schema)
        if kind == "root":
            schema = {**schema, "x-quiver-kind": "root"}
        elif kind == "secret":
            schema = {**schema, "writeOnly": True, "x-quiver-kind": "secret"}
            if help_text:
                schema["x-quiver-credential-help"] = help_text
        fields.append(Field(f.name, schema, schema.get("default", MISSING), f.nullable, kind))
    holder = model if read.shape in ("dataclass", "class") else type("SettingsValues", (), {})
    derived.settings = SettingsModel(holder, fields, next(iter(roots)) if len(roots) == 1 else None, {
        "type": "object", "properties": {f.name: f.schema for f in fields},
        "required": [f.name for f in fields if f.default is MISSING and not f.optional]})
    return read


def _field_line(where: SourceMap, model: Any, field: str | None, fallback: int) -> int:
    if field is None or not isinstance(model, type):
        return fallback
    line = where.field_line(model.__name__, field)
    return line if line > 1 else fallback


def _name(model: Any) -> str:
    return model.__name__ if isinstance(model, type) else repr(model)


def _words(value: Any) -> bool:
    return isinstance(value, (set, frozenset, list, tuple)) and all(isinstance(v, str) for v in value)
