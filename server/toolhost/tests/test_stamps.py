"""The files' stamps every call looks at (stamps.py): the folder is listed
again only when its own mtime moved, yet every add, removal, rename and edit is
seen, including one made right after a listing."""

import os
import tempfile
import time
import unittest
from pathlib import Path

from quiverhost.stamps import Stamps


class StampsTests(unittest.TestCase):
    def setUp(self):
        made = tempfile.TemporaryDirectory(prefix="quiver-stamps-")
        self.addCleanup(made.cleanup)
        self.root = Path(made.name)
        self.long_ago = time.time_ns() - 10_000_000_123
        self.write("a.py", "x = 1\n")
        self.age_folder()

    def write(self, name: str, text: str, age: float = 0) -> None:
        path = self.root / name
        path.write_text(text)
        if age:
            when = time.time() - age
            os.utime(path, (when, when))

    def age_folder(self) -> None:
        """As if the folder's last change were long ago (always the same moment):
        its listing is then trusted."""
        os.utime(self.root, ns=(self.long_ago, self.long_ago))

    def test_an_unchanged_folder_is_listed_once(self):
        stamps = Stamps(self.root)
        first = stamps()
        for _ in range(5):
            self.assertEqual(stamps(), first)
        self.assertEqual((list(first), stamps.listings), (["a.py"], 1))

    def test_an_edit_in_place_is_seen_without_a_listing(self):
        stamps = Stamps(self.root)
        before = stamps()["a.py"]
        self.write("a.py", "x = 22\n", age=5)
        self.age_folder()
        self.assertNotEqual(stamps()["a.py"], before)
        self.assertEqual(stamps.listings, 1)

    def test_a_file_added_removed_or_renamed_is_seen(self):
        stamps = Stamps(self.root)
        stamps()
        self.write("b.py", "y = 1\n")
        self.assertEqual(sorted(stamps()), ["a.py", "b.py"])
        (self.root / "b.py").rename(self.root / "c.py")
        self.assertEqual(sorted(stamps()), ["a.py", "c.py"])
        (self.root / "a.py").unlink()
        self.assertEqual(sorted(stamps()), ["c.py"])

    def test_a_folder_changed_just_now_is_listed_every_time(self):
        # A change in the same clock tick as the listing could leave the folder's mtime as it was.
        self.write("b.py", "y = 1\n")
        stamps = Stamps(self.root)
        stamps()
        stamps()
        self.assertEqual(stamps.listings, 2)

    def test_a_known_file_that_became_a_folder_is_listed_again(self):
        stamps = Stamps(self.root)
        stamps()
        (self.root / "a.py").unlink()
        (self.root / "a.py").mkdir()
        self.age_folder()  # even with the folder's mtime looking old
        self.assertEqual(stamps(), {})

    def test_subfolders_and_other_files_do_not_count(self):
        (self.root / "pkg").mkdir()
        self.write("pkg/inner.py", "")
        self.write("notes.txt", "")
        self.age_folder()
        self.assertEqual(list(Stamps(self.root)()), ["a.py"])

    def test_a_missing_folder_has_no_files(self):
        self.assertEqual(Stamps(self.root / "gone")(), {})


if __name__ == "__main__":
    unittest.main()
