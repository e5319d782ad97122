"""Finding, importing and re-importing the files of a tree (R-file-flat,
R-file-helper, R-file-reload), import errors with their line, and a
preview that leaves the loaded tree alone."""

import sys

from tests.support import TreeCase, write_file

GOOD = "def hello() -> str:\n    return 'hello'\n"


class FindingFilesTests(TreeCase):
    def test_subdirectories_are_ignored(self):
        root = self.folder() / "tools"
        write_file(root, "sub/inner.py", GOOD)
        write_file(root, "requirements.txt", "")
        tree = self.tree({"top.py": GOOD}, root)
        self.assertEqual([e["path"] for e in tree.catalog.entries()], ["top.py"])

    def test_file_name_that_is_not_a_module_name_is_an_error_at_line_1(self):
        entry = self.tree({"my-tool.py": GOOD}).catalog.entry("my-tool.py")
        self.assertFalse(entry["offered"])
        self.assertEqual(entry["errors"][0]["line"], 1)
        self.assertIn("is not a Python module name", entry["errors"][0]["message"])
        self.assertIn("`my_tool.py`", entry["errors"][0]["message"])

    def test_reserved_names_are_errors(self):
        tree = self.tree({"quiver.py": GOOD, "quiverhost.py": GOOD})
        for entry in tree.catalog.entries():
            self.assertIn("the tool host provides", entry["errors"][0]["message"])
        self.assertIsNot(sys.modules["quiver"].__file__, str(tree.root / "quiver.py"))

    def test_standard_library_names_are_errors(self):
        entry = self.tree({"json.py": GOOD}).catalog.entry("json.py")
        self.assertIn("Python's standard module `json`", entry["errors"][0]["message"])
        import json
        self.assertTrue(hasattr(json, "dumps"))

    def test_helpers_import_each_other_by_stem(self):
        tree = self.tree({"_helpers.py": "VALUE = 7\n",
                          "user.py": "import _helpers\n\n\ndef get() -> int:\n    return _helpers.VALUE\n"})
        self.assertEqual(tree.catalog.entry("user.py")["errors"], [])
        self.assertIs(sys.modules["_helpers"], tree.catalog.file("_helpers.py").module)


class ImportErrorTests(TreeCase):
    def test_exception_at_import_is_an_error_with_its_line_and_text(self):
        errors = self.errors("import os\n\nraise RuntimeError('no database here')\n")
        self.assertEqual(errors, [(3, "RuntimeError: no database here")])

    def test_syntax_error_is_an_error_at_its_line(self):
        errors = self.errors("def f() -> str:\n    return (\n\n\nx = 1 +\n")
        self.assertEqual(errors[0][0], 2)
        self.assertTrue(errors[0][1].startswith("SyntaxError: "))

    def test_missing_module_is_the_interpreters_words(self):
        errors = self.errors("import os\nimport not_installed_anywhere\n")
        self.assertEqual(errors, [(2, "ModuleNotFoundError: No module named 'not_installed_anywhere'")])

    def test_broken_helper_reports_against_the_importer_at_its_import_line(self):
        tree = self.tree({"_broken.py": "x = 1 +\n", "user.py": "import os\nimport _broken\n"})
        user = tree.catalog.entry("user.py")
        self.assertEqual(user["errors"][0]["line"], 2)
        self.assertIn("SyntaxError", user["errors"][0]["message"])
        self.assertFalse(tree.catalog.entry("_broken.py")["offered"])

    def test_a_failed_import_leaves_no_module_behind(self):
        self.tree({"boom.py": "raise ValueError('x')\n"})
        self.assertNotIn("boom", sys.modules)


