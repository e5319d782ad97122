"""Where the host keeps a cut result whole (R-cut-kept, R-cut-bounded): in
`.results/` of its working folder, the folder the studio makes the host's own,
as `tool-<uuid>.txt`. Written without following a link a tool may have planted
there (open_under), and bounded: the oldest files go once the folder holds more
than KEEP_FILES of them or KEEP_BYTES in all, never the one just written.
"""

from __future__ import annotations

import os
import stat
import uuid

from quiver import Refused, open_under

RESULTS_FOLDER = ".results"
KEEP_FILES = 50
KEEP_BYTES = 64 * 1024 * 1024
_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class NotKept(Exception):
    """The whole text could not be kept; the message says why, in words a model can read."""


def keep_whole(text: str, workdir: str) -> tuple[str, str]:
    """Write `text` to a new file of `workdir`/.results; its path relative to
    `workdir` and its absolute path, or NotKept."""
    relative = f"{RESULTS_FOLDER}/tool-{uuid.uuid4()}.txt"
    try:
        with open_under(workdir, relative, "x", encoding="utf-8", parents=True) as kept:
            kept.write(text)
    except Refused as exc:
        raise NotKept(str(exc)) from None
    except OSError as exc:
        raise NotKept(f"{RESULTS_FOLDER} cannot be written ({exc.strerror or exc})") from None
    _prune(workdir, relative.rsplit("/", 1)[1])
    return relative, os.path.join(os.path.realpath(workdir), relative)


def _prune(workdir: str, newest: str) -> None:
    """Drop the oldest kept files past the bounds; a file another call removed meanwhile is skipped."""
    try:
        base = os.open(os.path.realpath(workdir), _FOLDER)
    except OSError:
        return
    try:
        folder = os.open(RESULTS_FOLDER, _FOLDER, dir_fd=base)
    except OSError:
        os.close(base)
        return  # swapped for a link since the write: nothing of it is touched
    os.close(base)
    try:
        kept = []
        with os.scandir(folder) as entries:
            for entry in entries:
                if not (entry.name.startswith("tool-") and entry.name.endswith(".txt")):
                    continue
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if stat.S_ISREG(info.st_mode):
                    kept.append((info.st_mtime_ns, entry.name, info.st_size))
        kept.sort(key=lambda item: (item[1] == newest, item[0]), reverse=True)  # newest first
        total = 0
        for index, (_, name, size) in enumerate(kept):
            total += size
            if index == 0 or (index < KEEP_FILES and total <= KEEP_BYTES):
                continue
            try:
                os.unlink(name, dir_fd=folder)
            except OSError:
                pass
    finally:
        os.close(folder)
