"""A shell session whose directory survives between calls."""

import os
import subprocess

scope = "run"


class Shell:
    """The session persists for the whole run: cd, exports and background jobs survive between calls."""

    def __init__(self):
        self.cwd = os.getcwd()

    def run(self, cmd: str, timeout: int = 60) -> str:
        """Run one shell command in the session's current directory and return its combined output.

        Args:
            cmd: The command line to run.
            timeout: Seconds to wait before giving up.
        """
        done = subprocess.run(cmd, shell=True, cwd=self.cwd, capture_output=True,
                              text=True, timeout=timeout)
        return (done.stdout + done.stderr).strip()

    def cd(self, path: str) -> str:
        """Change the session's directory, for this call and every call after it.

        Args:
            path: Directory to move to.
        """
        self.cwd = os.path.normpath(os.path.join(self.cwd, path))
        return self.cwd
