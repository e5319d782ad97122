"""An operation's behaviour: file-level constants (RISK, TIMEOUT, ...) are the
defaults, `@tool(...)` overrides them per operation (R-file-behaviour), and the
optional module attributes (voice lines, EXPRESSIONS, ARG_TIMEOUT, ...;
R-module-attributes) ride along.
Every value is checked here, so a wrong one is an error with its line.
"""

from __future__ import annotations

import math
from typing import Any, Callable

RISKS = ("read", "write", "exec", "network")
REPLAYS = ("safe", "idempotent", "manual")
MAX_SECONDS = 600
# The closed vocabulary for EXPRESSIONS (R-module-attributes).
EMOTIONS = ("neutral", "happy", "excited", "sad", "crying", "angry", "surprised", "embarrassed",
            "thinking", "sleepy", "affectionate", "confused", "scared", "determined")


def _choice(options: tuple[str, ...]) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if value in options:
            return None
        return "write one of " + ", ".join(f'"{o}"' for o in options)
    return check


def _flag(value: Any) -> str | None:
    return None if isinstance(value, bool) else "write True or False"


def _seconds(value: Any) -> str | None:
    if (isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
            or value <= 0):
        return "write a number of seconds above 0"
    if value > MAX_SECONDS:
        return f"a call is never bounded above {MAX_SECONDS} s, so write {MAX_SECONDS} or less"
    return None


def _words(value: Any) -> str | None:
    ok = isinstance(value, (list, tuple, set, frozenset)) and all(isinstance(v, str) for v in value)
    return None if ok else 'write a list of strings, e.g. ["file.read"]'


def _text(value: Any) -> str | None:
    return None if isinstance(value, str) else "write a string"


def _lines(value: Any) -> str | None:
    ok = isinstance(value, str) or (isinstance(value, (list, tuple))
                                    and all(isinstance(v, str) for v in value))
    return None if ok else 'write a list of strings, e.g. ["Still working..."]'


def _faces(value: Any) -> str | None:
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        return 'write a dict such as {"focus": "thinking", "fail": "confused"}'
    wrong = [v for v in value.values() if v not in EMOTIONS]
    return f"{wrong[0]!r} is not an expression; use one of {', '.join(EMOTIONS)}" if wrong else None


# Per-operation options (also file-level defaults in capitals).
OPTION_CHECKS: dict[str, Callable[[Any], str | None]] = {
    "title": _text, "risk": _choice(RISKS), "timeout": _seconds, "read_only": _flag,
    "destructive": _flag, "concurrent": _flag, "replay": _choice(REPLAYS), "capabilities": _words,
}
# File-level only: the module attributes (R-module-attributes).
MODULE_CHECKS: dict[str, Callable[[Any], str | None]] = {
    "ARG_TIMEOUT": _flag, "MAX_TIMEOUT": _seconds, "INTERACTIVE": _flag, "ANNOUNCE": _text,
    "HEARTBEAT": _lines, "COMPLETE": _text, "FAIL": _text, "EXPRESSIONS": _faces,
    "BUILT_IN": _flag,
}


def file_defaults(namespace: dict, line_of: Callable[[str], int]) -> tuple[dict, list]:
    """The file's constants that pass their check, and an error for each that does not."""
    found: dict[str, Any] = {}
    errors: list[tuple[int, str]] = []
    checks = {**{k.upper(): v for k, v in OPTION_CHECKS.items() if k != "title"}, **MODULE_CHECKS}
    for name, check in checks.items():
        if name not in namespace:
            continue
        value = namespace[name]
        problem = check(value)
        if problem:
            errors.append((line_of(name), f"{name} is {value!r}; {problem}"))
        else:
            found[name] = value
    return found, errors


def resolve(defaults: dict, marks: dict, where: str, line: int) -> tuple[dict, list]:
    """One operation's behaviour from the file defaults and its @tool options."""
    errors: list[tuple[int, str]] = []
    chosen: dict[str, Any] = {}
    for key, value in marks.items():
        problem = OPTION_CHECKS[key](value) if key in OPTION_CHECKS else "it is not an option of @tool"
        if problem:
            errors.append((line, f"@tool({key}={value!r}) on {where}: {problem}"))
        else:
            chosen[key] = value

    def pick(key: str, fallback: Any) -> Any:
        if key in chosen:
            return chosen[key]
        return defaults.get(key.upper(), fallback)

    risk = pick("risk", "read")
    read_only = pick("read_only", risk == "read")
    heartbeat = defaults.get("HEARTBEAT", [])
    behaviour = {
        "title": chosen.get("title"),
        "risk": risk,
        "read_only": read_only,
        "destructive": pick("destructive", False),
        "timeout": pick("timeout", None),
        "replay": pick("replay", "manual"),
        "concurrent": pick("concurrent", read_only),
        "capabilities": sorted(pick("capabilities", [])),
        "interactive": defaults.get("INTERACTIVE", False),
        "arg_timeout": defaults.get("ARG_TIMEOUT", False),
        "max_timeout": defaults.get("MAX_TIMEOUT", MAX_SECONDS),
        "voice": {
            "announce": defaults.get("ANNOUNCE", ""),
            "heartbeat": [heartbeat] if isinstance(heartbeat, str) else list(heartbeat),
            "complete": defaults.get("COMPLETE", ""),
            "fail": defaults.get("FAIL", ""),
        },
        "expressions": dict(defaults.get("EXPRESSIONS", {})),
    }
    return behaviour, errors
