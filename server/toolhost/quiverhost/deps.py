"""Installing a tree's dependencies (R-host-deps): `requirements.txt`, then
`pyproject.toml`'s [project] dependencies, then `setup.sh`, from the tree's
root only; stamped by a sha256 of those files so an unchanged tree installs
nothing; one time budget for all three; the whole transcript in a log. A
failure is reported in the summary, never raised: the tree works either way.
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

FILES = ("requirements.txt", "pyproject.toml", "setup.sh")
STAMP = ".quiver-deps-stamp"


class StepFailed(Exception):
    pass


def stamp_of(tree: Path, present: list[str]) -> str:
    digest = hashlib.sha256()
    for name in present:
        digest.update(name.encode() + b"\0" + (tree / name).read_bytes() + b"\0")
    return digest.hexdigest()


def install(tree: str | Path, site: str | Path, log: str | Path, budget: float = 240.0,
            pip_args: list[str] | tuple[str, ...] = ()) -> dict:
    """Install what the tree declares into `site`; the one-line summary as a dict."""
    tree, site, log = Path(tree), Path(site), Path(log)
    started = time.monotonic()
    present = [name for name in FILES if (tree / name).is_file()]
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "w", encoding="utf-8") as transcript:

        def summary(status: str, error: str | None = None) -> dict:
            transcript.write(f"== {status}" + (f": {error}" if error else "") + "\n")
            return {"status": status, "log": str(log),
                    "seconds": round(time.monotonic() - started, 3), "error": error}

        if not present:
            transcript.write(f"no {', '.join(FILES)} at the root of {tree}\n")
            return summary("none")
        stamp = stamp_of(tree, present)
        stamp_file = site / STAMP
        if stamp_file.is_file() and stamp_file.read_text().strip() == stamp:
            transcript.write(f"{', '.join(present)} unchanged since the last install (sha256 {stamp})\n")
            return summary("unchanged")
        site.mkdir(parents=True, exist_ok=True)
        deadline = started + budget
        pip = [sys.executable, "-m", "pip", "install", "--target", str(site), "--upgrade",
               "--disable-pip-version-check", "--no-input", *pip_args]
        try:
            if "requirements.txt" in present:
                _run(pip + ["-r", "requirements.txt"], tree, deadline, transcript, budget)
            if "pyproject.toml" in present:
                wanted = _project_dependencies(tree / "pyproject.toml")
                if wanted:
                    _run(pip + wanted, tree, deadline, transcript, budget)
                else:
                    transcript.write("pyproject.toml: no [project] dependencies\n")
            if "setup.sh" in present:
                _run(["bash", "setup.sh"], tree, deadline, transcript, budget,
                     {"QUIVER_SITE": str(site)})
        except StepFailed as exc:
            return summary("failed", str(exc))
        stamp_file.write_text(stamp + "\n")
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


def _run(command: list[str], cwd: Path, deadline: float, transcript: IO[str], budget: float,
         extra_env: dict[str, str] | None = None) -> None:
    left = deadline - time.monotonic()
    shown = " ".join(command)
    if left <= 0:
        raise StepFailed(f"the {budget:g} s budget ran out before `{shown}`")
    transcript.write(f"$ {shown}\n")
    transcript.flush()
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
        raise StepFailed(f"`{shown}` exited with {done.returncode}; read the log for why")
