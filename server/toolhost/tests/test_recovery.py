"""What the host tells the studio so it can replace a host that will not
recover on its own (R-host-runaway, R-host-memory): a timed-out call whose
thread goes on, the end of that thread, the host's memory after a call; and
its address-space cap, under which a tool's MemoryError is an ordinary answer."""

from tests.support import HostProcess, TreeCase, write_file

NAPS = '''
import time

TIMEOUT = 0.3


def nap(seconds: float) -> str:
    """Sleep, bounded at 0.3 s."""
    time.sleep(seconds)
    return "awake"
'''

HOG = '''
KEPT = []


def keep(mb: int) -> int:
    """Keep `mb` megabytes, touched, until the host ends."""
    KEPT.append(b"x" * (mb << 20))
    return len(KEPT)


def ask_for(gb: int) -> int:
    """Ask for `gb` gigabytes at once."""
    return len(bytearray(gb << 30))


def echo(text: str) -> str:
    """Say it back."""
    return text
'''

OVERRUN_ENDED = "notifications/quiver/overrun_ended"


class RecoveryTests(TreeCase):
    def start(self, files: dict[str, str], *extra: str) -> HostProcess:
        root = self.folder() / "tools"
        for name, text in files.items():
            write_file(root, name, text)
        host = HostProcess(root, *extra)
        self.addCleanup(host.close)
        host.initialize()
        return host

    def call(self, host: HostProcess, name: str, arguments: dict) -> dict:
        return host.ask("tools/call", {"name": name, "arguments": arguments})["result"]

    def test_a_timeout_answer_names_its_overrun_and_the_overrun_end_is_announced(self):
        host = self.start({"naps.py": NAPS})
        result = self.call(host, "naps__nap", {"seconds": 1.0})
        self.assertEqual(result["_meta"]["quiver/outcome"], "timeout")
        overrun = result["_meta"]["quiver/overrun"]
        self.assertEqual(overrun["timeout_s"], 0.3)
        ended, _ = host.wait_for(lambda m: m.get("method") == OVERRUN_ENDED, timeout=5)
        self.assertEqual(ended["params"]["id"], overrun["id"])

    def test_a_call_within_its_bound_names_no_overrun(self):
        host = self.start({"naps.py": NAPS})
        result = self.call(host, "naps__nap", {"seconds": 0})
        self.assertEqual(result["content"][0]["text"], "awake")
        self.assertNotIn("quiver/overrun", result["_meta"])

    def test_memory_error_in_a_tool_answers_memory_error_and_the_host_serves_the_next_call(self):
        host = self.start({"hog.py": HOG}, "--limit-as", "1024")
        result = self.call(host, "hog__ask_for", {"gb": 8})
        self.assertEqual(result["_meta"]["quiver/outcome"], "failed")
        self.assertRegex(result["content"][0]["text"],
                         r"^MemoryError: hog__ask_for ran out of memory; the tool host allows "
                         r"1024 MB of address space")
        self.assertEqual(self.call(host, "hog__echo", {"text": "still"})["content"][0]["text"],
                         "still")

    def test_a_call_that_leaves_the_host_over_its_soft_memory_limit_says_so(self):
        host = self.start({"hog.py": HOG}, "--memory-soft", "64")
        light = self.call(host, "hog__echo", {"text": "light"})
        self.assertNotIn("quiver/memory", light["_meta"])
        heavy = self.call(host, "hog__keep", {"mb": 100})
        self.assertEqual(heavy["content"][0]["text"], "1")
        memory = heavy["_meta"]["quiver/memory"]
        self.assertEqual(memory["soft_mb"], 64)
        self.assertGreaterEqual(memory["rss_mb"], 100)

    def test_the_host_caps_its_address_space_unless_told_otherwise(self):
        host = self.start({"hog.py": HOG})
        with open(f"/proc/{host.process.pid}/limits", encoding="ascii") as limits:
            row = next(line for line in limits if line.startswith("Max address space"))
        self.assertEqual(row.split()[3:5], [str(2048 << 20), str(2048 << 20)])
