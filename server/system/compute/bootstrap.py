"""compute_exec's runner: the model's program, read from stdin, run as __main__
with the tree's tools importable as plain functions (R-sys-compute: the model
writes a program, and the program calls the tools).

    python3 -c "$(cat bootstrap.py)" CONFIG_JSON < program.py

CONFIG_JSON: {"toolhost": dir, "site": dir|null, "tree": dir,
"files": {"notes.py": ["notes__read"] | null, ...}, "limits": {...},
"sources": {...}, "sources_code": text}: sources.py's text, run as the
module quiver.sources (R-code-import) with "sources" as its configuration.
sys.path is the tool host's (run.py): the quiver module first, the tree's
installed dependencies, then the tree and its parent. A tool file the agent
was not given, or a function its entry narrowed away, is refused at the
import; this is a courtesy to the model, not a boundary (the sandbox is).
Stdlib only, like the host.
"""

from __future__ import annotations

import builtins
import json
import linecache
import os
import sys
import traceback
import types

PROGRAM = "<compute_exec>"
SOURCES = "<quiver.sources>"
# Run with -c (so no path of the studio's has to exist inside the sandbox), this file's frames say "<string>".
RUNNER = globals().get("__file__", "<string>")


def _limits(limits: dict) -> None:
    import resource

    wanted = [(resource.RLIMIT_AS, limits.get("as") and limits["as"] * 1024 * 1024),
              (resource.RLIMIT_CPU, limits.get("cpu")), (resource.RLIMIT_NOFILE, limits.get("nofile")),
              (resource.RLIMIT_NPROC, limits.get("nproc"))]
    for kind, value in wanted:
        if value:
            _, hard = resource.getrlimit(kind)
            value = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(kind, (value, value))


class _View:
    """What the program sees of a module: the tree's package, or a narrowed tool file."""

    __slots__ = ("_real", "_pick")

    def __init__(self, real, pick) -> None:
        object.__setattr__(self, "_real", real)
        object.__setattr__(self, "_pick", pick)

    def __getattr__(self, attr):
        return self._pick(self._real, attr)

    def __setattr__(self, attr, value) -> None:
        setattr(self._real, attr, value)

    def __dir__(self):
        return dir(self._real)

    def __repr__(self) -> str:
        return repr(self._real)


