"""Reading Google-style docstrings (R-schema-docstring): the first line is the
description, `Args:` describes parameters, `Attributes:` describes Settings
fields, and everything else is for the human reading the file.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field

# A section header ends the previous section; only these two are read.
_SECTION = re.compile(r"^([A-Z][A-Za-z ]*):\s*$")
_READ = {"Args": "args", "Arguments": "args", "Parameters": "args", "Attributes": "attributes"}
# `name: text` or `name (type): text`
_ENTRY = re.compile(r"^\*{0,2}([A-Za-z_][A-Za-z0-9_]*)\s*(?:\([^)]*\))?\s*:\s*(.*)$")


@dataclass
class Docstring:
    first_line: str | None = None
    args: dict[str, str] = field(default_factory=dict)
    attributes: dict[str, str] = field(default_factory=dict)


def parse(doc: str | None) -> Docstring:
    if not doc or not doc.strip():
        return Docstring()
    lines = inspect.cleandoc(doc).splitlines()
    parsed = Docstring(first_line=lines[0].strip() or None)
    target: dict[str, str] | None = None
    name: str | None = None
    indent = 0
    for line in lines[1:]:
        header = _SECTION.match(line)
        if header:
            kind = _READ.get(header.group(1))
            target = getattr(parsed, kind) if kind else None
            name = None
            continue
        if target is None or not line.strip():
            continue
        here = len(line) - len(line.lstrip())
        if here == 0:
            # Unindented prose after a section ends it (entries sit under their header).
            target = name = None
            continue
        entry = _ENTRY.match(line.strip())
        if entry and (name is None or here <= indent):
            name, indent = entry.group(1), here
            target[name] = entry.group(2).strip()
        elif name is not None:
            # A continuation line, indented under its entry.
            target[name] = (target[name] + " " + line.strip()).strip()
    return parsed
