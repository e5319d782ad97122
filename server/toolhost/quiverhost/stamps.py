"""The (mtime, size) of each *.py file of a tree, which every tools/call looks
at (an edit is seen by the next call), so looked at cheaply: the folder is
listed again only when its own mtime moved, which adding, removing or renaming
a file does; otherwise the files of the last listing are stat'ed one by one.
For a small tree that is two system calls where a listing takes six.
"""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

Stamp = tuple[int, int]

# A listing is trusted only once the folder's mtime is this far behind it, so a
# change made during the same clock tick cannot leave the mtime where it was.
# The kernel stamps files from a clock that ticks every few ms; a filesystem that
# keeps whole seconds (or two, FAT) shows it by mtimes with no sub-ms digits.
FINE_NS = 50_000_000
COARSE_NS = 2_000_000_000


class Stamps:
    def __init__(self, root: Path) -> None:
        self.root = str(root)
        # The folder's mtime at the last trusted listing, and its files' (name, path).
        self._listing: tuple[int, list[tuple[str, str]]] | None = None
        self.listings = 0  # how many times the folder was listed (the tests read it)

    def __call__(self) -> dict[str, Stamp]:
        now = time.time_ns()
        try:
            folder = os.stat(self.root).st_mtime_ns
        except FileNotFoundError:
            self._listing = None
            return {}
        if self._listing is not None and self._listing[0] == folder:
            known = self._known(self._listing[1])
            if known is not None:
                return known
        found = self._list()
        margin = FINE_NS if folder % 1_000_000 else COARSE_NS
        self._listing = ((folder, [(name, os.path.join(self.root, name)) for name in found])
                         if folder + margin < now else None)
        return found

    def _known(self, files: list[tuple[str, str]]) -> dict[str, Stamp] | None:
        """The stamps of the listed files; None if one is gone or no longer a file."""
        found: dict[str, Stamp] = {}
        for name, path in files:
            try:
                status = os.stat(path)
            except OSError:
                return None
            if not stat.S_ISREG(status.st_mode):
                return None
            found[name] = (status.st_mtime_ns, status.st_size)
        return found

    def _list(self) -> dict[str, Stamp]:
        self.listings += 1
        found: dict[str, Stamp] = {}
        try:
            entries = os.scandir(self.root)
        except FileNotFoundError:
            return found
        with entries:
            for entry in entries:
                # Subfolders are not scanned; only the tree's own *.py files count.
                if entry.name.endswith(".py") and entry.is_file():
                    status = entry.stat()
                    found[entry.name] = (status.st_mtime_ns, status.st_size)
        return found
