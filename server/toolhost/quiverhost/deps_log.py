"""The dependency log (R-deps-log): the transcript of the last run that
installed (or tried to), then one line per run, newest last, the last
`KEPT_RUNS` of them. A run that installs nothing ("unchanged", "none") keeps
the transcript it found and only adds its line, so the pip output to read after
an ImportError is still there however many quiet runs came since.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

KEPT_RUNS = 50
RUNS_HEADER = "== runs, newest last =="


def split(text: str) -> tuple[str, list[str]]:
    """The log's transcript and its run lines; a log from before the run lines is all transcript."""
    if text.startswith(RUNS_HEADER + "\n"):
        return "", _lines(text[len(RUNS_HEADER) + 1:])
    at = text.rfind("\n" + RUNS_HEADER + "\n")
    if at < 0:
        return text, []
    return text[:at + 1], _lines(text[at + len(RUNS_HEADER) + 2:])


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


def read(log: Path) -> tuple[str, list[str]]:
    try:
        return split(log.read_text(encoding="utf-8", errors="replace"))
    except FileNotFoundError:
        return "", []


def run_line(status: str, seconds: float, detail: str | None) -> str:
    """One run as a line: `<UTC time> <status> in <s> s[: <detail>]`, the detail on one line."""
    when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    tail = f": {' '.join(detail.split())}" if detail else ""
    return f"{when} {status} in {seconds:.1f} s{tail}"


def runs_block(runs: list[str]) -> str:
    return RUNS_HEADER + "\n" + "".join(line + "\n" for line in runs[-KEPT_RUNS:])


def write_whole(log: Path, transcript: str, runs: list[str]) -> None:
    """Replace the log in one move, so a reader sees the old log or the new one."""
    if transcript and not transcript.endswith("\n"):
        transcript += "\n"
    temp = log.with_name(f".{log.name}.{os.getpid()}.tmp")
    temp.write_text(transcript + runs_block(runs), encoding="utf-8")
    os.replace(temp, log)
