"""A Tool-class file to its operations (docs/rules.md, Tool classes): each
public subclass of quiver.Tool is one tool named by its `name`, or one tool
per operation named `<name>__<key>`; the file's settings come from the one
settings_model its classes share (tool_class_settings.py).
"""

from __future__ import annotations

from typing import Any

from quiver import Tool

from . import behaviour, docstrings
from .entries import Derived, Op, humanize
from .input_models import InputModel, read_model
from .signature import Param, Signature
from .sourcemap import SourceMap
from .tool_class_checks import (PER_CALL, RUNTIMES, behaviour_choices, call_problem,
                                capabilities_problem, looks_like_tool, name_problem,
                                operation_problem, operations_problem, runtime_problem,
                                text_problem)
from .tool_class_run import make_runner
from .tool_class_settings import check_paths, field_line, file_settings, path_inputs, words

BEHAVIOUR = ("risk", "timeout", "replay", "read_only", "destructive", "concurrent", "capabilities")


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
        name = cls.__name__
        errors.append((where.class_line(name), f"{name} is written as a Tool (it has call() and an "
                       "input_model or operations) but does not subclass quiver.Tool, so it offers "
                       f"nothing: write `class {name}(Tool):` with `from quiver import Tool`"))
    scope = namespace.get("scope", "call")
    if scope != "call":
        errors.append((where.name_line("scope"), f"scope is {scope!r}; a Tool class is built "
                       "afresh for every call, so remove scope, and keep what must last the run in "
                       'a class file of its own (scope = "run")'))
    tools = sorted(tools, key=lambda cls: where.class_line(cls.__name__))
    settings_read = file_settings(derived, tools, namespace, where)
    for cls in tools:
        _derive_class(derived, cls, namespace, where, defaults, settings_read)
    derived.credential_help = next((cls.credential_help for cls in tools
                                    if isinstance(cls.credential_help, str)), None)
    _secret_checks(derived, tools)
    first: dict[str, int] = {}
    for op in derived.ops:
        if op.name in first:
            errors.append((op.line, f"two tools of this file are named `{op.name}` (the first on "
                                    f"line {first[op.name]}); give each Tool class its own name"))
        first.setdefault(op.name, op.line)


def _secret_checks(derived: Derived, tools: list[type]) -> None:
    """Each secret field's check_secret: the first class declaring it that overrides one."""
    checks: dict[str, type] = {}
    for cls in tools:
        if cls.check_secret is not Tool.check_secret and words(cls.secret_inputs):
            for field in cls.secret_inputs:
                checks.setdefault(field, cls)
    if checks:
        derived.secret_check = lambda field, value: (
            checks[field]().check_secret(field, value) if field in checks else None)


def _derive_class(derived: Derived, cls: type, namespace: dict, where: SourceMap, defaults: dict,
                  settings_read: InputModel | None) -> None:
    errors, cname = derived.errors, cls.__name__
    line = where.class_line(cname)

    def at(attr: str) -> int:
        return where.field_line(cname, attr) if attr in vars(cls) else line

    name = getattr(cls, "name", None)
    call_line = where.def_line(vars(cls)["call"]) if "call" in vars(cls) else line
    problems = [(at("name"), name_problem(cls, name)),
                (at("title"), text_problem(cls, "title", cls.title)),
                (at("description"), text_problem(cls, "description", cls.description)),
                (at("runtime"), runtime_problem(cls, cls.runtime)),
                (at("capabilities"), capabilities_problem(cname, cls.capabilities)),
                (call_line, call_problem(cls)),
                (at("operations"), operations_problem(cls, cls.operations))]
    errors += [(where_, problem) for where_, problem in problems if problem]
    name = name if isinstance(name, str) and name else cname.lower()
    description = cls.description if isinstance(cls.description, str) else None
    description = description or docstrings.parse(cls.__doc__).first_line or ""
    title = cls.title if isinstance(cls.title, str) and cls.title else humanize(name)
    paths = path_inputs(derived, cls, at)
    shared = {"runtime": cls.runtime if cls.runtime in RUNTIMES else "in_process",
              "per_call": [m for m in PER_CALL if getattr(cls, m) is not getattr(Tool, m)]}
    wants_progress = cls.progress_message is not Tool.progress_message
    operations = cls.operations if isinstance(cls.operations, dict) and cls.operations else None
    table: list[tuple[str | None, Any]] = list(operations.items()) if operations else [(None, cls)]
    found: set[str] = set()
    for key, declared in table:
        owner = f'{cname}.operations["{key}"]' if key else cname
        where_declared = at("operations") if key else at("input_model")
        if key is not None:
            broken = operation_problem(cls, key, declared)
            if broken:
                errors.append((where_declared, broken))
                continue
            caps = capabilities_problem(owner, declared.capabilities)
            if caps:
                errors.append((where_declared, caps))
        model = declared.input_model if key else cls.input_model
        read = read_model(model, f"the input_model of {owner}", namespace,
                          lambda field, m=model, at_=where_declared: field_line(where, m, field, at_))
        errors += read.errors
        found |= check_paths(errors, read, paths, owner)
        resolved, problems = _behaviour(cls, declared, owner, defaults)
        errors += [(where_declared if key else line, problem) for problem in problems]
        resolved.update(shared)
        op_name = f"{name}__{key}" if key else name
        params = [Param(f.name, "path" if f.name in paths else "arg", f.schema, f.required,
                        f.nullable, f.fill_none, f.line) for f in read.fields]
        derived.ops.append(Op(
            name=op_name, file=derived.path, line=line, style="tool", attr=key or "call",
            func=make_runner(cls, key, op_name, read, paths, settings_read, wants_progress),
            title=declared.title if key else title,
            description=declared.description if key else description, input_schema=read.schema,
            scope="call", behaviour=resolved, signature=Signature(params, read.schema)))
    for missing in sorted(paths - found):
        errors.append((at("path_inputs"), f"{cname}.path_inputs names `{missing}`, which no "
                                          "input_model of it has; name fields of its input model, "
                                          "or remove it"))


def _behaviour(cls: type, declared: Any, owner: str, defaults: dict) -> tuple[dict, list[str]]:
    """One operation's behaviour, as @tool's options would give it (R-file-behaviour)."""
    values = {key: getattr(declared, key, None) for key in BEHAVIOUR}
    shared = cls.capabilities if words(cls.capabilities) else ()
    values["capabilities"] = sorted(set(values["capabilities"] or ()) | set(shared)) or None
    if values["risk"] is None and values["read_only"] is not None:
        values["risk"] = "read" if values["read_only"] else defaults.get("RISK", "write")
    chosen, problems = behaviour_choices(owner, values)
    resolved, _ = behaviour.resolve(defaults, chosen, owner, 0)
    resolved.pop("title")
    return resolved, problems
