"""Installing a tree's dependencies (R-host-deps, R-deps-root): `requirements.txt`,
then `pyproject.toml`'s [project] dependencies, then `setup.sh`, from the root of
the checkout (the tree folder's parent, beside `tools/` as `hooks/` is) only;
stamped by a sha256 of those files so an unchanged tree installs nothing; one
time budget for all three. The log keeps the last install's transcript and a
line per run (R-deps-log). A failure is reported in the summary, never raised:
the tree works either way.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from typing import IO

from quiverhost import deps_log

FILES = ("requirements.txt", "pyproject.toml", "setup.sh")
STAMP = ".quiver-deps-stamp"


class StepFailed(Exception):
    pass


def stamp_of(root: Path, present: list[str]) -> str:
    digest = hashlib.sha256()
    for name in present:
        digest.update(name.encode() + b"\0" + (root / name).read_bytes() + b"\0")
    return digest.hexdigest()


def misplaced(tree: Path) -> list[str]:
    """Dependency files' names inside the tree folder: never read (R-deps-root), named so they get moved."""
    return [f"{tree.name}/{name}" for name in FILES if (tree / name).is_file()]


def misplaced_note(tree: Path, root: Path) -> str | None:
    found = misplaced(tree)
    if not found:
        return None
    files = ", ".join(found)
    verb = "is not a dependency file" if len(found) == 1 else "are not dependency files"
    return (f"{files} {verb}: dependency files sit at the root of the checkout beside "
            f"{tree.name}/, so move {'it' if len(found) == 1 else 'them'} to {root}/.")


def install(tree: str | Path, site: str | Path, log: str | Path, budget: float = 240.0,
            pip_args: list[str] | tuple[str, ...] = ()) -> dict:
    """Install what the checkout around `tree` declares into `site`; the one-line summary as a dict."""
    tree, site, log = Path(tree), Path(site), Path(log)
    root = tree.parent
    started = time.monotonic()
    present = [name for name in FILES if (root / name).is_file()]
    note = misplaced_note(tree, root)
    log.parent.mkdir(parents=True, exist_ok=True)
    old_transcript, runs = deps_log.read(log)

    def summary(status: str, error: str | None = None, detail: str | None = None) -> dict:
        seconds = round(time.monotonic() - started, 3)
        runs.append(deps_log.run_line(status, seconds, error or detail))
        return {"status": status, "log": str(log), "seconds": seconds, "error": error,
                "root": str(root), "files": present, "misplaced": misplaced(tree), "note": note}

    if not present:
        transcript = old_transcript or f"no {', '.join(FILES)} at the root of the checkout ({root})\n"
        done = summary("none", detail=note)
        deps_log.write_whole(log, transcript, runs)
        return done
    stamp = stamp_of(root, present)
    stamp_file = site / STAMP
    if stamp_file.is_file() and stamp_file.read_text().strip() == stamp:
        done = summary("unchanged", detail=f"{', '.join(present)} (sha256 {stamp[:12]})")
        deps_log.write_whole(log, old_transcript, runs)
        return done
    with open(log, "w", encoding="utf-8") as transcript:
        transcript.write(f"installing {', '.join(present)} from {root} (sha256 {stamp})\n")
        if note:
            transcript.write(note + "\n")
        done = _install(root, site, log, transcript, present, started + budget, budget, pip_args, summary)
        if done["status"] == "installed":
            stamp_file.write_text(stamp + "\n")
        transcript.write(f"== {done['status']}" + (f": {done['error']}" if done["error"] else "") + "\n\n")
        transcript.write(deps_log.runs_block(runs))
    return done


def _install(root: Path, site: Path, log: Path, transcript: IO[str], present: list[str], deadline: float,
             budget: float, pip_args, summary) -> dict:
    site.mkdir(parents=True, exist_ok=True)
    pip = [sys.executable, "-m", "pip", "install", "--target", str(site), "--upgrade",
           "--disable-pip-version-check", "--no-input", *pip_args]
    try:
        if "requirements.txt" in present:
            _run(pip + ["-r", "requirements.txt"], "pip install -r requirements.txt", root, deadline,
                 transcript, log, budget)
        if "pyproject.toml" in present:
            wanted = _project_dependencies(root / "pyproject.toml")
            if wanted:
                _run(pip + wanted, "pip install (pyproject.toml's dependencies)", root, deadline,
                     transcript, log, budget)
            else:
                transcript.write("pyproject.toml: no [project] dependencies\n")
        if "setup.sh" in present:
            _run(["bash", "setup.sh"], "bash setup.sh", root, deadline, transcript, log, budget,
                 {"QUIVER_SITE": str(site)})
    except StepFailed as exc:
        return summary("failed", str(exc))
    return summary("installed")


def _project_dependencies(path: Path) -> list[str]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise StepFailed(f"pyproject.toml is not valid TOML ({exc}); fix it and install again")
    wanted = data.get("project", {}).get("dependencies", [])
    if not isinstance(wanted, list) or not all(isinstance(w, str) for w in wanted):
        raise StepFailed("[project] dependencies in pyproject.toml must be a list of strings")
    return wanted


def _run(command: list[str], shown: str, cwd: Path, deadline: float, transcript: IO[str], log: Path, budget: float,
         extra_env: dict[str, str] | None = None) -> None:
    left = deadline - time.monotonic()
    if left <= 0:
        raise StepFailed(f"the {budget:g} s budget ran out before `{shown}`")
    transcript.write(f"$ {' '.join(command)}\n")
    transcript.flush()
    offset = transcript.tell()
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1", **(extra_env or {})}
    try:
        done = subprocess.run(command, cwd=cwd, stdout=transcript, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, timeout=left, env=env)
    except subprocess.TimeoutExpired:
        raise StepFailed(f"`{shown}` ran past the {budget:g} s budget; read the log") from None
    except OSError as exc:
        raise StepFailed(f"`{shown}` could not start ({exc.strerror})") from None
    finally:
        transcript.flush()
    if done.returncode != 0:
        said = _telling_line(log, offset)
        raise StepFailed(f"`{shown}` exited with {done.returncode}" + (f" ({said})" if said else "")
                         + "; read the log for the rest")


def _telling_line(log: Path, offset: int) -> str | None:
    """The step's own last ERROR line (pip's reason), else its last line: what a failed status shows."""
    with open(log, "rb") as read:
        read.seek(offset)
        lines = [line.strip() for line in read.read().decode("utf-8", "replace").splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("ERROR:")]
    said = (errors or lines or [None])[-1]
    return said[:300] if said else None