class Guard:
    """The program's __import__: the real one, then a check of what it brought."""

    def __init__(self, tree: str, files: dict) -> None:
        self.tree = tree
        self.package = os.path.basename(tree)
        self.files = files
        self.real_import = builtins.__import__

    def builtins(self) -> dict:
        names = dict(vars(builtins))
        names["__import__"] = self.import_
        return names

    def tool_file(self, module) -> str | None:
        """"notes.py" when `module` is a tool file of the tree (not a _helper)."""
        origin = getattr(module, "__file__", None)
        if not isinstance(module, types.ModuleType) or not origin:
            return None
        origin = os.path.realpath(origin)
        name = os.path.basename(origin)
        if os.path.dirname(origin) != self.tree or name.startswith("_") or not name.endswith(".py"):
            return None
        return name

    def is_tree_package(self, module) -> bool:
        paths = getattr(module, "__path__", None) if isinstance(module, types.ModuleType) else None
        return bool(paths) and any(os.path.realpath(p) == self.tree for p in paths)

    def view(self, module):
        file = self.tool_file(module)
        if file is not None:
            if file not in self.files:
                given = ", ".join(f"{self.package}/{f}" for f in sorted(self.files)) or "no file of the tree"
                raise ImportError(f"{self.package}/{file} is not one of this agent's tools, so the program cannot "
                                  f"use it; this agent was given {given}", name=module.__name__)
            operations = self.files[file]
            return module if operations is None else _View(module, self.narrowed(file, operations))
        if self.is_tree_package(module):
            return _View(module, self.package_attr)
        return module

    def package_attr(self, real, attr):
        value = getattr(real, attr)
        return self.view(value) if isinstance(value, types.ModuleType) else value

    def narrowed(self, file: str, operations: list):
        stem = file[:-3]
        prefix = f"{stem}__"
        if any(not op.startswith(prefix) for op in operations):
            return getattr  # a module named by its SCHEMA (R-module-shape) is one tool: given whole
        allowed = {op[len(prefix):] for op in operations}

        def pick(real, attr):
            value = getattr(real, attr)
            defined_here = getattr(value, "__module__", None) == real.__name__
            if attr.startswith("_") or not defined_here or not callable(value):
                return value
            if isinstance(value, type):
                methods = {name for name in vars(value) if not name.startswith("_")}
                if methods & allowed:
                    return value
            elif attr in allowed:
                return value
            given = ", ".join(sorted(operations))
            raise AttributeError(f"{attr} of {self.package}/{file} is not one of this agent's tools; it was "
                                 f"given {given}")
        return pick

    def import_(self, name, globals=None, locals=None, fromlist=(), level=0):
        module = self.real_import(name, globals, locals, fromlist, level)
        if level:
            return module
        if not fromlist:
            leaf = sys.modules.get(name)
            if leaf is not None and leaf is not module:
                self.view(leaf)  # `import tools.secret` fails here, at its line
            return self.view(module)
        if name == SOURCES[1:-1] or name.startswith(SOURCES[1:-1] + "."):
            for item in fromlist:
                if item == "*":
                    continue
                try:
                    getattr(module, item)
                except AttributeError as exc:
                    raise ImportError(str(exc), name=name) from None
            return module
        view = self.view(module)
        for item in fromlist:
            if item != "*" and view is not module:
                try:
                    getattr(view, item)
                except AttributeError as exc:
                    if hasattr(module, item):
                        raise ImportError(str(exc), name=name) from None
        return view


def _without_runner(report: traceback.TracebackException | None, depth: int = 0) -> None:
    """Drop this file's frames: the program's traceback is about the program and the tools it called."""
    if report is None or depth > 20:
        return
    report.stack = traceback.StackSummary.from_list(
        [frame for frame in report.stack if frame.filename not in (RUNNER, SOURCES)])
    _without_runner(report.__cause__, depth + 1)
    _without_runner(report.__context__, depth + 1)


def _sources(config: dict) -> None:
    """quiver.sources: sources.py run as that module, then installed with the run's sources."""
    if not config.get("sources_code"):
        return
    module = types.ModuleType(SOURCES[1:-1], "Every source of this agent, importable as plain functions.")
    sys.modules[module.__name__] = module
    exec(compile(config["sources_code"], SOURCES, "exec"), module.__dict__)
    module.install(config.get("sources") or {"error": "no studio is there to call back"})


def main() -> int:
    config = json.loads(sys.argv[1])
    source = sys.stdin.read()
    # The program read to its end; from here stdin is /dev/null, so input() answers EOF rather than waiting.
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    _limits(config.get("limits") or {})
    tree = os.path.realpath(config["tree"])
    head = [config["toolhost"]] + ([config["site"]] if config.get("site") else [])
    sys.path[0:1] = head  # sys.path[0] is the current folder (or this file's): not the program's business
    sys.path.extend([tree, os.path.dirname(tree)])
    _sources(config)
    sys.argv = [PROGRAM]
    linecache.cache[PROGRAM] = (len(source), None, source.splitlines(True), PROGRAM)
    scope = {"__name__": "__main__", "__builtins__": Guard(tree, config["files"]).builtins()}
    try:
        exec(compile(source, PROGRAM, "exec"), scope)
    except SystemExit:
        raise
    except BaseException as exc:
        report = traceback.TracebackException.from_exception(exc)
        _without_runner(report)
        print("".join(report.format()), end="", file=sys.stderr)
        return 1
    finally:
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
