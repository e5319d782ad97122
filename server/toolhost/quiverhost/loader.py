"""Finding and importing the files of one tree: `<tree>/*.py`, flat, each under
its stem as module name (so `import _helpers` and ctx.tool resolve). On every
look a file whose mtime or size moved is re-imported, and only it: not the
files that imported it (R-file-reload).
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import keyword
import os
import re
import sys
import threading
import types
from dataclasses import dataclass
from pathlib import Path

from .bounded import run_bounded
from .catalog import Catalog, CheckGate
from .derive import derive_file
from .entries import Derived
from .errors import import_error_text, line_in_file
from .stamps import Stamp, Stamps

MODULE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
RESERVED = {"quiver", "quiverhost"}
IMPORT_SECONDS = 30.0


def name_problem(filename: str) -> str | None:
    """Why a file of the tree cannot be a module of it, or None."""
    stem = filename[:-3]
    if not MODULE_NAME.match(stem) or keyword.iskeyword(stem):
        fixed = re.sub(r"[^A-Za-z0-9_]", "_", stem)
        fixed = fixed if MODULE_NAME.match(fixed) and not keyword.iskeyword(fixed) else f"tool_{fixed}"
        return (f"`{filename}` is not a Python module name, so nothing can import it and "
                f"tools/{filename} cannot resolve; rename it with letters, digits and "
                f"underscores only, e.g. `{fixed}.py`")
    if stem in RESERVED:
        return (f"`{filename}` takes the name of the `{stem}` module the tool host provides; "
                f"rename it, e.g. `{stem}_tools.py`")
    if stem in sys.stdlib_module_names:
        return (f"`{filename}` has the name of Python's standard module `{stem}`, which the host "
                f"and the other files import; rename it, e.g. `{stem}_tools.py`")
    return None


class _TreeLoader(importlib.abc.Loader):
    """Executes a tree file from its source every time: no bytecode cache, whose
    one-second mtime could hide an edit made within the same second."""

    def __init__(self, tree: "Tree", path: Path) -> None:
        self.tree, self.path = tree, path

    def create_module(self, spec):  # the default module object
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        status = os.stat(self.path)
        source = self.path.read_bytes()
        # Lets the scan adopt a file another file imported, instead of importing it twice.
        self.tree.imported[module.__name__] = ((status.st_mtime_ns, status.st_size), source)
        exec(compile(source, str(self.path), "exec", dont_inherit=True), module.__dict__)


class _TreeFinder(importlib.abc.MetaPathFinder):
    def __init__(self, tree: "Tree") -> None:
        self.tree = tree

    def find_spec(self, fullname, path=None, target=None):
        if path is not None or "." in fullname:
            return None
        file = self.tree.root / f"{fullname}.py"
        if name_problem(file.name) or not file.is_file():
            return None
        return importlib.util.spec_from_file_location(fullname, file,
                                                      loader=_TreeLoader(self.tree, file))


@dataclass
class Loaded:
    stamp: Stamp
    derived: Derived


class Tree:
    """One tree of tool files. `catalog` is replaced whole on each change, so a
    reader takes the reference and needs no lock."""

    def __init__(self, root: str | Path, import_seconds: float = IMPORT_SECONDS) -> None:
        self.root = Path(root).resolve()
        self.import_seconds = import_seconds
        self.loaded: dict[str, Loaded] = {}
        self.catalog = Catalog([])
        self.imported: dict[str, tuple[Stamp, bytes]] = {}
        self._lock = threading.Lock()
        self._stamps = Stamps(self.root)
        self._finder = _TreeFinder(self)
        sys.meta_path.insert(0, self._finder)

    def close(self) -> None:
        if self._finder in sys.meta_path:
            sys.meta_path.remove(self._finder)
        for path in list(self.loaded):
            self._forget(path)

    def stamps(self) -> dict[str, Stamp]:
        return self._stamps()

    def refresh(self) -> list[str]:
        """Re-import what moved since the last look; the paths that changed."""
        with self._lock:
            stamps = self.stamps()
            old = self.loaded
            if _unmoved(stamps, old):
                return []
            gone = [path for path in old if path not in stamps]
            moved = sorted(path for path, stamp in stamps.items()
                           if path not in old or old[path].stamp != stamp)
            if not gone and not moved:
                return []
            for path in gone + moved:
                self._forget(path)
            kept = {path: loaded for path, loaded in old.items() if path in stamps}
            for path in moved:
                kept[path] = Loaded(stamps[path], self._load(path, stamps[path]))
            self.loaded = dict(sorted(kept.items()))
            self.catalog = Catalog([loaded.derived for loaded in self.loaded.values()])
            return sorted(gone + moved)

    def _forget(self, path: str) -> None:
        stem = path[:-3]
        module = sys.modules.get(stem)
        if module is not None and getattr(module, "__file__", None) == str(self.root / path):
            del sys.modules[stem]
        self.imported.pop(stem, None)

    def _load(self, path: str, stamp: Stamp) -> Derived:
        problem = name_problem(path)
        if problem:
            return derive_file(path, None, None, [(1, problem)])
        stem, file = path[:-3], self.root / path
        module = sys.modules.get(stem)
        seen = self.imported.get(stem)
        if (module is not None and seen is not None and seen[0] == stamp
                and getattr(module, "__file__", None) == str(file)):
            return derive_file(path, module, seen[1])  # another file imported it just now
        spec = importlib.util.spec_from_file_location(stem, file, loader=_TreeLoader(self, file))
        module = importlib.util.module_from_spec(spec)
        sys.modules[stem] = module
        finished = run_bounded(lambda: spec.loader.exec_module(module), self.import_seconds,
                               name=f"quiver-import-{stem}")
        if finished.done and finished.error is None:
            return derive_file(path, module, self.imported[stem][1])
        if sys.modules.get(stem) is module:
            del sys.modules[stem]
        if not finished.done:
            return derive_file(path, None, None, [(1, f"TimeoutError: {path} did not finish importing "
                                                      f"within {self.import_seconds:g} s; move slow "
                                                      "work at module level into a function")])
        error = finished.error
        return derive_file(path, None, None, [(line_in_file(error, str(file)),
                                               import_error_text(error, str(file)))])

    def preview(self, path: str, source: str, detail: bool = False,
                seconds: float = 10.0, gate: CheckGate | None = None) -> dict:
        """The entry `path` would have with `source`, derived from the unsaved
        buffer without touching the loaded tree or sys.modules; with a gate, as
        its check() answers."""
        problem = name_problem(path)
        derived = derive_file(path, None, None, [(1, problem)]) if problem else None
        if derived is None:
            file = str(self.root / path)
            module = types.ModuleType(path[:-3])
            module.__file__ = file
            try:
                code = compile(source, file, "exec", dont_inherit=True)
            except (SyntaxError, ValueError) as exc:
                derived = derive_file(path, None, None, [(getattr(exc, "lineno", None) or 1,
                                                          import_error_text(exc, file))])
            else:
                finished = run_bounded(lambda: exec(code, module.__dict__), seconds,
                                       name="quiver-preview")
                if not finished.done:
                    errors = [(1, f"TimeoutError: {path} did not finish importing within "
                                  f"{seconds:g} s; move slow work at module level into a function")]
                elif finished.error is not None:
                    errors = [(line_in_file(finished.error, file),
                               import_error_text(finished.error, file))]
                else:
                    errors = []
                derived = derive_file(path, None if errors else module, source, errors)
        others = [loaded.derived for p, loaded in self.loaded.items() if p != path]
        return Catalog(others + [derived]).entry(path, detail, gate)


def _unmoved(stamps: dict[str, Stamp], loaded: dict[str, Loaded]) -> bool:
    """Whether the tree is as loaded: what every tools/call asks first (R-host-call-lean),
    so answered with one pass and no list built, where telling what moved takes three."""
    if len(stamps) != len(loaded):
        return False
    for path, stamp in stamps.items():
        known = loaded.get(path)
        if known is None or known.stamp != stamp:
            return False
    return True
