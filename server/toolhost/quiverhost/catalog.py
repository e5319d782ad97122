"""The tree at one moment: every file's entry in path order, the rules that
span files (one tool name per tree: the later file is in error), and which
operations are offered. Built once per change; tools/list only reads it.
"""

from __future__ import annotations

import difflib
import sys
import time
from typing import Callable

from .bounded import run_bounded
from .entries import Derived, Op
from .errors import exception_text


class Catalog:
    def __init__(self, files: list[Derived]) -> None:
        self.files = sorted(files, key=lambda d: d.path)
        self.clashes: dict[str, list[tuple[int, str]]] = {}
        owner: dict[str, str] = {}
        for derived in self.files:
            for op in derived.ops:
                if op.name in owner:
                    self.clashes.setdefault(derived.path, []).append(
                        (op.line, f"the tool name `{op.name}` is already taken by {owner[op.name]}, "
                                  "which comes first; rename it (a tool is named file__function, "
                                  'or SCHEMA["name"])'))
                else:
                    owner[op.name] = derived.path
        self.ops: dict[str, tuple[Op, Derived]] = {}
        for derived in self.files:
            if self.offered(derived):
                for op in derived.ops:
                    self.ops[op.name] = (op, derived)

    def offered(self, derived: Derived) -> bool:
        return not derived.errors and derived.path not in self.clashes

    def entries(self, detail: bool = False, gate: "CheckGate | None" = None) -> list[dict]:
        """Every file's entry; with a gate, a tool its module's check() holds back
        marks the file not offered, as tools/list leaves it out (R-module-check)."""
        return [self._entry(d, detail, gate) for d in self.files]

    def entry(self, path: str, detail: bool = False, gate: "CheckGate | None" = None) -> dict | None:
        derived = self.file(path)
        return None if derived is None else self._entry(derived, detail, gate)

    def _entry(self, derived: Derived, detail: bool, gate: "CheckGate | None") -> dict:
        return derived.entry(detail, self.clashes.get(derived.path, ()),
                             self.unavailable(derived, gate))

    def unavailable(self, derived: Derived, gate: "CheckGate | None") -> str | None:
        """Why a file without errors offers nothing right now, or None. Not an
        error: the file is fine and a publish takes it; its environment is not."""
        if gate is None or not self.offered(derived):
            return None
        for op in derived.ops:
            why = None if op.check is None else gate.why_not(op.check)
            if why is not None:
                return (f"{why}, so {op.name} is not offered until check() answers True "
                        f"(it is asked at most every {gate.TTL:g} s)")
        return None

    def file(self, path: str) -> Derived | None:
        return next((d for d in self.files if d.path == path), None)

    def find(self, name: str) -> tuple[Op, Derived] | None:
        return self.ops.get(name)

    def unknown(self, name: str) -> str:
        """Why no offered tool is called `name`: the file in error that would
        offer it, with its first error (R-host-import-error), or the names it
        could have meant."""
        withheld = self._withheld(name)
        if withheld is not None:
            line, message = sorted(withheld.errors + self.clashes.get(withheld.path, []))[0]
            if withheld.module is None:
                return (f"Unknown tool `{name}`: {withheld.path} does not import (line {line}: "
                        f"{message}), so it offers no tools until it is fixed.")
            return (f"Unknown tool `{name}`: {withheld.path} has errors (line {line}: {message}), "
                    "so it offers no tools until they are fixed.")
        names = list(self.ops)
        close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
        if close:
            return (f"Unknown tool `{name}`; did you mean {' or '.join(close)}? Call one of them "
                    "by its exact name.")
        shown = ", ".join(names[:20]) + (", ..." if len(names) > 20 else "")
        return f"Unknown tool `{name}`; the tools offered are: {shown or 'none'}."

    def _withheld(self, name: str) -> Derived | None:
        """The file in error that offers `name`: by its derived operations, or,
        when it did not import, by the file part of the name (file__function,
        or a module's bare stem)."""
        stem = name.split("__", 1)[0]
        for derived in self.files:
            if derived.kind == "helper" or self.offered(derived):
                continue
            if any(op.name == name for op in derived.ops) or (
                    derived.module is None and derived.stem in (stem, name)):
                return derived
        return None

    def listing(self, gate: "CheckGate") -> list[dict]:
        return [op.listing() for op, _ in self.ops.values()
                if op.check is None or gate.allows(op.check)]


class CheckGate:
    """A module's check() (R-module-check): asked before a tool is offered,
    cached 30 s; when it raises or does not answer in time, the last answer
    stands (none yet reads as unavailable). It is tool code on the thread that
    reads requests, hence the bound."""

    TTL = 30.0
    SECONDS = 5.0

    def __init__(self) -> None:
        # Per check: when it was asked, and None (offered) or why not.
        self._answers: dict[Callable, tuple[float, str | None]] = {}

    def allows(self, check: Callable[[], object]) -> bool:
        return self.why_not(check) is None

    def why_not(self, check: Callable[[], object], max_age: float | None = None) -> str | None:
        """`max_age`: how old an answer the asker accepts, never above TTL (a
        run asks each turn with the age it was configured with)."""
        now = time.monotonic()
        cached = self._answers.get(check)
        age = self.TTL if max_age is None else min(max(max_age, 0.0), self.TTL)
        if cached and now - cached[0] < age:
            return cached[1]
        finished = run_bounded(lambda: bool(check()), self.SECONDS, name="quiver-check")
        if finished.done and finished.error is None:
            why = None if finished.value else "check() answered False"
        else:
            problem = (f"check() did not answer within {self.SECONDS:g} s" if not finished.done
                       else f"check() raised {exception_text(finished.error)}")
            print(f"quiver-toolhost: {problem} in {getattr(check, '__module__', '?')}; keeping "
                  "its last answer", file=sys.stderr)
            # Kept for the TTL too, so a check that hangs is not waited on by every list.
            why = cached[1] if cached else problem
        self._answers[check] = (now, why)
        return why
