"""Files under one folder that the agent's builder chooses."""

from pathlib import Path

from quiver import Root, tool

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
    size = path.stat().st_size
    if size > settings.max_bytes:
        raise ValueError(f"{path.name} is {size:,} bytes, over the {settings.max_bytes:,} this "
                         "source reads whole; read a smaller file")
    return path.read_text(encoding="utf-8", errors="replace")


@tool
def list_folder(path: Path = Path(".")) -> str:
    """List one folder under the root, one level deep: folders first with a slash after them, then files.

    Args:
        path: Folder to list, relative to the root; the root itself when omitted.
    """
    if not path.is_dir():
        raise NotADirectoryError(f"{path.name or 'the root'} is not a folder; list its parent instead")
    entries = sorted(path.iterdir(), key=lambda p: (not p.is_dir(), p.name))
    return "\n".join(p.name + ("/" if p.is_dir() else "") for p in entries) or "(empty)"


@tool(risk="write", title="Write a file")
def write(path: Path, text: str, overwrite: bool = False) -> str:
    """Write one text file under the root, creating its folders; refuses to replace a file unless overwrite is true.

    Args:
        path: File to write, relative to the root.
        text: The whole content of the file.
        overwrite: Replace the file if it already exists.
    """
    if path.exists() and not overwrite:
        raise FileExistsError(f"{path.name} already exists; read it first, then write with "
                              "overwrite=true if you mean to replace it")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return f"wrote {len(text):,} characters to {path.name}"
