"""quiver/offered (R-check-turn): which of the named tools their module's
check() holds back now, asked with the age of answer the run accepts; the
catalog marks which operations a check() gates."""

from tests.support import HostProcess, TreeCase, write_file

GATED = '''
import os

SCHEMA = {"name": "gated", "description": "Runs when the flag file exists."}


def check():
    return os.path.exists(os.environ.get("HOME", "/nonexistent") + "/../flag")


async def execute(args, ctx):
    return "ran"
'''


class OfferedTests(TreeCase):
    def setUp(self):
        self.root = self.folder() / "tools"
        self.flag = self.root / "flag"
        write_file(self.root, "g.py", GATED.replace(
            'os.environ.get("HOME", "/nonexistent") + "/../flag"', repr(str(self.flag))))
        write_file(self.root, "plain.py", "def go() -> str:\n    return 'x'\n")
        self.host = HostProcess(self.root)
        self.addCleanup(self.host.close)

    def held(self, **params):
        return self.host.ask("quiver/offered", {"names": ["gated", "plain__go", "nope"], **params})

    def test_R_check_turn_names_only_the_tools_a_check_holds_back_with_why(self):
        self.assertEqual(self.held()["result"], {"held": {"gated": "check() answered False"}})

    def test_R_check_turn_a_younger_age_asks_check_again(self):
        self.assertIn("gated", self.held(max_age_s=0)["result"]["held"])
        self.flag.write_text("up")
        # Kept for the gate's 30 s when the asker accepts that age ...
        self.assertIn("gated", self.held(max_age_s=30)["result"]["held"])
        # ... and asked afresh when it does not.
        self.assertEqual(self.held(max_age_s=0)["result"], {"held": {}})

    def test_R_check_turn_the_catalog_marks_checked_operations(self):
        files = {f["path"]: f for f in self.host.ask("quiver/catalog", {"detail": True})["result"]["files"]}
        self.assertTrue(files["g.py"]["tools"][0]["behaviour"]["checked"])
        self.assertFalse(files["plain.py"]["tools"][0]["behaviour"]["checked"])

    def test_R_check_turn_bad_names_are_refused_with_a_sentence(self):
        answer = self.host.ask("quiver/offered", {"names": "gated"})
        self.assertIn("needs `names`", answer["error"]["message"])
