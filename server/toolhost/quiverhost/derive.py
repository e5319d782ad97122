"""A module to one catalog file entry and its operations (docs/rules.md, Tool
files, plus the module shape, R-module-shape). The catalog and the preview
both derive through derive_file, so what a developer previews is what the
model is offered.
"""

from __future__ import annotations

import inspect
import re
from types import ModuleType
from typing import Any, Callable

from . import behaviour, docstrings
from .entries import Derived, Op, humanize
from .modules import derive_module_style
from .settings import derive_settings
from .signature import read_signature
from .sourcemap import SourceMap
from .tool_class import derive_tool_classes, tool_classes

NAME = re.compile(r"^[a-zA-Z0-9_-]{1,128}$")
SCOPES = ("call", "run")
# Module-level functions that are part of the contract, never tools.
NOT_TOOLS = {"check_secret"}


def derive_file(path: str, module: ModuleType | None, source: bytes | str | None,
                errors: list | tuple = ()) -> Derived:
    """`errors` are those found before deriving (a bad file name, an import failure)."""
    stem = path[:-3]
    derived = Derived(path, "helper" if stem.startswith("_") else "functions", module,
                      errors=list(errors))
    if module is None:
        return derived
    namespace = vars(module)
    where = SourceMap(source)
    derived.description = docstrings.parse(module.__doc__).first_line
    title = namespace.get("TITLE")
    if isinstance(title, str):
        derived.title = title
    elif title is not None:
        derived.errors.append((where.name_line("TITLE"), f"TITLE is {title!r}; write the file's "
                                                         'title as a string, e.g. TITLE = "Files"'))
    if derived.kind == "helper":
        return derived
    defaults, problems = behaviour.file_defaults(namespace, where.name_line)
    derived.errors += problems
    if "SCHEMA" in namespace or "execute" in namespace:
        derive_module_style(derived, namespace, where, defaults)
    else:
        _derive_tree_file(derived, namespace, where, defaults)
    for op in derived.ops:
        if not NAME.match(op.name):
            derived.errors.append((op.line, f"the tool name `{op.name}` does not match "
                                            "^[a-zA-Z0-9_-]{1,128}$, which model providers "
                                            "require; use letters, digits, _ and - only, and "
                                            "keep it under 129 characters"))
    return derived


def _derive_tree_file(derived: Derived, namespace: dict, where: SourceMap, defaults: dict) -> None:
    tools, lookalikes = tool_classes(namespace, derived.module.__name__)
    if tools or lookalikes:  # R-tool-class-shape
        derive_tool_classes(derived, namespace, where, defaults, tools, lookalikes)
        return
    settings, problems = derive_settings(namespace, where.name_line, where.field_line)
    derived.settings = settings
    derived.errors += problems
    scope = namespace.get("scope", "call")
    if scope in SCOPES:
        derived.scope = scope
    else:
        derived.errors.append((where.name_line("scope"), f'scope is {scope!r}; write scope = "call" '
                                                         '(a fresh instance per call) or scope = "run" '
                                                         "(one instance kept for the whole run)"))
    classes = _public_classes(namespace, derived.module.__name__, where)
    if len(classes) > 1:
        derived.kind = "class"
        first, second = classes[0], classes[1]
        derived.errors.append((where.class_line(second.__name__),
                               f"{second.__name__} is a second public class (after "
                               f"{first.__name__}, line {where.class_line(first.__name__)}); a file "
                               "holds one public class or plain functions, so nothing in it is "
                               f"exported: move {second.__name__} to its own file, or name it "
                               f"_{second.__name__} to keep it private"))
        return
    settings_cls = settings.cls if settings else None
    if classes:
        derived.kind = "class"
        derived.cls = cls = classes[0]
        class_doc = docstrings.parse(cls.__doc__).first_line
        _check_init(derived, cls, where)
        for attr, fn in _marked_first(_methods(cls)):
            derived.ops.append(_op(derived, attr, fn, "method", where, defaults, settings_cls,
                                   class_doc, derived.scope))
    else:
        for attr, fn in _marked_first(_functions(namespace, derived.module.__name__)):
            derived.ops.append(_op(derived, attr, fn, "function", where, defaults, settings_cls,
                                   None, "call"))
    _check_paths_have_root(derived)


