"""The budgets the studio relies on: deriving a 300-line file well under 20 ms
(the live preview derives on every pause in typing), and tools/list on a tree
of 1,000 unchanged files under 50 ms (it runs on every turn: stat only)."""

import statistics
import time

from quiverhost.catalog import CheckGate
from quiverhost.derive import derive_file

from tests.support import TreeCase, big_tool_file, write_file


class PerformanceTests(TreeCase):
    def test_deriving_a_300_line_file_is_well_under_20_ms(self):
        source = big_tool_file()
        tree = self.tree({"big.py": source})
        module = tree.catalog.file("big.py").module
        self.assertEqual(len(tree.catalog.entry("big.py")["tools"]), 19)
        timings = []
        for _ in range(30):
            started = time.perf_counter()
            derive_file("big.py", module, source).entry()
            timings.append(time.perf_counter() - started)
        self.assertLess(statistics.median(timings), 0.010)

    def test_tools_list_of_1000_unchanged_files_is_under_50_ms(self):
        root = self.folder() / "tools"
        for index in range(1000):
            write_file(root, f"f{index:04}.py",
                       f'def op(name: str, count: int = {index}) -> str:\n'
                       '    """One operation."""\n    return name\n')
        tree = self.tree({}, root)
        gate = CheckGate()
        self.assertEqual(len(tree.catalog.listing(gate)), 1000)
        timings = []
        for _ in range(10):
            started = time.perf_counter()
            self.assertEqual(tree.refresh(), [])
            tree.catalog.listing(gate)
            timings.append(time.perf_counter() - started)
        self.assertLess(statistics.median(timings), 0.050)
