"""The studio's own tree, tools/: every example loads with no error and works
when called, the way a developer would first try it."""

from quiverhost.calls import Calls
from quiverhost.loader import Tree

from tests.support import REPO, TreeCase


class ExampleTreeTests(TreeCase):
    def setUp(self):
        self.tree = Tree(REPO / "tools")
        self.addCleanup(self.tree.close)
        self.tree.refresh()
        self.work = self.folder()
        self.host = Calls(self.tree, str(self.work))

    def call(self, name, arguments=None, settings=None):
        return self.host.call(name, arguments or {}, {"quiver/settings": settings or {}})

    def test_every_example_loads_with_no_error(self):
        entries = self.tree.catalog.entries()
        self.assertEqual({e["path"]: e["errors"] for e in entries if e["errors"]}, {})
        self.assertEqual({e["path"]: e["kind"] for e in entries}, {
            "_helpers.py": "helper", "clock.py": "module", "files.py": "functions",
            "notes.py": "functions", "shell.py": "class", "sql.py": "tool_class",
            "tickets.py": "functions"})

    def test_notes_write_then_read(self):
        self.tree.catalog.file("notes.py").module.NOTES = self.work / "notes"
        self.assertFalse(self.call("notes__write", {"subject": "milk", "body": "2 litres"})["isError"])
        self.assertEqual(self.text(self.call("notes__read", {"subject": "milk"})), "2 litres")
        self.assertIn("must be a plain file name",
                      self.text(self.call("notes__write", {"subject": "../escape", "body": "x"})))

    def test_shell_keeps_its_directory(self):
        self.call("shell__cd", {"path": str(self.work)})
        self.assertEqual(self.text(self.call("shell__run", {"cmd": "pwd"})), str(self.work))

    def test_clock_answers_and_refuses_unknown_zones(self):
        result = self.call("clock", {})
        self.assertEqual(result["_meta"]["quiver/outcome"], "ok")
        self.assertIn("(UTC, UTC+0000)", self.text(result))
        refused = self.call("clock", {"zone": "Mars/Olympus"})
        self.assertEqual(refused["_meta"]["quiver/outcome"], "refused")

    def test_files_read_write_list_confined_to_root(self):
        (self.work / "box").mkdir()
        # Absolute: files.py opens its paths with open_under, which takes a relative root against the
        # current folder; the studio runs the host in its working folder, this test does not.
        settings = {"root": str(self.work / "box")}
        self.assertEqual(self.call("files__write", {"path": "a/b.txt", "text": "hi"}, settings)["_meta"]
                         ["quiver/outcome"], "ok")
        self.assertEqual(self.text(self.call("files__read", {"path": "a/b.txt"}, settings)), "hi")
        self.assertEqual(self.text(self.call("files__list_folder", {}, settings)), "a/")
        self.assertEqual(self.call("files__read", {"path": "../x"}, settings)["_meta"]["quiver/outcome"],
                         "refused")
        too_big = self.call("files__read", {"path": "a/b.txt"}, {**settings, "max_bytes": 1})
        self.assertIn("over the 1 this source reads whole", self.text(too_big))

    def test_tickets_never_echo_the_secret(self):
        token = "tkt_0123456789abcdefghijkl"
        settings = {"token": token}
        opened = self.call("tickets__open", {"title": "Disk full", "body": "df says 100%"}, settings)
        self.assertEqual(opened["_meta"]["quiver/outcome"], "ok")
        self.assertIn("POST https://tracker.example/api/projects/OPS/tickets", self.text(opened))
        looked = self.call("tickets__lookup", {"key": "OPS-12"}, settings)
        for result in (opened, looked):
            self.assertNotIn(token, self.text(result))
        self.assertIn("is required", self.text(self.call("tickets__lookup", {"key": "OPS-1"})))

    def test_tickets_check_secret(self):
        check = vars(self.tree.catalog.file("tickets.py").module)["check_secret"]
        self.assertIsNone(check("token", "tkt_0123456789abcdefghijkl"))
        self.assertIn("starts with tkt_", check("token", "hunter2"))

    def test_sql_query_and_execute_on_a_sqlite_file(self):
        settings = {"dsn": "app.db"}
        self.assertEqual(self.call("sql__query", {"sql": "select 1"}, settings)["_meta"]
                         ["quiver/outcome"], "failed")
        self.assertEqual(self.text(self.call("sql__execute", {"sql": "create table t(a int)"},
                                             settings)), "0 rows changed")
        self.assertEqual(self.text(self.call("sql__execute", {"sql": "insert into t values (1), (2)"},
                                             settings)), "2 rows changed")
        self.assertEqual(self.text(self.call("sql__query", {"sql": "select a from t", "limit": 1},
                                             settings)),
                         "a\n1\n(1 more rows not shown; raise limit or narrow the query)")
        # query opens the file read-only: a change through it is a failure the model reads.
        refused = self.call("sql__query", {"sql": "delete from t"}, settings)
        self.assertIn("use execute to change the database", self.text(refused))
        self.assertTrue((self.work / "app.db").is_file())

    def test_sql_check_secret_rejects_what_is_not_sqlite(self):
        check = self.tree.catalog.file("sql.py").secret_check
        self.assertIsNone(check("dsn", "file:data/app.db"))
        self.assertIn("is not a SQLite database", check("dsn", "postgresql://u:p@db/app"))
        notes = self.work / "notes.txt"
        notes.write_text("hello", encoding="utf-8")
        self.assertIn("is not a SQLite file", check("dsn", str(notes)))
