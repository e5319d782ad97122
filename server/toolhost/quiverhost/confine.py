"""Confinement (R-root-confine): a `Path` argument is resolved under the file's Root
setting and refused outside it: an absolute path, a `..` that leaves the
root, and any symbolic link on the way (the file itself or a parent
folder). An application boundary, not an OS sandbox: another process moving
folders between this check and the tool's open is not covered.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from quiver import Refused


class RootMissing(Exception):
    """The Root setting names a folder that is not there."""


def resolve_root(value: str, workdir: str) -> Path:
    """The real folder a Root setting names; relative roots are against the host's folder."""
    root = Path(os.path.realpath(os.path.join(workdir, os.path.expanduser(value))))
    if not root.is_dir():
        raise RootMissing(f"the folder this tool is confined to, {value!r}, does not exist "
                          "(or is not a folder); create it, or change the root setting")
    return root


def confine(value: str, root: Path) -> Path:
    """The path under `root` that `value` names, or Refused with the sentence why."""
    if not isinstance(value, str):
        raise Refused(f"path {value!r} is not a string; give a path relative to the folder "
                      "this tool is confined to")
    if value.startswith(("/", "\\")) or os.path.isabs(value):
        raise Refused(f"path {value} is absolute; give a path relative to the folder this tool "
                      "is confined to")
    if "\x00" in value:
        raise Refused("path contains a NUL character; give a plain relative path")
    parts: list[str] = []
    for part in value.replace("\\", "/").split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                raise Refused(f"path {value} leaves the folder this tool is confined to; give a "
                              "path inside it")
            parts.pop()
        else:
            parts.append(part)
    current = root
    for index, part in enumerate(parts):
        current = current / part
        try:
            mode = os.lstat(current).st_mode
        except FileNotFoundError:
            break  # the rest does not exist yet (a file about to be written)
        except OSError as exc:
            raise Refused(f"path {value} cannot be checked ({exc.strerror}); give another path")
        if stat.S_ISLNK(mode):
            shown = "/".join(parts[:index + 1])
            raise Refused(f"path {value} goes through a symbolic link ({shown}), which could lead "
                          "out of the folder this tool is confined to; give a path that does not")
    return root.joinpath(*parts)