def _op(derived: Derived, attr: str, fn: Callable, style: str, where: SourceMap, defaults: dict,
        settings_cls: Any, class_doc: str | None, scope: str) -> Op:
    original = inspect.unwrap(fn)
    label = f"{attr}()"
    doc = docstrings.parse(original.__doc__)
    signature = read_signature(
        original, label, doc.args, settings_cls,
        lambda name: where.param_line(original, name) if name else where.def_line(original),
        skip_first=style == "method")
    derived.errors += signature.errors
    line = where.def_line(original)
    marks = getattr(fn, "__quiver_tool__", None) or getattr(original, "__quiver_tool__", {})
    resolved, problems = behaviour.resolve(defaults, marks, label, line)
    derived.errors += problems
    description = doc.first_line or ""
    if class_doc:
        description = f"{description}\n({class_doc})" if description else f"({class_doc})"
    return Op(name=f"{derived.stem}__{attr}", file=derived.path, line=line, style=style, attr=attr,
              func=fn, title=resolved.pop("title") or humanize(attr), description=description,
              input_schema=signature.input_schema, scope=scope, behaviour=resolved,
              signature=signature)


def _public_classes(namespace: dict, module_name: str, where: SourceMap) -> list[type]:
    seen: dict[int, type] = {}
    for name, value in namespace.items():
        if (isinstance(value, type) and not name.startswith("_") and name != "Settings"
                and value.__module__ == module_name and not issubclass(value, BaseException)):
            seen.setdefault(id(value), value)
    return sorted(seen.values(), key=lambda cls: where.class_line(cls.__name__))


def _methods(cls: type) -> list[tuple[str, Callable]]:
    found = [(name, fn) for name, fn in vars(cls).items()
             if inspect.isfunction(fn) and not name.startswith("_")]
    return sorted(found, key=lambda item: inspect.unwrap(item[1]).__code__.co_firstlineno)


def _functions(namespace: dict, module_name: str) -> list[tuple[str, Callable]]:
    """Public functions defined in the file, then any imported one marked @tool."""
    own, imported, seen = [], [], set()
    for name, fn in namespace.items():
        if (not inspect.isfunction(fn) or name.startswith("_") or name in NOT_TOOLS
                or fn.__name__ == "<lambda>" or id(fn) in seen):
            continue
        seen.add(id(fn))
        if fn.__module__ == module_name:
            own.append((name, fn))
        elif hasattr(fn, "__quiver_tool__"):
            imported.append((name, fn))
    own.sort(key=lambda item: inspect.unwrap(item[1]).__code__.co_firstlineno)
    return own + imported


def _marked_first(candidates: list[tuple[str, Callable]]) -> list[tuple[str, Callable]]:
    """@tool anywhere narrows to the marked ones (R-file-tool-narrows)."""
    marked = [(name, fn) for name, fn in candidates if hasattr(fn, "__quiver_tool__")]
    return marked or candidates


def _check_init(derived: Derived, cls: type, where: SourceMap) -> None:
    init = cls.__init__
    if init is object.__init__ or not inspect.isfunction(init):
        return
    params = list(inspect.signature(init).parameters.values())[1:]
    required = [p for p in params if p.default is p.empty
                and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    derived.init_takes_ctx = bool(params)
    if len(required) > 1:
        derived.errors.append((where.def_line(init), f"{cls.__name__}.__init__ takes {len(required)} "
                                                     "arguments besides self; the host passes one, "
                                                     "a Context: write `def __init__(self, ctx)` "
                                                     "or `def __init__(self)`"))


def _check_paths_have_root(derived: Derived) -> None:
    if derived.settings and derived.settings.root:
        return
    for op in derived.ops:
        for param in op.signature.params if op.signature else []:
            if param.role == "path":
                derived.errors.append((param.line, f"`{param.name}` in {op.attr}() is a Path, and "
                                                "Path arguments are confined to the file's Root "
                                                "setting, which it does not have; add "
                                                '`root: Root = "."` to a `class Settings:`'))
                return
