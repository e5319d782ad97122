"""Throwaway trees for the tests: write files into a temp folder, load them,
and close the tree afterwards so sys.modules and sys.meta_path are left clean.
Also the host as a subprocess speaking JSON-RPC, for protocol-level tests.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import tempfile
import textwrap
import threading
import unittest
from pathlib import Path

from quiverhost.calls import Calls
from quiverhost.loader import Tree

HOST_DIR = Path(__file__).resolve().parent.parent
RUN_PY = HOST_DIR / "run.py"
REPO = HOST_DIR.parent.parent


def write_file(folder: Path, name: str, text: str) -> Path:
    """Write `text` (dedented) and move the mtime forward, so a rewrite within
    the same clock tick is still seen as a change."""
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    before = path.stat().st_mtime_ns if path.exists() else 0
    text = textwrap.dedent(text)
    path.write_text(text[1:] if text.startswith("\n") else text, encoding="utf-8")
    later = max(path.stat().st_mtime_ns, before + 1_000_000_000)
    os.utime(path, ns=(later, later))
    return path


class TreeCase(unittest.TestCase):
    def folder(self) -> Path:
        made = tempfile.TemporaryDirectory(prefix="quiver-test-")
        self.addCleanup(made.cleanup)
        return Path(made.name).resolve()

    def tree(self, files: dict[str, str], root: Path | None = None) -> Tree:
        root = root or self.folder() / "tools"
        root.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            write_file(root, name, text)
        tree = Tree(root)
        self.addCleanup(tree.close)
        tree.refresh()
        return tree

    def entry(self, source: str, name: str = "t.py", detail: bool = False) -> dict:
        """The catalog entry of one file in a tree of its own."""
        tree = self.tree({name: source})
        return tree.catalog.entry(name, detail)

    def tool(self, source: str, name: str = "t.py") -> dict:
        """The only tool of one file, failing the test if the file has errors."""
        entry = self.entry(source, name)
        self.assertEqual(entry["errors"], [])
        self.assertEqual(len(entry["tools"]), 1)
        return entry["tools"][0]

    def errors(self, source: str, name: str = "t.py") -> list[tuple[int, str]]:
        entry = self.entry(source, name)
        self.assertFalse(entry["offered"])
        return [(e["line"], e["message"]) for e in entry["errors"]]

    def calls(self, files: dict[str, str], workdir: Path | None = None) -> Calls:
        return Calls(self.tree(files), str(workdir) if workdir else None)

    def text(self, result: dict) -> str:
        return "".join(item.get("text", "") for item in result["content"])


class HostProcess:
    """`run.py serve` in a subprocess; messages in, messages out, one per line."""

    def __init__(self, tree: Path, *extra: str, cwd: Path | None = None,
                 env: dict | None = None) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(RUN_PY), "serve", "--tree", str(tree), *extra],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd=cwd, env=env)
        self.messages: queue.Queue = queue.Queue()
        self.stderr: list[bytes] = []
        self._ids = iter(range(1, 10_000))
        self._readers = [threading.Thread(target=self._read, daemon=True),
                         threading.Thread(target=self._drain, daemon=True)]
        for reader in self._readers:
            reader.start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.messages.put(line)
        self.messages.put(None)

    def _drain(self) -> None:
        for line in self.process.stderr:
            self.stderr.append(line)

    def send_raw(self, line: bytes) -> None:
        self.process.stdin.write(line)
        self.process.stdin.flush()

    def send(self, message: dict) -> None:
        self.send_raw((json.dumps(message) + "\n").encode())

    def request(self, method: str, params: dict | None = None) -> int:
        request_id = next(self._ids)
        message = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return request_id

    def next_message(self, timeout: float = 10.0) -> dict:
        line = self.messages.get(timeout=timeout)
        if line is None:
            raise EOFError("the host closed its output")
        return json.loads(line)

    def wait_for(self, predicate, timeout: float = 10.0) -> tuple[dict, list[dict]]:
        """The first message matching `predicate`, and the ones seen before it."""
        seen = []
        while True:
            message = self.next_message(timeout)
            if predicate(message):
                return message, seen
            seen.append(message)

    def reply(self, request_id: int, timeout: float = 10.0) -> dict:
        return self.wait_for(lambda m: m.get("id") == request_id and "method" not in m, timeout)[0]

    def ask(self, method: str, params: dict | None = None, timeout: float = 10.0) -> dict:
        return self.reply(self.request(method, params), timeout)

    def initialize(self) -> dict:
        answer = self.ask("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                         "clientInfo": {"name": "test", "version": "0"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return answer

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        elif not self.process.stdin.closed:
            self.process.stdin.close()
        for reader in self._readers:
            reader.join(timeout=5)
        self.process.stdout.close()
        self.process.stderr.close()


def big_tool_file(functions: int = 19) -> str:
    """A realistic tool file of about 300 lines (19 functions): docstrings with
    Args, a Settings class, and every row of the type table."""
    head = ['"""A generated tool file for timing derivation."""', "",
            "from typing import Literal", "", "from quiver import tool", "",
            'TITLE = "Generated"', 'RISK = "read"', "", "",
            "class Settings:", '    """Settings.', "", "    Attributes:",
            "        depth: How deep.", '    """', "", "    depth: int = 2", "", ""]
    body = []
    for index in range(functions):
        body += [f"@tool(timeout={index + 1})",
                 f"def op_{index}(name: str, count: int = {index}, tags: list[str] = [],",
                 '           mode: Literal["fast", "slow"] = "fast", since: float | None = None,',
                 "           extra: dict[str, int] = {}, settings: Settings = None) -> str:",
                 f'    """Operation number {index}: does one thing and refuses another.',
                 "", "    Args:", "        name: The name to use.", "        count: How many.",
                 "        tags: Labels to attach.", "        mode: How to go about it.",
                 "        since: Only after this time.", '    """',
                 f"    return name * count + str({index})", ""]
    return "\n".join(head + body) + "\n"
