"""Line numbers for errors: where a def, a parameter, a class, a Settings
field or a file-level constant is written. Read from the file's AST because a
code object knows only its first decorator's line, not its parameters'.
"""

from __future__ import annotations

import ast
from typing import Any


class SourceMap:
    def __init__(self, source: bytes | str | None) -> None:
        # Keyed by the line a code object reports (its first decorator, else its def).
        self._defs: dict[int, ast.FunctionDef | ast.AsyncFunctionDef] = {}
        self._classes: dict[str, ast.ClassDef] = {}
        self._names: dict[str, int] = {}
        if source is None:
            return
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError):
            return
        for node in _top_level(tree.body):
            for name in _bound_names(node):
                self._names.setdefault(name, node.lineno)
            if isinstance(node, ast.ClassDef):
                self._classes.setdefault(node.name, node)
                for inner in _top_level(node.body):
                    self._add_def(inner)
            self._add_def(node)

    def _add_def(self, node: ast.stmt) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            self._defs[first] = node

    def _def(self, fn: Any) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        code = getattr(fn, "__code__", None)
        node = self._defs.get(code.co_firstlineno) if code else None
        return node if node is not None and node.name == getattr(fn, "__name__", None) else None

    def def_line(self, fn: Any) -> int:
        node = self._def(fn)
        if node is not None:
            return node.lineno
        code = getattr(fn, "__code__", None)
        return code.co_firstlineno if code else 1

    def param_line(self, fn: Any, name: str) -> int:
        node = self._def(fn)
        if node is None:
            return self.def_line(fn)
        args = node.args
        every = args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]
        for arg in every:
            if arg is not None and arg.arg == name:
                return arg.lineno
        return node.lineno

    def class_line(self, name: str) -> int:
        node = self._classes.get(name)
        return node.lineno if node else 1

    def field_line(self, class_name: str, field: str) -> int:
        node = self._classes.get(class_name)
        if node is None:
            return 1
        for statement in node.body:
            if field in _bound_names(statement):
                return statement.lineno
        return node.lineno

    def name_line(self, name: str) -> int:
        """The line that first binds a module-level name (a constant, SCHEMA, scope)."""
        return self._names.get(name, 1)


def _top_level(body: list[ast.stmt]):
    """Statements of a body, looking inside `if` and `try` (a guarded import or
    def) but not into function bodies: only module and class level define tools."""
    for node in body:
        yield node
        if isinstance(node, ast.If):
            yield from _top_level(node.body + node.orelse)
        elif isinstance(node, ast.Try):
            yield from _top_level(node.body + node.orelse + node.finalbody
                                  + [s for h in node.handlers for s in h.body])


def _bound_names(node: ast.stmt) -> list[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.Assign):
        return [t.id for t in node.targets if isinstance(t, ast.Name)]
    if isinstance(node, (ast.AnnAssign, ast.AugAssign)) and isinstance(node.target, ast.Name):
        return [node.target.id]
    return []
