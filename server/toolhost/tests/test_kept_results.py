"""Where the host keeps a cut result (R-cut-kept, R-cut-confined, R-cut-bounded):
`.results/` of its working folder, never through a link, and only so many files."""

import os
import time
from unittest import mock

from quiverhost import kept

from tests.support import TreeCase

LONG = '''
def long(n: int, mark: str = "x") -> str:
    """A text of n characters starting with the mark."""
    return mark + "a" * (n - 1)
'''


class KeptResultTests(TreeCase):
    def setUp(self):
        self.workdir = self.folder()
        self.host = self.calls({"t.py": LONG}, self.workdir)

    def long(self, mark="x", n=30_000):
        return self.host.call("t__long", {"n": n, "mark": mark}, {})

    def test_R_cut_kept_the_whole_text_is_in_results_of_the_working_folder_the_note_names(self):
        result = self.long()
        kept_at = result["_meta"]["quiver/truncated"]
        name = os.path.basename(kept_at)
        self.assertEqual(kept_at, str(self.workdir / ".results" / name))
        with open(kept_at, encoding="utf-8") as whole:
            self.assertEqual(whole.read(), "x" + "a" * 29_999)
        self.assertIn(f"The whole of it is in .results/{name} (in the tool host's working folder); "
                      "read that file for the part in between", self.text(result))

    def test_R_cut_confined_a_results_folder_that_is_a_link_is_not_followed(self):
        outside = self.folder()
        os.symlink(outside, self.workdir / ".results")
        result = self.long()
        self.assertEqual(os.listdir(outside), [])
        self.assertNotIn("quiver/truncated", result["_meta"])
        text = self.text(result)
        self.assertIn("The whole of it could not be kept (path .results/tool-", text)
        self.assertIn("goes through a symbolic link (.results)", text)
        self.assertTrue(text.startswith("x" + "a" * 3999))
        self.assertLess(len(text), 5_600)

    def test_R_cut_confined_a_kept_name_planted_as_a_link_is_never_written_through(self):
        # The name is new each time (uuid, created exclusively): a link cannot be waiting at it, and a file
        # planted beside the kept ones is left alone by the pruning unless it is a plain kept file.
        (self.workdir / ".results").mkdir()
        target = self.folder() / "target.txt"
        target.write_text("mine")
        os.symlink(target, self.workdir / ".results" / "tool-planted.txt")
        with mock.patch.object(kept, "KEEP_FILES", 1):
            self.long()
            self.long()
        self.assertEqual(target.read_text(), "mine")
        self.assertTrue(os.path.islink(self.workdir / ".results" / "tool-planted.txt"))

    def test_R_cut_bounded_the_oldest_files_go_past_the_count(self):
        with mock.patch.object(kept, "KEEP_FILES", 3):
            paths = []
            for mark in "abcde":
                paths.append(self.long(mark)["_meta"]["quiver/truncated"])
                time.sleep(0.01)  # distinct modification times
        left = sorted(os.listdir(self.workdir / ".results"))
        self.assertEqual(left, sorted(os.path.basename(p) for p in paths[-3:]))

    def test_R_cut_bounded_the_oldest_files_go_past_the_bytes_and_the_newest_always_stays(self):
        with mock.patch.object(kept, "KEEP_BYTES", 70_000):
            paths = [self.long(mark)["_meta"]["quiver/truncated"] for mark in "abc"]
            self.assertEqual(sorted(os.listdir(self.workdir / ".results")),
                             sorted(os.path.basename(p) for p in paths[-2:]))
            big = self.long("z", 100_000)["_meta"]["quiver/truncated"]
        self.assertEqual(os.listdir(self.workdir / ".results"), [os.path.basename(big)])
