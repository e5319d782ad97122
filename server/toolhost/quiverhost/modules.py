"""The module shape (R-module-shape): a `SCHEMA` dict and an `async def execute(args, ctx)`,
with its optional attributes. A module without a SCHEMA dict is skipped
silently (R-module-skipped): it is how a helper avoids being registered.
"""

from __future__ import annotations

import inspect

from . import behaviour
from .built_in import never_run, provider_tool
from .entries import Derived, Op, humanize
from .schema import not_json
from .sourcemap import SourceMap

EMPTY_PARAMETERS = {"type": "object", "properties": {}, "required": []}


def derive_module_style(derived: Derived, namespace: dict, where: SourceMap,
                        defaults: dict) -> None:
    derived.kind = "module"
    schema = namespace.get("SCHEMA")
    if not isinstance(schema, dict):
        return
    schema_line = where.name_line("SCHEMA")
    execute = namespace.get("execute")
    line = where.def_line(execute) if callable(execute) else schema_line
    built_in = defaults.get("BUILT_IN") is True
    if built_in:
        # The provider runs it: execute() may be absent, and is never called (R-builtin-provider).
        tool, problem = provider_tool(schema)
        if problem:
            derived.errors.append((schema_line, problem))
    elif execute is None:
        derived.errors.append((schema_line, "SCHEMA is here but execute is missing; write "
                                            "`async def execute(args, ctx)` returning a string"))
    elif not inspect.iscoroutinefunction(inspect.unwrap(execute)):
        derived.errors.append((line, "execute must be `async def execute(args, ctx)`; it is a plain "
                                     "function, and the host awaits what execute returns"))
    name = schema.get("name") or derived.stem
    if not isinstance(name, str):
        derived.errors.append((schema_line, f'SCHEMA["name"] is {name!r}; write the tool\'s name '
                                            "as a string"))
        name = derived.stem
    parameters = schema.get("parameters", EMPTY_PARAMETERS)
    bad = not_json(parameters)
    if bad:
        derived.errors.append((schema_line, f'SCHEMA["parameters"] is not JSON ({bad} is not '
                                            "serialisable); write it with dicts, lists, strings, "
                                            "numbers, booleans and None"))
        parameters = EMPTY_PARAMETERS
    elif not isinstance(parameters, dict):
        derived.errors.append((schema_line, 'SCHEMA["parameters"] must be a JSON Schema object, '
                                            'e.g. {"type": "object", "properties": {}}'))
        parameters = EMPTY_PARAMETERS
    description = schema.get("description", "")
    if not isinstance(description, str):
        derived.errors.append((schema_line, 'SCHEMA["description"] must be a string: the one '
                                            "sentence the model reads"))
        description = ""
    title = schema.get("title")
    resolved, problems = behaviour.resolve(defaults, {}, "execute()", line)
    derived.errors += problems
    resolved.pop("title")
    if built_in and tool:
        resolved["built_in"] = tool
        execute = never_run(name, tool)
    check = namespace.get("check")
    if check is not None and not callable(check):
        derived.errors.append((where.name_line("check"), "check must be a function taking no "
                                                         "argument and returning True or False"))
        check = None
    derived.ops.append(Op(
        name=name, file=derived.path, line=line, style="execute", attr="execute",
        func=execute if callable(execute) else None,
        title=title if isinstance(title, str) and title else humanize(name),
        description=description, input_schema=parameters, scope="call", behaviour=resolved,
        check=check))