class ReloadTests(TreeCase):
    def test_changed_file_is_reimported_on_the_next_look(self):
        tree = self.tree({"a.py": GOOD})
        write_file(tree.root, "a.py", "def hello() -> str:\n    return 'again'\n\n\n"
                                      "def more() -> str:\n    return ''\n")
        self.assertEqual(tree.refresh(), ["a.py"])
        self.assertEqual(len(tree.catalog.entry("a.py")["tools"]), 2)

    def test_unchanged_tree_reimports_nothing(self):
        tree = self.tree({"a.py": GOOD, "b.py": GOOD})
        module = tree.catalog.file("a.py").module
        self.assertEqual(tree.refresh(), [])
        self.assertIs(tree.catalog.file("a.py").module, module)

    def test_only_the_changed_file_is_reimported(self):
        tree = self.tree({"a.py": GOOD, "b.py": GOOD})
        kept = tree.catalog.file("b.py").module
        write_file(tree.root, "a.py", GOOD + "\n# edited\n")
        tree.refresh()
        self.assertIs(tree.catalog.file("b.py").module, kept)

    def test_helper_change_does_not_reimport_importer(self):
        tree = self.tree({"_helpers.py": "VALUE = 1\n",
                          "user.py": "import _helpers\n\n\ndef get() -> int:\n    return _helpers.VALUE\n"})
        user = tree.catalog.file("user.py").module
        write_file(tree.root, "_helpers.py", "VALUE = 2\n")
        self.assertEqual(tree.refresh(), ["_helpers.py"])
        self.assertIs(tree.catalog.file("user.py").module, user)
        self.assertEqual(user.get(), 1)  # it still holds the helper it imported
        self.assertEqual(sys.modules["_helpers"].VALUE, 2)

    def test_deleted_file_vanishes(self):
        tree = self.tree({"a.py": GOOD, "b.py": GOOD})
        (tree.root / "b.py").unlink()
        self.assertEqual(tree.refresh(), ["b.py"])
        self.assertEqual([e["path"] for e in tree.catalog.entries()], ["a.py"])
        self.assertNotIn("b", sys.modules)

    def test_fixed_file_is_offered_again(self):
        tree = self.tree({"a.py": "def f(x) -> str:\n    return ''\n"})
        self.assertFalse(tree.catalog.entry("a.py")["offered"])
        write_file(tree.root, "a.py", "def f(x: str) -> str:\n    return ''\n")
        tree.refresh()
        self.assertTrue(tree.catalog.entry("a.py")["offered"])


class PreviewTests(TreeCase):
    def test_preview_matches_the_catalog_for_the_same_source(self):
        source = "import os\n\n\ndef f(n: int = 2) -> str:\n    \"\"\"Do.\"\"\"\n    return ''\n"
        tree = self.tree({"a.py": source})
        self.assertEqual(tree.preview("a.py", source), tree.catalog.entry("a.py"))
        self.assertEqual(tree.preview("a.py", source, detail=True),
                         tree.catalog.entry("a.py", detail=True))

    def test_preview_does_not_change_the_loaded_tree_or_sys_modules(self):
        tree = self.tree({"a.py": GOOD})
        module = sys.modules["a"]
        entry = tree.preview("a.py", "def other(q: str) -> str:\n    return q\n")
        self.assertEqual([t["name"] for t in entry["tools"]], ["a__other"])
        self.assertIs(sys.modules["a"], module)
        self.assertEqual([t["name"] for t in tree.catalog.entry("a.py")["tools"]], ["a__hello"])

    def test_preview_of_a_syntax_error_gives_its_line(self):
        tree = self.tree({})
        entry = tree.preview("new.py", "import os\n\ndef f(:\n")
        self.assertFalse(entry["offered"])
        self.assertEqual(entry["errors"][0]["line"], 3)

    def test_preview_sees_name_clashes_with_the_saved_tree(self):
        tree = self.tree({"a.py": 'SCHEMA = {"name": "b__go"}\n\n\nasync def execute(a, c):\n    return ""\n'})
        entry = tree.preview("b.py", "def go() -> str:\n    return ''\n")
        self.assertIn("already taken by a.py", entry["errors"][0]["message"])

    def test_preview_of_a_file_that_never_finishes_importing_is_an_error(self):
        tree = self.tree({})
        entry = tree.preview("slow.py", "import time\ntime.sleep(5)\n", seconds=0.2)
        self.assertIn("did not finish importing", entry["errors"][0]["message"])
