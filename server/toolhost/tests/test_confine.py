"""Confinement (R-root-confine), symbolic links included: a Path argument is
resolved under the Root setting and refused outside it; the tool never runs."""

import os

from tests.support import TreeCase

FILES = '''
from pathlib import Path
from quiver import Root

RAN = []


class Settings:
    root: Root = "."


def read(path: Path) -> str:
    RAN.append(path)
    return path.read_text()


def where(path: Path | None = None) -> str:
    return str(path)
'''


class ConfinementTests(TreeCase):
    def setUp(self):
        self.work = self.folder()
        self.root = self.work / "inbox"
        (self.root / "sub").mkdir(parents=True)
        (self.root / "sub" / "a.txt").write_text("inside")
        (self.work / "secret.txt").write_text("outside")
        self.calls_ = self.calls({"files.py": FILES}, workdir=self.work)
        self.module = self.calls_.tree.catalog.file("files.py").module

    def read(self, path, root="inbox"):
        return self.calls_.call("files__read", {"path": path}, {"quiver/settings": {"root": root}})

    def assertRefused(self, result, words):
        self.assertEqual(result["_meta"]["quiver/outcome"], "refused")
        self.assertTrue(result["isError"])
        self.assertIn(words, self.text(result))
        self.assertEqual(self.module.RAN, [], "the tool ran")

    def test_path_inside_the_root_is_read(self):
        result = self.read("sub/a.txt")
        self.assertEqual(self.text(result), "inside")
        self.assertEqual(self.module.RAN, [self.root / "sub" / "a.txt"])

    def test_relative_root_is_against_the_hosts_folder(self):
        self.assertEqual(self.text(self.read("sub/a.txt", root="inbox/sub/..")), "inside")

    def test_dotdot_that_leaves_the_root_refused(self):
        self.assertRefused(self.read("../secret.txt"),
                           "Refused: path ../secret.txt leaves the folder this tool is confined to; "
                           "give a path inside it")

    def test_dotdot_that_stays_inside_is_allowed(self):
        self.assertEqual(self.text(self.read("sub/../sub/a.txt")), "inside")

    def test_dotdot_deeper_than_the_root_refused(self):
        self.assertRefused(self.read("sub/../../secret.txt"), "leaves the folder")

    def test_absolute_path_refused(self):
        self.assertRefused(self.read(str(self.work / "secret.txt")), "is absolute")

    def test_symlink_leaving_the_root_refused(self):
        os.symlink(self.work / "secret.txt", self.root / "link.txt")
        self.assertRefused(self.read("link.txt"), "goes through a symbolic link (link.txt)")

    def test_symlink_in_parent_refused(self):
        os.symlink(self.work, self.root / "up")
        self.assertRefused(self.read("up/secret.txt"), "goes through a symbolic link (up)")

    def test_symlink_staying_inside_is_refused_too(self):
        os.symlink(self.root / "sub", self.root / "alias")
        self.assertRefused(self.read("alias/a.txt"), "symbolic link (alias)")

    def test_root_that_does_not_exist_is_a_failure(self):
        result = self.read("a.txt", root="nowhere")
        self.assertEqual(result["_meta"]["quiver/outcome"], "failed")
        self.assertIn("'nowhere', does not exist", self.text(result))

    def test_root_through_a_symlink_is_its_real_folder(self):
        os.symlink(self.root, self.work / "inbox-link")
        self.assertEqual(self.text(self.read("sub/a.txt", root="inbox-link")), "inside")

    def test_optional_path_left_out_is_none(self):
        result = self.calls_.call("files__where", {}, {"quiver/settings": {"root": "inbox"}})
        self.assertEqual(self.text(result), "None")

    def test_path_to_a_file_not_yet_written_resolves(self):
        result = self.calls_.call("files__where", {"path": "new/deeper.txt"},
                                  {"quiver/settings": {"root": "inbox"}})
        self.assertEqual(self.text(result), str(self.root / "new" / "deeper.txt"))
