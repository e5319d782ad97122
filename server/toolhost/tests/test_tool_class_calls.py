"""Calling Tool classes (docs/rules.md, Tool classes): the input model's
instance and its validation, ToolResult, operations, shared settings, paths,
secrets, progress, and the call's own behaviour answers."""

import base64
import unittest

from quiverhost.calls import Calls
from quiverhost.input_models import pydantic_base
from quiverhost.tool_class_run import call_behaviour

from tests.support import HostProcess, TreeCase, write_file

HEAD = '''from dataclasses import dataclass
from typing import TypedDict
from quiver import Image, Operation, Tool, ToolResult
'''

SQLISH = HEAD + '''
@dataclass
class Q:
    sql: str
    def __post_init__(self):
        if not self.sql.strip():
            raise ValueError("sql is empty")

@dataclass
class S:
    dsn: str
    root: str = "."

RAN = []

class Sql(Tool):
    name = "sql"
    settings_model = S
    secret_inputs = frozenset({"dsn"})
    operations = {
        "query": Operation(title="Q", description="Read.", input_model=Q, read_only=True),
        "execute": Operation(title="E", description="Change.", input_model=Q),
    }
    def is_destructive(self, args):
        return self.operation == "execute" and args.sql.upper().startswith("DELETE")
    def progress_message(self, args):
        return f"Running {args.sql[:10]}..."
    async def call(self, args, ctx):
        RAN.append((ctx.operation, self.operation, type(args).__name__))
        return ToolResult.ok(f"{ctx.operation}: {args.sql} on {ctx.settings.dsn}")

class Other(Tool):
    name = "other"
    settings_model = S
    def call(self, args, ctx):
        return ToolResult.ok(f"{type(ctx.settings).__name__} {ctx.settings.root}")
'''


