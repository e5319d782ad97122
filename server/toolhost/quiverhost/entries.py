"""The shapes derivation produces: an operation (what the catalog shows and
what a call needs) and a file's derived entry, with their JSON forms for the
catalog and for MCP tools/list.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType
from typing import Callable

from .settings import SettingsModel
from .signature import Signature


@dataclass
class Op:
    """One operation: what the catalog shows and what a call needs."""

    name: str
    file: str
    line: int
    style: str  # "function" | "method" | "execute"
    attr: str
    func: Callable | None
    title: str
    description: str
    input_schema: dict
    scope: str
    behaviour: dict
    signature: Signature | None = None
    check: Callable | None = None
    _listing: dict | None = field(default=None, repr=False)

    def entry(self, detail: bool) -> dict:
        b = self.behaviour
        entry = {"name": self.name, "title": self.title, "description": self.description,
                 "input_schema": self.input_schema, "scope": self.scope, "risk": b["risk"],
                 "read_only": b["read_only"], "destructive": b["destructive"],
                 "timeout": b["timeout"], "replay": b["replay"]}
        if detail:
            entry["behaviour"] = {key: b[key] for key in (
                "concurrent", "capabilities", "interactive", "arg_timeout", "max_timeout",
                "voice", "expressions")}
            # A run asks quiver/offered each turn about these (R-check-turn).
            entry["behaviour"]["checked"] = self.check is not None
            if "built_in" in b:  # the provider's own tool, never run here (R-builtin-provider)
                entry["behaviour"]["built_in"] = b["built_in"]
            # A Tool class's: where it runs, and which answers it gives per call (R-tool-class-per-call).
            entry["behaviour"].update({k: b[k] for k in ("runtime", "per_call") if k in b})
        return entry

    def listing(self) -> dict:
        """The MCP tools/list item; built once, since tools/list runs on every turn."""
        if self._listing is None:
            b = self.behaviour
            self._listing = {
                "name": self.name, "title": self.title, "description": self.description,
                "inputSchema": self.input_schema,
                "annotations": {"title": self.title, "readOnlyHint": b["read_only"],
                                "destructiveHint": b["destructive"],
                                "idempotentHint": b["replay"] in ("safe", "idempotent")},
                "_meta": {"quiver/file": self.file, "quiver/risk": b["risk"],
                          "quiver/timeout": b["timeout"], "quiver/replay": b["replay"],
                          "quiver/scope": self.scope, "quiver/concurrent": b["concurrent"],
                          "quiver/capabilities": b["capabilities"]},
            }
        return self._listing


@dataclass
class Derived:
    """Everything derived from one file of the tree."""

    path: str
    kind: str
    module: ModuleType | None = None
    title: str | None = None
    description: str | None = None
    ops: list[Op] = field(default_factory=list)
    settings: SettingsModel | None = None
    errors: list[tuple[int, str]] = field(default_factory=list)
    scope: str = "call"
    cls: type | None = None
    init_takes_ctx: bool = False
    # A Tool-class file's check_secret(field, value) and credential_help (R-tool-class-secrets).
    secret_check: Callable | None = None
    credential_help: str | None = None

    @property
    def stem(self) -> str:
        return self.path[:-3]

    def entry(self, detail: bool = False, more_errors: list | tuple = (),
              unavailable: str | None = None) -> dict:
        """`unavailable`: why a file without errors offers nothing now (its check())."""
        errors = sorted(self.errors + list(more_errors), key=lambda e: e[0])
        entry = {"path": self.path, "kind": self.kind, "title": self.title,
                 "description": self.description,
                 "offered": not errors and unavailable is None, "unavailable": unavailable,
                 "tools": [op.entry(detail) for op in self.ops],
                 "settings_schema": self.settings.schema if self.settings else None,
                 "errors": [{"line": line, "message": message} for line, message in errors]}
        if detail:
            namespace = vars(self.module) if self.module else {}
            entry["detail"] = {
                "module": self.stem, "scope": self.scope,
                "check_secret": self.secret_check is not None
                or callable(namespace.get("check_secret")),
                "credential_help": self.credential_help or (namespace.get("CREDENTIAL_HELP")
                if isinstance(namespace.get("CREDENTIAL_HELP"), str) else None),
            }
        return entry


def humanize(name: str) -> str:
    words = name.replace("_", " ").strip() or name
    return words[0].upper() + words[1:]
