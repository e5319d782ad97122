"""Opening a path under a folder so that it stays there (R-root-not-a-sandbox):
the host checks a `Path` argument before the call, but the tool opens it
later, and a folder on the way swapped for a symbolic link in between would be
followed. These helpers open every part relative to the folder opened before
it (dir_fd) and never follow a link, the way the studio's own Files source
does (R-root-confine-race).

Stdlib only, re-exported by quiver.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import IO, Any, NamedTuple

_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_MODES = {"r": os.O_RDONLY, "w": os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
          "a": os.O_WRONLY | os.O_CREAT | os.O_APPEND, "x": os.O_WRONLY | os.O_CREAT | os.O_EXCL}


class Entry(NamedTuple):
    """One entry of a folder as the folder records it: a link is a link, never what it points to."""

    name: str
    is_dir: bool
    is_file: bool
    is_link: bool


def _refused(message: str) -> Exception:
    from quiver import Refused  # quiver imports this module, so not at its top
    return Refused(message)


def _parts(root: Path, path: str | os.PathLike[str]) -> list[str]:
    """The names from `root` down to `path` (absolute under root, or relative to it)."""
    given = os.fspath(path)
    if "\x00" in given:
        raise _refused("path contains a NUL character; give a plain relative path")
    if os.path.isabs(given):
        try:
            given = str(Path(os.path.normpath(given)).relative_to(root))
        except ValueError:
            raise _refused(f"path {path} is not under the folder this tool is confined to; "
                           "give a path inside it") from None
    parts: list[str] = []
    for part in given.replace("\\", "/").split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                raise _refused(f"path {path} leaves the folder this tool is confined to; give a "
                               "path inside it")
            parts.pop()
        else:
            parts.append(part)
    return parts


def _open_folder(name: str, dir_fd: int, shown: str, path: str, create: bool) -> int:
    """The folder `name` in the open folder `dir_fd`, opened without following a link."""
    try:
        return os.open(name, _FOLDER, dir_fd=dir_fd)
    except FileNotFoundError:
        if not create:
            raise
        try:
            os.mkdir(name, dir_fd=dir_fd)
        except FileExistsError:
            pass  # made meanwhile: opened (and checked) like any other
        return _open_folder(name, dir_fd, shown, path, False)
    except OSError as exc:
        # O_DIRECTORY | O_NOFOLLOW answers ENOTDIR for a link and for a file: lstat tells which,
        # and a folder there now means a link was swapped back meanwhile.
        odd = exc.errno in (errno.ENOTDIR, errno.ELOOP)
        mode = os.lstat(name, dir_fd=dir_fd).st_mode if odd else 0
        if stat.S_ISLNK(mode) or stat.S_ISDIR(mode):
            raise _refused(f"path {path} goes through a symbolic link ({shown}), which could "
                           "lead out of the folder this tool is confined to; give a path that "
                           "does not") from None
        raise


def _walk(root: str | os.PathLike[str], path: str | os.PathLike[str], depth: int | None,
          create: bool) -> tuple[int, list[str]]:
    """The open folder of the first `depth` parts of `path` under `root` (all when None),
    and the parts."""
    real = Path(os.path.realpath(os.path.expanduser(os.fspath(root))))
    parts = _parts(real, path)
    shown = "/".join(parts) or "."  # relative, as the model named it: no host path in a message
    fd = os.open(real, _FOLDER)
    try:
        for index, name in enumerate(parts[:depth]):
            next_fd = _open_folder(name, fd, "/".join(parts[:index + 1]), shown, create)
            os.close(fd)
            fd = next_fd
    except BaseException:
        os.close(fd)
        raise
    return fd, parts


def open_under(root: str | os.PathLike[str], path: str | os.PathLike[str], mode: str = "r", *,
               encoding: str | None = None, errors: str | None = None, newline: str | None = None,
               parents: bool = False) -> IO[Any]:
    """Open the file `path` under the folder `root`, as open() would, with no
    symbolic link followed on the way, even one made after the host checked
    the path. `path` is a Path argument as the tool received it (absolute,
    under the root) or a path relative to `root`. A relative `root` is
    against the current folder, which the studio makes the host's working
    folder, so `settings.root` names the folder the host confined to.
    `parents=True` creates missing folders. A link, a path outside the root
    or a file that is not a regular one (a FIFO, a device) raises Refused;
    nothing was opened."""
    kind = mode.replace("b", "").replace("t", "").replace("+", "")
    if kind not in _MODES or len(kind) != 1:
        raise ValueError(f"mode {mode!r} is not one of r, w, a, x (with b, t or + as open() "
                         "takes them)")
    flags = _MODES[kind] | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK
    if "+" in mode:
        flags = (flags & ~os.O_WRONLY) | os.O_RDWR
    folder, parts = _walk(root, path, -1, parents)
    shown = "/".join(parts) or "."
    try:
        if not parts:
            raise _refused("path . is the folder itself; give the path of a file in it")
        try:
            fd = os.open(parts[-1], flags, 0o666, dir_fd=folder)
        except OSError as exc:
            if exc.errno == errno.ELOOP:  # the file itself is a link
                raise _refused(f"path {shown} is a symbolic link, which is not followed; give the "
                               "path of the real file") from None
            raise
    finally:
        os.close(folder)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _refused(f"path {shown} is not a regular file, so it is not opened")
        os.set_blocking(fd, True)
        return open(fd, mode, encoding=encoding, errors=errors, newline=newline)
    except BaseException:
        os.close(fd)
        raise


def list_under(root: str | os.PathLike[str], path: str | os.PathLike[str] = ".") -> list[Entry]:
    """The entries of the folder `path` under `root`, sorted by name, reached
    and read with no symbolic link followed (see open_under)."""
    folder, _ = _walk(root, path, None, False)
    try:
        with os.scandir(folder) as entries:
            return sorted((Entry(e.name, e.is_dir(follow_symlinks=False),
                                 e.is_file(follow_symlinks=False), e.is_symlink())
                           for e in entries), key=lambda e: e.name)
    finally:
        os.close(folder)