class ToolClassCallTests(TreeCase):
    def host(self, source: str) -> Calls:
        self.tree_ = self.tree({"t.py": source})
        self.assertEqual(self.tree_.catalog.entry("t.py")["errors"], [])
        return Calls(self.tree_, str(self.folder()))

    def call(self, host, name, arguments, settings=None, progress=None):
        return host.call(name, arguments, {"quiver/settings": settings or {}},
                         **({"progress": progress} if progress else {}))

    def module(self):
        return self.tree_.catalog.file("t.py").module

    def test_R_tool_class_operations_ctx_operation_says_which(self):
        host = self.host(SQLISH)
        answer = self.call(host, "sql__query", {"sql": "select 1"}, {"dsn": "db.sqlite3"})
        self.assertEqual(self.text(answer), "query: select 1 on ***")
        self.call(host, "sql__execute", {"sql": "delete"}, {"dsn": "db.sqlite3"})
        self.assertEqual(self.module().RAN, [("query", "query", "Q"), ("execute", "execute", "Q")])

    def test_R_tool_class_validation_refuses_and_call_does_not_run(self):
        host = self.host(SQLISH)
        wrong = self.call(host, "sql__query", {"sql": 5}, {"dsn": "x.db"})
        self.assertEqual((wrong["_meta"]["quiver/outcome"], self.text(wrong)),
                         ("refused", "Refused: `sql` of sql__query must be a string, not an integer"))
        empty = self.call(host, "sql__query", {"sql": "  "}, {"dsn": "x.db"})
        self.assertEqual(self.text(empty), "Refused: the arguments of sql__query do not fit Q: sql "
                                           "is empty; correct them and call again")
        self.assertEqual(self.module().RAN, [])

    @unittest.skipUnless(pydantic_base(), "pydantic is not importable in this environment")
    def test_R_tool_class_validation_pydantic_errors_answer_the_model(self):
        host = self.host(HEAD + '''
from pydantic import BaseModel, Field
class Args(BaseModel):
    n: int = Field(gt=0, description="how many")
class T(Tool):
    name = "t"
    input_model = Args
    def call(self, args, ctx): return ToolResult.ok(f"{type(args).__name__} {args.n}")
''')
        self.assertEqual(self.text(self.call(host, "t", {"n": 3})), "Args 3")
        refused = self.call(host, "t", {"n": 0})
        self.assertEqual(refused["_meta"]["quiver/outcome"], "refused")
        self.assertEqual(self.text(refused), "Refused: the arguments of t do not fit Args: `n`: Input "
                                             "should be greater than 0; correct them and call again")

    def test_R_tool_class_result_ok_error_images_and_anything_else(self):
        host = self.host(HEAD + '''
@dataclass
class A:
    how: str
class T(Tool):
    name = "t"
    input_model = A
    def call(self, args, ctx):
        if args.how == "ok": return ToolResult.ok("fine")
        if args.how == "error": return ToolResult.error("the table is locked; try again later")
        if args.how == "image": return ToolResult.with_images("a dot", [Image(b"PNG", "image/png")])
        return "plain text"
''')
        ok = self.call(host, "t", {"how": "ok"})
        self.assertEqual((ok["_meta"]["quiver/outcome"], self.text(ok)), ("ok", "fine"))
        failed = self.call(host, "t", {"how": "error"})
        self.assertEqual((failed["_meta"]["quiver/outcome"], failed["isError"], self.text(failed)),
                         ("failed", True, "the table is locked; try again later"))
        image = self.call(host, "t", {"how": "image"})
        self.assertEqual(image["content"], [{"type": "text", "text": "a dot"}, {
            "type": "image", "data": base64.b64encode(b"PNG").decode(), "mimeType": "image/png"}])
        other = self.call(host, "t", {"how": "str"})
        self.assertEqual(self.text(other), "TypeError: call() of t returned str; return "
                                           "ToolResult.ok(text), ToolResult.error(text) or "
                                           "ToolResult.with_images(text, images)")

    def test_R_tool_class_settings_shared_by_the_classes_of_a_file(self):
        host = self.host(SQLISH)
        self.assertEqual(self.text(self.call(host, "other", {}, {"dsn": "x.db", "root": "/srv"})),
                         "S /srv")
        missing = self.call(host, "other", {})
        self.assertIn("the setting `dsn` of t.py is required", self.text(missing))

    def test_R_tool_class_settings_typeddict_arrives_as_a_dict(self):
        host = self.host(HEAD + '''
class S(TypedDict):
    label: str
class T(Tool):
    name = "t"
    settings_model = S
    def call(self, args, ctx): return ToolResult.ok(f"{type(ctx.settings).__name__} {ctx.settings['label']}")
''')
        self.assertEqual(self.text(self.call(host, "t", {}, {"label": "x"})), "dict x")

    def test_R_tool_class_paths_confined_under_the_root_setting(self):
        host = self.host(HEAD + '''
from pathlib import Path
@dataclass
class A:
    path: str
    other: str = ""
@dataclass
class S:
    root: str = "."
class Read(Tool):
    name = "read"
    input_model = A
    settings_model = S
    path_inputs = frozenset({"path"})
    root_setting = "root"
    def call(self, args, ctx): return ToolResult.ok(f"{type(args.path).__name__} {args.path}")
''')
        box = self.folder()
        inside = self.call(host, "read", {"path": "a.txt", "other": "../x"}, {"root": str(box)})
        self.assertEqual(self.text(inside), f"str {box / 'a.txt'}")
        outside = self.call(host, "read", {"path": "../a.txt"}, {"root": str(box)})
        self.assertEqual(outside["_meta"]["quiver/outcome"], "refused")
        self.assertIn("leaves the folder this tool is confined to", self.text(outside))

    def test_R_tool_class_secrets_checked_by_check_secret(self):
        self.host(HEAD + '''
@dataclass
class S:
    token: str
class T(Tool):
    name = "t"
    settings_model = S
    secret_inputs = frozenset({"token"})
    credential_help = "A token starting tkt_."
    def check_secret(self, name, value):
        return None if value.startswith("tkt_") else "this is not a tracker token"
    def call(self, args, ctx): return ToolResult.ok("")
''')
        derived = self.tree_.catalog.file("t.py")
        self.assertEqual(derived.settings.secrets, ["token"])
        self.assertIsNone(derived.secret_check("token", "tkt_123"))
        self.assertEqual(derived.secret_check("token", "hunter2"), "this is not a tracker token")
        detail = self.tree_.catalog.entry("t.py", detail=True)["detail"]
        self.assertEqual((detail["check_secret"], detail["credential_help"]),
                         (True, "A token starting tkt_."))

    def test_R_tool_class_progress_line_when_the_call_starts(self):
        host = self.host(SQLISH)
        lines = []
        self.call(host, "sql__query", {"sql": "select * from t"}, {"dsn": "x.db"}, lines.append)
        self.assertEqual(lines, ["Running select * f..."])

    def test_R_tool_class_per_call_answers_for_these_arguments(self):
        self.host(SQLISH)
        catalog = self.tree_.catalog
        self.assertEqual(call_behaviour(catalog, {"name": "sql__execute",
                                                  "arguments": {"sql": "DELETE FROM t"}}),
                         {"read_only": False, "concurrent": False, "destructive": True,
                          "per_call": True, "problem": None})
        self.assertEqual(call_behaviour(catalog, {"name": "sql__query",
                                                  "arguments": {"sql": "select 1"}}),
                         {"read_only": True, "concurrent": True, "destructive": False,
                          "per_call": True, "problem": None})
        # Arguments that do not fit: the declared answers (the call itself will be refused).
        self.assertEqual(call_behaviour(catalog, {"name": "sql__execute", "arguments": {"sql": 1}})
                         ["destructive"], False)
        self.assertEqual(call_behaviour(catalog, {"name": "other", "arguments": {}})["per_call"], False)

    def test_R_tool_class_per_call_a_method_that_raises_gets_the_cautious_answer(self):
        self.host(HEAD + '''
class T(Tool):
    name = "t"
    read_only = True
    def is_read_only(self, args): raise KeyError("oops")
    def call(self, args, ctx): return ToolResult.ok("")
''')
        answer = call_behaviour(self.tree_.catalog, {"name": "t", "arguments": {}})
        self.assertEqual(answer, {"read_only": False, "concurrent": False, "destructive": True,
                                  "per_call": True, "problem": "is_read_only() raised KeyError: 'oops'"})

    def test_R_tool_class_instance_fresh_for_every_call(self):
        host = self.host(HEAD + '''
class T(Tool):
    name = "t"
    made = 0
    def __init__(self):
        type(self).made += 1
        self.seen = type(self).made
    def call(self, args, ctx): return ToolResult.ok(str(self.seen))
''')
        self.assertEqual([self.text(self.call(host, "t", {})) for _ in range(3)], ["1", "2", "3"])


