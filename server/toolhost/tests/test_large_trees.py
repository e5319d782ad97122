"""What the benchmarks time, held here without a clock: a 300-line file derives
whole, and a tree of 1,000 unchanged files lists whole and re-reads nothing.
Their budgets are `npm run bench:host`'s to print, never a test's to assert."""

from quiverhost.catalog import CheckGate
from quiverhost.derive import derive_file

from tests.support import TreeCase, big_tool_file, write_file


class LargeTreeTests(TreeCase):
    def test_a_300_line_file_derives_every_operation(self):
        source = big_tool_file()
        tree = self.tree({"big.py": source})
        module = tree.catalog.file("big.py").module
        self.assertEqual(len(tree.catalog.entry("big.py")["tools"]), 19)
        self.assertEqual(len(derive_file("big.py", module, source).entry()["tools"]), 19)

    def test_a_tree_of_1000_unchanged_files_lists_whole_and_refreshes_nothing(self):
        root = self.folder() / "tools"
        for index in range(1000):
            write_file(root, f"f{index:04}.py",
                       f'def op(name: str, count: int = {index}) -> str:\n'
                       '    """One operation."""\n    return name\n')
        tree = self.tree({}, root)
        gate = CheckGate()
        self.assertEqual(len(tree.catalog.listing(gate)), 1000)
        for _ in range(3):
            self.assertEqual(tree.refresh(), [])
            self.assertEqual(len(tree.catalog.listing(gate)), 1000)
