"""Files under one folder that the agent's builder chooses.

The host checks each Path argument, but opening it is this file's work: it
goes through open_under and list_under, which follow no symbolic link, not
even one made after the check (R-root-not-a-sandbox).
"""

import os
from pathlib import Path

from quiver import Root, list_under, open_under, tool

TITLE = "Files"
RISK = "read"


class Settings:
    """What the builder sets once for this source; the model never sees it.

    Attributes:
        root: Folder every path argument is confined to.
        max_bytes: Largest file read whole.
    """

    root: Root = "."
    max_bytes: int = 1_000_000


@tool
def read(path: Path, settings: Settings) -> str:
    """Read one text file under the root; refuses paths outside it and files over max_bytes.

    Args:
        path: File to read, relative to the root.
    """
    with open_under(settings.root, path, encoding="utf-8", errors="replace") as file:
        size = os.fstat(file.fileno()).st_size
        if size > settings.max_bytes:
            raise ValueError(f"{path.name} is {size:,} bytes, over the {settings.max_bytes:,} this "
                             "source reads whole; read a smaller file")
        return file.read()


@tool
def list_folder(settings: Settings, path: Path = Path(".")) -> str:
    """List one folder under the root, one level deep: folders first with a slash after them, then files.

    Args:
        path: Folder to list, relative to the root; the root itself when omitted.
    """
    try:
        entries = list_under(settings.root, path)
    except (NotADirectoryError, FileNotFoundError):
        raise NotADirectoryError(f"{path.name or 'the root'} is not a folder; list its parent "
                                 "instead") from None
    entries.sort(key=lambda e: (not e.is_dir, e.name))
    return "\n".join(e.name + ("/" if e.is_dir else "") for e in entries) or "(empty)"


@tool(risk="write", title="Write a file")
def write(path: Path, text: str, settings: Settings, overwrite: bool = False) -> str:
    """Write one text file under the root, creating its folders; refuses to replace a file unless overwrite is true.

    Args:
        path: File to write, relative to the root.
        text: The whole content of the file.
        overwrite: Replace the file if it already exists.
    """
    try:
        with open_under(settings.root, path, "w" if overwrite else "x", encoding="utf-8",
                        parents=True) as file:
            file.write(text)
    except FileExistsError:
        raise FileExistsError(f"{path.name} already exists; read it first, then write with "
                              "overwrite=true if you mean to replace it") from None
    return f"wrote {len(text):,} characters to {path.name}"
