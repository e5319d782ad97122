"""Deriving Tool-class files (docs/rules.md, Tool classes): the shape, input
models, operations, settings shared by a file, and each mistake as an error
against the file with its line."""

import re
import unittest

from quiverhost.input_models import pydantic_base
from quiverhost.tool_class_checks import CAPABILITIES

from tests.support import REPO, TreeCase

HEAD = "from dataclasses import dataclass\nfrom typing import TypedDict\nfrom quiver import Operation, Tool, ToolResult\n"


class ToolClassDeriveTests(TreeCase):
    def derive(self, body: str, detail: bool = False) -> dict:
        return self.entry(HEAD + body.lstrip("\n"), detail=detail)

    def errors(self, body: str) -> list[tuple[int, str]]:
        return [(e["line"], e["message"]) for e in self.derive(body)["errors"]]

    def test_R_tool_class_shape_each_subclass_is_a_tool_named_by_its_name(self):
        entry = self.derive('''
@dataclass
class AddArgs:
    """The fields.

    Attributes:
        a: first number
        b: second number
    """
    a: float
    b: float = 0.0

class AddTool(Tool):
    """Add numbers."""
    name = "add"
    title = "Add numbers"
    description = "Add two numbers and return the sum."
    input_model = AddArgs
    async def call(self, args, ctx):
        return ToolResult.ok(str(args.a + args.b))

class Echo(Tool):
    """Say the text back."""
    name = "echo"
    def call(self, args, ctx):
        return ToolResult.ok("hi")

def helper() -> str:
    return "not a tool"
''')
        self.assertEqual(entry["errors"], [])
        self.assertEqual(entry["kind"], "tool_class")
        add, echo = entry["tools"]
        self.assertEqual((add["name"], add["title"], add["description"]),
                         ("add", "Add numbers", "Add two numbers and return the sum."))
        self.assertEqual(add["input_schema"], {"type": "object", "properties": {
            "a": {"type": "number", "description": "first number"},
            "b": {"type": "number", "description": "second number", "default": 0.0}},
            "required": ["a"]})
        self.assertEqual((echo["name"], echo["title"], echo["description"]),
                         ("echo", "Echo", "Say the text back."))
        self.assertEqual(echo["input_schema"], {"type": "object", "properties": {}, "required": []})

    def test_R_tool_class_shape_a_private_base_shares_code_and_is_no_tool(self):
        entry = self.derive('''
class _Base(Tool):
    runtime = "hosted"
    def call(self, args, ctx): return ToolResult.ok(self.name)
class Ping(_Base):
    name = "ping"
''', detail=True)
        self.assertEqual(entry["errors"], [])
        self.assertEqual([(t["name"], t["behaviour"]["runtime"]) for t in entry["tools"]],
                         [("ping", "hosted")])

    def test_R_tool_class_input_model_typeddict_and_annotated_class(self):
        entry = self.derive('''
from typing import Literal, NotRequired
class Find(TypedDict):
    """The fields.

    Attributes:
        word: what to look for
    """
    word: str
    mode: NotRequired[Literal["exact", "fuzzy"]]

class Page:
    """The fields.

    Attributes:
        n: page number, from 1
    """
    n: int = 1
    tags: list[str] | None

class FindTool(Tool):
    name = "find"
    input_model = Find
    def call(self, args, ctx): return ToolResult.ok(args["word"])

class PageTool(Tool):
    name = "page"
    input_model = Page
    def call(self, args, ctx): return ToolResult.ok(str(args.n))
''')
        self.assertEqual(entry["errors"], [])
        find, page = entry["tools"]
        self.assertEqual(find["input_schema"]["required"], ["word"])
        self.assertEqual(find["input_schema"]["properties"]["mode"],
                         {"type": "string", "enum": ["exact", "fuzzy"]})
        self.assertEqual(page["input_schema"], {"type": "object", "properties": {
            "n": {"type": "integer", "description": "page number, from 1", "default": 1},
            "tags": {"type": "array", "items": {"type": "string"}}}, "required": []})

    def test_R_tool_class_input_model_field_outside_the_table_is_an_error_on_its_line(self):
        self.assertEqual(self.errors('''
import datetime
@dataclass
class A:
    when: datetime.date
class T(Tool):
    name = "t"
    input_model = A
    def call(self, args, ctx): return ToolResult.ok("")
'''), [(7, "the field `when` of A is annotated `date`, which is not in the fixed table of "
               "types; write `str` and parse it inside the tool (an ISO date, say), or one of str, "
               "int, float, bool, list[X], dict[str, X], Literal[...] or X | None")])

    @unittest.skipUnless(pydantic_base(), "pydantic is not importable in this environment")
    def test_R_tool_class_input_model_pydantic_through_its_own_schema(self):
        entry = self.derive('''
from pydantic import BaseModel, Field
class Args(BaseModel):
    a: float = Field(description="first number")
    b: int = Field(default=2, gt=0)
class T(Tool):
    name = "t"
    input_model = Args
    def call(self, args, ctx): return ToolResult.ok("")
''')
        self.assertEqual(entry["errors"], [])
        schema = entry["tools"][0]["input_schema"]
        self.assertEqual(schema["required"], ["a"])
        self.assertEqual(schema["properties"]["a"]["description"], "first number")
        self.assertEqual(schema["properties"]["b"]["exclusiveMinimum"], 0)

    def test_R_tool_class_operations_each_offered_on_its_own(self):
        entry = self.derive('''
@dataclass
class Q:
    sql: str
@dataclass
class E:
    sql: str
    dry: bool = False
class Sql(Tool):
    name = "sql"
    operations = {
        "query": Operation(title="Run a query", description="Read rows.", input_model=Q,
                           capabilities=frozenset({"db.query"}), read_only=True),
        "execute": Operation(title="Change", description="Change rows.", input_model=E,
                             capabilities=frozenset({"db.write"}), destructive=True),
    }
    def call(self, args, ctx): return ToolResult.ok(ctx.operation)
''', detail=True)
        self.assertEqual(entry["errors"], [])
        query, execute = entry["tools"]
        self.assertEqual((query["name"], query["title"], query["read_only"], query["risk"]),
                         ("sql__query", "Run a query", True, "read"))
        self.assertEqual((execute["name"], execute["destructive"], execute["risk"]),
                         ("sql__execute", True, "write"))
        self.assertEqual(list(execute["input_schema"]["properties"]), ["sql", "dry"])
        self.assertEqual(query["behaviour"]["capabilities"], ["db.query"])
        self.assertTrue(query["behaviour"]["concurrent"])
        self.assertFalse(execute["behaviour"]["concurrent"])

    def test_R_tool_class_settings_one_model_per_file_shared_by_its_classes(self):
        entry = self.derive('''
@dataclass
class S:
    """The fields.

    Attributes:
        dsn: the database
    """
    dsn: str
    rows: int = 50
@dataclass
class Other:
    x: str
class A(Tool):
    name = "a"
    settings_model = S
    secret_inputs = frozenset({"dsn"})
    credential_help = "A path to a SQLite file."
    def call(self, args, ctx): return ToolResult.ok("")
class B(Tool):
    name = "b"
    settings_model = Other
    def call(self, args, ctx): return ToolResult.ok("")
''')
        self.assertEqual(entry["settings_schema"], {"type": "object", "properties": {
            "dsn": {"type": "string", "description": "the database", "writeOnly": True,
                    "x-quiver-kind": "secret",
                    "x-quiver-credential-help": "A path to a SQLite file."},
            "rows": {"type": "integer", "default": 50}}, "required": ["dsn"]})
        self.assertEqual([(e["line"], e["message"]) for e in entry["errors"]], [
            (24, "B.settings_model is Other, but A in this file uses S; the tools of one file are "
                 "one source with one set of settings: use S in both, or move B to a file of its own")])

    def test_R_tool_class_paths_declared_together(self):
        self.assertEqual(self.errors('''
@dataclass
class A:
    path: str
class T(Tool):
    name = "t"
    input_model = A
    path_inputs = frozenset({"path"})
    def call(self, args, ctx): return ToolResult.ok("")
'''), [(10, "T declares path_inputs (path) but no root_setting; a path is confined under the "
                "folder the builder sets, so name the settings field that holds it, e.g. "
                'root_setting = "root"')])
        self.assertIn((10, "T declares root_setting = 'root' but no path_inputs; a root confines only "
                           "the inputs declared as paths: list them, e.g. path_inputs = "
                           'frozenset({"path"}), or remove root_setting'), self.errors('''
@dataclass
class S:
    root: str = "."
class T(Tool):
    name = "t"
    settings_model = S
    root_setting = "root"
    def call(self, args, ctx): return ToolResult.ok("")
'''))

    def test_R_tool_class_paths_a_path_field_not_declared_is_an_error(self):
        self.assertEqual(self.errors('''
from pathlib import Path
@dataclass
class A:
    where: Path
class T(Tool):
    name = "t"
    input_model = A
    def call(self, args, ctx): return ToolResult.ok("")
'''), [(7, "`where` of T is a Path, and paths are confined only when declared: add it to "
               "path_inputs (with root_setting), or make it a `str`")])

    def test_R_tool_class_capabilities_from_the_closed_vocabulary(self):
        ts = (REPO / "server" / "operations" / "capabilities.ts").read_text(encoding="utf-8")
        self.assertEqual(tuple(re.findall(r'tag: "([^"]+)"', ts)), CAPABILITIES)
        [(line, message)] = self.errors('''
class T(Tool):
    name = "t"
    capabilities = frozenset({"db.teleport"})
    def call(self, args, ctx): return ToolResult.ok("")
''')
        self.assertEqual(line, 6)
        self.assertTrue(message.startswith('T.capabilities has "db.teleport", which is not in the '
                                           "studio's vocabulary, so no need would ever find it; use "
                                           "one of file.read, "), message)

    def test_R_tool_class_runtime_in_process_or_hosted(self):
        entry = self.derive('''
class T(Tool):
    name = "t"
    runtime = "hosted"
    def call(self, args, ctx): return ToolResult.ok("")
''', detail=True)
        self.assertEqual(entry["tools"][0]["behaviour"]["runtime"], "hosted")
        self.assertEqual(self.errors('''
class T(Tool):
    name = "t"
    runtime = "cloud"
    def call(self, args, ctx): return ToolResult.ok("")
'''), [(6, 'T.runtime is \'cloud\'; write "in_process" (the tool runs in the tool host, so it '
               'reaches localhost) or "hosted" (it calls a service elsewhere, which cannot reach '
               "localhost)")])

    def test_R_tool_class_per_call_marks_the_operations_that_decide_per_call(self):
        entry = self.derive('''
class T(Tool):
    name = "t"
    def is_destructive(self, args): return True
    def call(self, args, ctx): return ToolResult.ok("")
''', detail=True)
        self.assertEqual(entry["tools"][0]["behaviour"]["per_call"], ["is_destructive"])

    def test_R_tool_class_mistakes_each_is_an_error_with_its_line(self):
        cases = {
            # a wrong base
            '''
class T:
    name = "t"
    input_model = None
    def call(self, args, ctx): return ToolResult.ok("")
''': (4, "T is written as a Tool (it has call() and an input_model or operations) but does not "
         "subclass quiver.Tool, so it offers nothing: write `class T(Tool):` with `from quiver "
         "import Tool`"),
            '''
class AddTool(Tool):
    def call(self, args, ctx): return ToolResult.ok("")
''': (4, 'AddTool has no name; write name = "add" in it: the name is the tool\'s identity, which '
         "agents and approvals refer to, so keep it stable (a base for other Tool classes is "
         "private: call it _AddTool)"),
            '''
class T(Tool):
    name = "t"
    input_model = {"a": int}
    def call(self, args, ctx): return ToolResult.ok("")
''': (6, "the input_model of T is a dict, not a class; write a dataclass, a TypedDict, a class "
         "with annotated fields (described in an `Attributes:` docstring) or a pydantic BaseModel"),
            '''
class T(Tool):
    name = "t"
''': (4, "T does not define call(); write `async def call(self, args, ctx) -> ToolResult` "
         "returning ToolResult.ok(text) or ToolResult.error(text)"),
            '''
class T(Tool):
    name = "t"
    def call(self, args): return ToolResult.ok("")
''': (6, "T.call takes (args) besides self; the host passes two, the arguments and the context: "
         "write `async def call(self, args, ctx)`"),
            '''
class T(Tool):
    name = "t"
    operations = {"run query": Operation(title="Q", description="d")}
    def call(self, args, ctx): return ToolResult.ok("")
''': (6, "T.operations has the key 'run query'; an operation's key becomes part of its tool name "
         '(<name>__<key>): use letters, digits and single underscores, e.g. "query"'),
            '''
class T(Tool):
    name = "t"
    operations = {"query": {"title": "Q"}}
    def call(self, args, ctx): return ToolResult.ok("")
''': (6, 'T.operations["query"] is a dict; write Operation(title=..., description=..., '
         "input_model=...) from quiver"),
            '''
class T(Tool):
    name = "t"
    risk = "dangerous"
    def call(self, args, ctx): return ToolResult.ok("")
''': (4, 'T.risk is \'dangerous\'; write one of "read", "write", "exec", "network"'),
            '''
scope = "run"
class T(Tool):
    name = "t"
    def call(self, args, ctx): return ToolResult.ok("")
''': (4, "scope is 'run'; a Tool class is built afresh for every call, so remove scope, and keep "
         'what must last the run in a class file of its own (scope = "run")'),
        }
        for body, expected in cases.items():
            with self.subTest(expected[1][:40]):
                self.assertEqual(self.errors(body), [expected])

    def test_R_tool_class_mistakes_shown_in_the_preview(self):
        tree = self.tree({"ok.py": "def f() -> str:\n    return ''\n"})
        preview = tree.preview("t.py", HEAD + "class T(Tool):\n    pass\n")
        self.assertFalse(preview["offered"])
        self.assertEqual([e["line"] for e in preview["errors"]], [4, 4])
        self.assertIn("T has no name", preview["errors"][0]["message"] + preview["errors"][1]["message"])
