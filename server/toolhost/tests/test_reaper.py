"""The host reaps the processes its tools leave behind (R-host-reap): orphans
of a tool's processes, and children a finished call never waited for; while a
tool's own waits (subprocess.run, a Popen kept for a later call) still get
their exit status."""

import ctypes
import os
import time

from tests.support import HostProcess, TreeCase, write_file

PR_SET_CHILD_SUBREAPER = 36

FORKS = '''
import os
import subprocess
import sys

SPAWNER = """
import os, sys, time
for _ in range(50):
    if os.fork() == 0:
        fd = os.open("/proc/self/comm", os.O_WRONLY)
        os.write(fd, sys.argv[1].encode())
        os.close(fd)
        time.sleep(0.3)
        os._exit(0)
"""


def grandchildren(tag: str) -> str:
    """Start a process that forks 50 children and exits at once, leaving them orphans."""
    subprocess.run([sys.executable, "-c", SPAWNER, tag], check=True)
    return "started"


def children(tag: str) -> str:
    """Fork 50 children that exit at once, and wait for none of them."""
    for _ in range(50):
        if os.fork() == 0:
            fd = os.open("/proc/self/comm", os.O_WRONLY)
            os.write(fd, tag.encode())
            os.close(fd)
            os._exit(0)
    return "forked"
'''

WAITS = '''
import subprocess

KEPT = {}


def statuses(code: int) -> list[int]:
    """Run `exit code` twenty times, answering each exit status."""
    return [subprocess.run(["sh", "-c", f"exit {code}"]).returncode for _ in range(20)]


def start(code: int) -> str:
    """Start `exit code` and keep it for `finish`."""
    KEPT["process"] = subprocess.Popen(["sh", "-c", f"exit {code}"])
    return "started"


def finish() -> int:
    """Wait for the process `start` kept."""
    return KEPT.pop("process").wait()
'''


def _comm_and_state(pid: str) -> tuple[str, str]:
    with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as stat:
        text = stat.read()
    return text[text.index("(") + 1:text.rindex(")")], text[text.rindex(")") + 2]


def zombies(tag: str) -> list[int]:
    """The zombies on this machine named `tag`."""
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                comm, state = _comm_and_state(pid)
            except (OSError, ValueError):
                continue
            if comm == tag and state == "Z":
                found.append(int(pid))
    return found


class ReaperTests(TreeCase):
    def setUp(self):
        # This process adopts what escapes the host, so a host that does not reap
        # leaves its zombies here, where the test can count and then reap them.
        self.prctl = ctypes.CDLL(None, use_errno=True).prctl
        self.assertEqual(self.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), 0)
        self.addCleanup(self.prctl, PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
        self.tag = f"qzreap{os.getpid() % 100000}"
        self.addCleanup(self._reap_adopted)

    def _reap_adopted(self):
        for pid in zombies(self.tag):
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass  # another process's zombie: not this test's to reap

    def start(self, files: dict[str, str]) -> HostProcess:
        root = self.folder() / "tools"
        for name, text in files.items():
            write_file(root, name, text)
        host = HostProcess(root)
        self.addCleanup(host.close)
        host.initialize()
        return host

    def call(self, host: HostProcess, name: str, arguments: dict) -> dict:
        result = host.ask("tools/call", {"name": name, "arguments": arguments})["result"]
        self.assertFalse(result["isError"], result)
        return result

    def settled(self, seconds: float = 5.0) -> list[int]:
        """The tagged zombies once none is left, or after `seconds`."""
        until = time.monotonic() + seconds
        while (left := zombies(self.tag)) and time.monotonic() < until:
            time.sleep(0.1)
        return left

    def test_orphans_of_a_tools_processes_are_reaped(self):
        host = self.start({"forks.py": FORKS})
        self.call(host, "forks__grandchildren", {"tag": self.tag})
        time.sleep(0.5)  # past the orphans' own 0.3 s
        self.assertEqual(self.settled(), [])

    def test_children_a_finished_call_never_waited_for_are_reaped(self):
        host = self.start({"forks.py": FORKS})
        self.call(host, "forks__children", {"tag": self.tag})
        self.assertEqual(self.settled(), [])

    def test_a_tools_own_waits_keep_their_exit_status_while_orphans_are_reaped(self):
        host = self.start({"forks.py": FORKS, "waits.py": WAITS})
        self.call(host, "waits__start", {"code": 5})
        spawned = host.request("tools/call", {"name": "forks__grandchildren",
                                              "arguments": {"tag": self.tag}})
        statuses = self.call(host, "waits__statuses", {"code": 3})
        self.assertEqual(statuses["content"][0]["text"], str([3] * 20))
        self.assertFalse(host.reply(spawned)["result"]["isError"])
        time.sleep(0.5)  # the kept process is long done, and the orphans with it
        self.assertEqual(self.call(host, "waits__finish", {})["content"][0]["text"], "5")
        self.assertEqual(self.settled(), [])