class ToolClassProtocolTests(TreeCase):
    """The same through the host's own methods, as the studio asks them."""

    def start(self) -> HostProcess:
        root = self.folder() / "tools"
        write_file(root, "t.py", SQLISH.replace("    async def call(self, args, ctx):\n        RAN", (
            "    def check_secret(self, name, value):\n"
            "        return None if value.endswith('.db') else 'this is not a SQLite file'\n"
            "    async def call(self, args, ctx):\n        RAN")))
        host = HostProcess(root)
        self.addCleanup(host.close)
        return host

    def test_R_tool_class_secrets_quiver_check_secret_asks_the_class(self):
        host = self.start()
        good = host.ask("quiver/check_secret", {"path": "t.py", "field": "dsn", "value": "app.db"})
        self.assertEqual(good["result"], {"ok": True, "message": None})
        bad = host.ask("quiver/check_secret", {"path": "t.py", "field": "dsn", "value": "pg://x"})
        self.assertEqual(bad["result"], {"ok": False, "message": "this is not a SQLite file"})

    def test_R_tool_class_per_call_quiver_behaviour_over_the_wire(self):
        host = self.start()
        answer = host.ask("quiver/behaviour", {"name": "sql__execute",
                                               "arguments": {"sql": "DELETE FROM t"}})["result"]
        self.assertEqual((answer["destructive"], answer["concurrent"], answer["per_call"]),
                         (True, False, True))
        unknown = host.ask("quiver/behaviour", {"name": "nope", "arguments": {}})
        self.assertEqual(unknown["error"]["code"], -32602)
        kinds = [f["kind"] for f in host.ask("quiver/catalog")["result"]["files"]]
        self.assertEqual(kinds, ["tool_class"])
