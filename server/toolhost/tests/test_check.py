"""A module's check() in the studio's catalog and preview, not only in MCP
tools/list (R-module-check): a tool it holds back is marked not offered, with
the reason in a sentence, and its file has no error for it."""

import contextlib
import io
import time

from quiverhost.catalog import CheckGate

from tests.support import HostProcess, TreeCase, write_file

GATED = '''
ANSWERS = [False]

SCHEMA = {"name": "gated", "description": "Runs when the daemon is up."}


def check():
    answer = ANSWERS[0]
    if isinstance(answer, Exception):
        raise answer
    if answer == "hang":
        import time
        time.sleep(5)
    return answer


async def execute(args, ctx):
    return "ran"
'''


class CatalogCheckTests(TreeCase):
    def setUp(self):
        self.tree_ = self.tree({"g.py": GATED, "plain.py": "def go() -> str:\n    return 'x'\n"})
        self.answers = self.tree_.catalog.file("g.py").module.ANSWERS
        self.gate = CheckGate()

    def entry(self) -> dict:
        return self.tree_.catalog.entry("g.py", gate=self.gate)

    def test_check_false_marks_the_file_not_offered_with_the_reason_and_no_error(self):
        entry = self.entry()
        self.assertFalse(entry["offered"])
        self.assertEqual(entry["errors"], [])
        self.assertIn("check() answered False, so gated is not offered", entry["unavailable"])
        self.assertEqual([t["name"] for t in entry["tools"]], ["gated"])  # still shown

    def test_check_true_is_offered_with_no_reason(self):
        self.answers[0] = True
        entry = self.entry()
        self.assertEqual((entry["offered"], entry["unavailable"]), (True, None))

    def test_the_catalog_and_tools_list_give_one_answer(self):
        entries = {e["path"]: e for e in self.tree_.catalog.entries(gate=self.gate)}
        self.assertFalse(entries["g.py"]["offered"])
        self.assertTrue(entries["plain.py"]["offered"])
        self.assertIsNone(entries["plain.py"]["unavailable"])
        self.assertEqual([t["name"] for t in self.tree_.catalog.listing(self.gate)], ["plain__go"])

    def test_check_that_raises_before_any_answer_names_the_exception(self):
        self.answers[0] = RuntimeError("daemon is down")
        with contextlib.redirect_stderr(io.StringIO()):
            entry = self.entry()
        self.assertFalse(entry["offered"])
        self.assertIn("check() raised RuntimeError: daemon is down", entry["unavailable"])

    def test_check_that_does_not_answer_is_not_waited_for(self):
        self.gate.SECONDS = 0.2
        self.answers[0] = "hang"
        started = time.monotonic()
        with contextlib.redirect_stderr(io.StringIO()):
            entry = self.entry()
        self.assertLess(time.monotonic() - started, 2)
        self.assertIn("check() did not answer within 0.2 s", entry["unavailable"])

    def test_a_file_with_errors_is_not_asked(self):
        tree = self.tree({"bad.py": GATED.replace("async def execute", "def execute")})
        asked = tree.catalog.file("bad.py").module.ANSWERS
        asked[0] = RuntimeError("must not be asked")
        entry = tree.catalog.entry("bad.py", gate=CheckGate())
        self.assertFalse(entry["offered"])
        self.assertIsNone(entry["unavailable"])
        self.assertEqual(len(entry["errors"]), 1)


class HostCheckTests(TreeCase):
    def test_catalog_and_preview_say_why_a_checked_tool_is_not_offered(self):
        root = self.folder() / "tools"
        write_file(root, "g.py", GATED)
        host = HostProcess(root)
        self.addCleanup(host.close)
        files = host.ask("quiver/catalog", {"detail": True})["result"]["files"]
        self.assertEqual([(f["offered"], f["errors"]) for f in files], [(False, [])])
        self.assertIn("check() answered False", files[0]["unavailable"])
        self.assertEqual(host.ask("tools/list")["result"]["tools"], [])
        preview = host.ask("quiver/preview", {"path": "g.py", "source": GATED})["result"]
        self.assertFalse(preview["offered"])
        self.assertIn("check() answered False", preview["unavailable"])
        opened = GATED.replace("ANSWERS = [False]", "ANSWERS = [True]")
        self.assertTrue(host.ask("quiver/preview", {"path": "g.py", "source": opened})["result"]["offered"])
