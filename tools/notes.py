"""Notes the agent keeps on this machine, one file per subject."""

from pathlib import Path

from _helpers import plain_name

NOTES = Path.home() / "notes"


def write(subject: str, body: str) -> str:
    """Write one note, replacing whatever that subject held before: the whole body is the note, so read it first if you mean to add to it.

    Args:
        subject: File name of the note, without a directory or an extension.
        body: The note itself, in markdown.
    """
    NOTES.mkdir(exist_ok=True)
    path = NOTES / f"{plain_name(subject, 'subject')}.md"
    path.write_text(body, encoding="utf-8")
    return f"wrote {len(body)} characters to {path}"


def read(subject: str) -> str:
    """Read one note whole; a subject that was never written answers an error naming the subjects that exist.

    Args:
        subject: File name of the note, without a directory or an extension.
    """
    path = NOTES / f"{plain_name(subject, 'subject')}.md"
    if not path.exists():
        known = sorted(p.stem for p in NOTES.glob("*.md")) if NOTES.exists() else []
        raise FileNotFoundError(f"no note about {subject!r}; the subjects are: {', '.join(known) or 'none yet'}")
    return path.read_text(encoding="utf-8")
