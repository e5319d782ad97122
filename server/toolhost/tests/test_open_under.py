"""quiver.open_under and list_under (R-root-not-a-sandbox): a path under the
root opened with no symbolic link followed, also one made after the host
checked the path, while another process swaps a folder for a link."""

import os
import subprocess
import sys
import time
import unittest

from quiver import Refused, list_under, open_under
from quiverhost.confine import confine

from tests.support import TreeCase

# Exchanges root/d (a real folder) with root/dlink (a link to the outside folder) until killed.
SWAPPER = r"""
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                          ctypes.c_uint]
os.chdir(sys.argv[1])
print("ready", flush=True)
while libc.renameat2(-100, b"d", -100, b"dlink", 2) == 0:
    pass
sys.exit("renameat2: " + os.strerror(ctypes.get_errno()))
"""
MARKER = "MARKER-OUTSIDE-THE-ROOT"


class OpenUnderTests(TreeCase):
    def setUp(self):
        self.work = self.folder()
        self.root = self.work / "root"
        self.out = self.work / "out"
        for folder in (self.root / "d", self.out):
            folder.mkdir(parents=True)
        (self.root / "d" / "a.txt").write_text("inside")
        (self.out / "a.txt").write_text(MARKER)

    def test_reads_and_writes_a_path_the_host_confined(self):
        path = confine("d/a.txt", self.root)
        with open_under(self.root, path) as file:
            self.assertEqual(file.read(), "inside")
        with open_under(self.root, "d/new/b.txt", "w", parents=True) as file:
            file.write("made")
        self.assertEqual((self.root / "d" / "new" / "b.txt").read_text(), "made")
        with self.assertRaises(FileExistsError):
            open_under(self.root, "d/a.txt", "x")

    def test_refuses_a_link_on_the_way_and_at_the_file(self):
        (self.root / "up").symlink_to(self.out)
        (self.root / "d" / "link.txt").symlink_to(self.out / "a.txt")
        with self.assertRaisesRegex(Refused, r"goes through a symbolic link \(up\)"):
            open_under(self.root, "up/a.txt")
        with self.assertRaisesRegex(Refused, "is a symbolic link, which is not followed"):
            open_under(self.root, "d/link.txt")
        with self.assertRaisesRegex(Refused, r"goes through a symbolic link \(up\)"):
            list_under(self.root, "up")
        self.assertEqual(list_under(self.root),
                         [("d", True, False, False), ("up", False, False, True)])

    def test_refuses_paths_outside_the_root_and_what_is_not_a_file(self):
        with self.assertRaisesRegex(Refused, "not under the folder"):
            open_under(self.root, self.out / "a.txt")
        with self.assertRaisesRegex(Refused, "leaves the folder"):
            open_under(self.root, "../out/a.txt")
        os.mkfifo(self.root / "fifo")
        with self.assertRaisesRegex(Refused, "not a regular file"):
            open_under(self.root, "fifo")  # refused at once, never blocking for a writer
        with self.assertRaisesRegex(ValueError, "is not one of r, w, a, x"):
            open_under(self.root, "d/a.txt", "rw")

    def test_no_escape_while_a_folder_is_swapped_for_a_link(self):
        (self.root / "dlink").symlink_to(os.path.relpath(self.out, self.root))
        before = sorted(os.listdir(self.out))
        swapper = subprocess.Popen([sys.executable, "-c", SWAPPER, str(self.root)],
                                   stdout=subprocess.PIPE, text=True)
        self.addCleanup(swapper.stdout.close)
        self.addCleanup(swapper.wait)
        self.addCleanup(swapper.kill)
        self.assertEqual(swapper.stdout.readline().strip(), "ready")
        ran, refused, escaped = 0, 0, []
        deadline = time.monotonic() + 20
        while ran < 10_000 and time.monotonic() < deadline:
            ran += 1
            try:
                if ran % 2:
                    with open_under(self.root, "d/a.txt") as file:
                        if MARKER in file.read():
                            escaped.append(ran)
                else:
                    with open_under(self.root, f"d/w{ran}.txt", "w") as file:
                        file.write("written")
            except Refused:
                refused += 1
        swapper.kill()
        self.assertEqual(escaped, [])
        self.assertEqual(sorted(os.listdir(self.out)), before, "a file was written outside")
        self.assertGreater(refused, 0, f"the swap never met a call in {ran} calls")


if __name__ == "__main__":
    unittest.main()
