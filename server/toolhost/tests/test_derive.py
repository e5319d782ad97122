"""How a file becomes a catalog entry: kinds, names, order, @tool, classes,
behaviour, and the catalog's exact shape (docs/rules.md, Tool files)."""

import contextlib
import io

from quiverhost.catalog import CheckGate

from tests.support import TreeCase

FUNCTIONS = '''
"""Notes kept on this machine.

More words for the human.
"""

TITLE = "Notes"


def write(subject: str, body: str) -> str:
    """Write one note.

    Args:
        subject: File name of the note.
        body: The note itself.
    """
    return "ok"


def read_all() -> str:
    """Read every note."""
    return "ok"


def _private() -> str:
    return "never a tool"
'''


class CatalogShapeTests(TreeCase):
    def test_catalog_entry_has_exactly_the_agreed_keys(self):
        entry = self.entry(FUNCTIONS, "notes.py")
        self.assertEqual(list(entry), ["path", "kind", "title", "description", "offered",
                                       "unavailable", "tools", "settings_schema", "errors"])
        self.assertEqual(list(entry["tools"][0]), ["name", "title", "description", "input_schema",
                                                   "scope", "risk", "read_only", "destructive",
                                                   "timeout", "replay"])

    def test_detail_adds_behaviour_and_file_detail(self):
        entry = self.entry(FUNCTIONS, "notes.py", detail=True)
        self.assertEqual(set(entry["tools"][0]["behaviour"]),
                         {"concurrent", "capabilities", "interactive", "arg_timeout", "max_timeout",
                          "voice", "expressions", "checked"})
        self.assertEqual(entry["detail"]["module"], "notes")

    def test_title_is_the_file_constant_and_description_the_first_docstring_line(self):
        entry = self.entry(FUNCTIONS, "notes.py")
        self.assertEqual((entry["title"], entry["description"]), ("Notes", "Notes kept on this machine."))

    def test_no_title_and_no_docstring_are_null(self):
        entry = self.entry("def f() -> str:\n    return ''\n")
        self.assertIsNone(entry["title"])
        self.assertIsNone(entry["description"])
        self.assertEqual(entry["tools"][0]["description"], "")

    def test_tool_names_are_file__function(self):
        entry = self.entry(FUNCTIONS, "notes.py")
        self.assertEqual([t["name"] for t in entry["tools"]], ["notes__write", "notes__read_all"])

    def test_operation_title_is_the_humanized_function_name(self):
        entry = self.entry(FUNCTIONS, "notes.py")
        self.assertEqual(entry["tools"][1]["title"], "Read all")

    def test_description_is_only_the_first_docstring_line(self):
        source = 'def f() -> str:\n    """First line.\n\n    Second paragraph, for humans.\n    """\n'
        self.assertEqual(self.tool(source)["description"], "First line.")

    def test_private_functions_are_not_tools(self):
        names = [t["name"] for t in self.entry(FUNCTIONS, "notes.py")["tools"]]
        self.assertNotIn("notes___private", names)

    def test_source_order_not_alphabetical(self):
        source = "def zeta() -> str:\n    return ''\n\n\ndef alpha() -> str:\n    return ''\n"
        self.assertEqual([t["name"] for t in self.entry(source)["tools"]], ["t__zeta", "t__alpha"])

    def test_imported_functions_are_not_tools(self):
        entry = self.entry("from os.path import join\nfrom json import dumps\n\n\n"
                           "def f() -> str:\n    return ''\n")
        self.assertEqual([t["name"] for t in entry["tools"]], ["t__f"])

    def test_tool_name_must_match_the_provider_pattern(self):
        errors = self.errors("def café() -> str:\n    return ''\n")
        self.assertEqual(errors[0][0], 1)
        self.assertIn("^[a-zA-Z0-9_-]{1,128}$", errors[0][1])


class ToolMarkerTests(TreeCase):
    def test_tool_marker_narrows_the_file(self):
        source = ("from quiver import tool\n\n\n@tool\ndef one() -> str:\n    return ''\n\n\n"
                  "def two() -> str:\n    return ''\n\n\n@tool(title='Third')\n"
                  "def three() -> str:\n    return ''\n")
        entry = self.entry(source)
        self.assertEqual([t["name"] for t in entry["tools"]], ["t__one", "t__three"])
        self.assertEqual(entry["tools"][1]["title"], "Third")

    def test_tool_options_override_file_defaults(self):
        source = ("from quiver import tool\n\nRISK = 'network'\nTIMEOUT = 30\nREPLAY = 'safe'\n\n\n"
                  "@tool(risk='write', timeout=5, destructive=True, replay='idempotent',"
                  " capabilities=['file.write'])\ndef put() -> str:\n    return ''\n\n\n"
                  "@tool\ndef get() -> str:\n    return ''\n")
        entry = self.entry(source, detail=True)
        put, get = entry["tools"]
        self.assertEqual((put["risk"], put["timeout"], put["destructive"], put["replay"], put["read_only"]),
                         ("write", 5, True, "idempotent", False))
        self.assertEqual(put["behaviour"]["capabilities"], ["file.write"])
        self.assertEqual((get["risk"], get["timeout"], get["replay"]), ("network", 30, "safe"))

    def test_behaviour_defaults(self):
        entry = self.entry("def f() -> str:\n    return ''\n", detail=True)
        tool = entry["tools"][0]
        self.assertEqual((tool["risk"], tool["read_only"], tool["destructive"], tool["timeout"],
                          tool["replay"], tool["scope"]), ("read", True, False, None, "manual", "call"))
        self.assertTrue(tool["behaviour"]["concurrent"])

    def test_write_risk_is_not_read_only_nor_concurrent(self):
        entry = self.entry("RISK = 'write'\n\n\ndef f() -> str:\n    return ''\n", detail=True)
        tool = entry["tools"][0]
        self.assertFalse(tool["read_only"])
        self.assertFalse(tool["behaviour"]["concurrent"])

    def test_bad_risk_constant_is_an_error_with_its_line(self):
        errors = self.errors("import os\n\nRISK = 'dangerous'\n\n\ndef f() -> str:\n    return ''\n")
        self.assertEqual(errors, [(3, "RISK is 'dangerous'; write one of \"read\", \"write\", "
                                      "\"exec\", \"network\"")])

    def test_timeout_over_600_is_an_error(self):
        errors = self.errors("TIMEOUT = 900\n\n\ndef f() -> str:\n    return ''\n")
        self.assertEqual(errors[0][0], 1)
        self.assertIn("never bounded above 600 s", errors[0][1])

    def test_bad_tool_option_is_an_error_at_the_def(self):
        errors = self.errors("from quiver import tool\n\n\n@tool(replay='sometimes')\n"
                             "def f() -> str:\n    return ''\n")
        self.assertEqual(errors[0][0], 5)
        self.assertIn("@tool(replay='sometimes') on f()", errors[0][1])


SHELL = '''
"""A shell."""

scope = "run"


class Shell:
    """The session persists for the whole run."""

    def __init__(self):
        self.cwd = "/"

    def run(self, cmd: str) -> str:
        """Run one command."""
        return cmd

    def cd(self, path: str) -> str:
        """Change directory."""
        return path

    def _helper(self) -> None:
        pass
'''


class ClassFileTests(TreeCase):
    def test_public_methods_of_the_class_are_the_tools(self):
        entry = self.entry(SHELL, "shell.py")
        self.assertEqual(entry["kind"], "class")
        self.assertEqual([t["name"] for t in entry["tools"]], ["shell__run", "shell__cd"])
        self.assertEqual(entry["tools"][0]["scope"], "run")

    def test_class_docstring_appended_in_parentheses(self):
        tool = self.entry(SHELL, "shell.py")["tools"][0]
        self.assertEqual(tool["description"], "Run one command.\n(The session persists for the whole run.)")

    def test_module_functions_are_not_tools_when_there_is_a_class(self):
        entry = self.entry(SHELL + "\n\ndef loose() -> str:\n    return ''\n", "shell.py")
        self.assertEqual([t["name"] for t in entry["tools"]], ["shell__run", "shell__cd"])

    def test_two_public_classes_export_nothing(self):
        source = "class A:\n    def a(self) -> str:\n        return ''\n\n\nclass B:\n    pass\n"
        entry = self.entry(source)
        self.assertEqual(entry["tools"], [])
        self.assertFalse(entry["offered"])
        self.assertEqual(entry["errors"][0]["line"], 6)
        self.assertIn("B is a second public class (after A, line 1)", entry["errors"][0]["message"])

    def test_settings_imported_and_exception_classes_do_not_count(self):
        source = ("from collections import OrderedDict\n\n\nclass Settings:\n    depth: int = 1\n\n\n"
                  "class NotFound(Exception):\n    pass\n\n\nclass Tool:\n"
                  "    def go(self, settings: Settings) -> str:\n        return ''\n")
        entry = self.entry(source)
        self.assertEqual(entry["errors"], [])
        self.assertEqual([t["name"] for t in entry["tools"]], ["t__go"])

    def test_scope_other_than_call_or_run_is_an_error(self):
        errors = self.errors("scope = 'forever'\n\n\nclass A:\n    def a(self) -> str:\n        return ''\n")
        self.assertEqual(errors[0][0], 1)
        self.assertIn('write scope = "call"', errors[0][1])

    def test_init_with_two_arguments_is_an_error(self):
        source = ("class A:\n    def __init__(self, ctx, other):\n        pass\n\n"
                  "    def a(self) -> str:\n        return ''\n")
        self.assertIn("the host passes one, a Context", self.errors(source)[0][1])

    def test_context_and_settings_parameters_are_injected_not_in_schema(self):
        source = ("from quiver import Context\n\n\nclass Settings:\n    depth: int = 1\n\n\n"
                  "def f(ctx: Context, q: str, settings: Settings) -> str:\n    return ''\n")
        tool = self.tool(source)
        self.assertEqual(list(tool["input_schema"]["properties"]), ["q"])
        self.assertEqual(tool["input_schema"]["required"], ["q"])


class ModuleShapeTests(TreeCase):
    def test_schema_module_is_named_by_schema_name(self):
        source = ('SCHEMA = {"type": "function", "name": "hn_top", "description": "Top stories.",\n'
                  '          "parameters": {"type": "object", "properties": {"count": {"type": "integer"}},'
                  ' "required": []}}\nRISK = "network"\n\n\nasync def execute(args, ctx):\n    return "x"\n')
        entry = self.entry(source, "hn.py")
        self.assertEqual(entry["kind"], "module")
        tool = entry["tools"][0]
        self.assertEqual((tool["name"], tool["description"], tool["risk"], tool["title"]),
                         ("hn_top", "Top stories.", "network", "Hn top"))
        self.assertEqual(tool["input_schema"]["properties"], {"count": {"type": "integer"}})

    def test_schema_without_name_uses_the_file_stem(self):
        source = 'SCHEMA = {"description": "Pong."}\n\n\nasync def execute(args, ctx):\n    return "pong"\n'
        tool = self.tool(source, "ping.py")
        self.assertEqual(tool["name"], "ping")
        self.assertEqual(tool["input_schema"], {"type": "object", "properties": {}, "required": []})

    def test_missing_schema_is_skipped_silently(self):
        entry = self.entry("async def execute(args, ctx):\n    return 'x'\n")
        self.assertEqual((entry["kind"], entry["tools"], entry["errors"], entry["offered"]),
                         ("module", [], [], True))

    def test_schema_not_a_dict_is_skipped_silently(self):
        entry = self.entry("SCHEMA = 'nope'\n\n\nasync def execute(args, ctx):\n    return 'x'\n")
        self.assertEqual((entry["tools"], entry["errors"]), ([], []))

    def test_non_async_execute_is_reported(self):
        errors = self.errors('SCHEMA = {"name": "x"}\n\n\ndef execute(args, ctx):\n    return "x"\n')
        self.assertEqual(errors[0][0], 4)
        self.assertIn("execute must be `async def execute(args, ctx)`", errors[0][1])

    def test_schema_parameters_that_are_not_json_are_an_error(self):
        errors = self.errors('SCHEMA = {"name": "x", "parameters": {"enum": {1, 2}}}\n\n\n'
                             'async def execute(args, ctx):\n    return ""\n')
        self.assertEqual(errors[0][0], 1)
        self.assertIn('SCHEMA["parameters"] is not JSON (set is not serialisable)', errors[0][1])

    def test_voice_and_timeouts_are_carried_in_detail(self):
        source = ('SCHEMA = {"name": "slow"}\nANNOUNCE = "Looking..."\nHEARTBEAT = ["Still..."]\n'
                  'COMPLETE = "Done:"\nFAIL = "No."\nEXPRESSIONS = {"focus": "thinking"}\n'
                  'ARG_TIMEOUT = True\nMAX_TIMEOUT = 300\nINTERACTIVE = False\n\n\n'
                  'async def execute(args, ctx):\n    return "x"\n')
        behaviour = self.entry(source, detail=True)["tools"][0]["behaviour"]
        self.assertEqual(behaviour["voice"], {"announce": "Looking...", "heartbeat": ["Still..."],
                                              "complete": "Done:", "fail": "No."})
        self.assertEqual((behaviour["arg_timeout"], behaviour["max_timeout"]), (True, 300))
        self.assertEqual(behaviour["expressions"], {"focus": "thinking"})


class TreeRuleTests(TreeCase):
    def test_same_tool_name_in_two_files_is_an_error_on_the_later_file(self):
        tree = self.tree({
            "a.py": 'SCHEMA = {"name": "b__go"}\n\n\nasync def execute(args, ctx):\n    return ""\n',
            "b.py": "import os\n\n\ndef go() -> str:\n    return ''\n",
        })
        first, second = tree.catalog.entries()
        self.assertTrue(first["offered"])
        self.assertFalse(second["offered"])
        self.assertEqual(second["errors"][0]["line"], 4)
        self.assertIn("already taken by a.py", second["errors"][0]["message"])
        self.assertEqual(tree.catalog.find("b__go")[1].path, "a.py")

    def test_underscore_files_are_helpers_never_tools(self):
        tree = self.tree({"_helpers.py": '"""Shared bits."""\n\n\ndef clip(s: str) -> str:\n    return s\n'})
        entry = tree.catalog.entry("_helpers.py")
        self.assertEqual((entry["kind"], entry["tools"], entry["description"]),
                         ("helper", [], "Shared bits."))

    def test_files_in_path_order(self):
        tree = self.tree({"b.py": "", "a.py": "", "_h.py": ""})
        self.assertEqual([e["path"] for e in tree.catalog.entries()], ["_h.py", "a.py", "b.py"])


CHECKED = '''
ANSWERS = [True]

SCHEMA = {"name": "gated"}


def check():
    answer = ANSWERS[0]
    if isinstance(answer, Exception):
        raise answer
    return answer


async def execute(args, ctx):
    return "ran"
'''


class CheckGateTests(TreeCase):
    def setUp(self):
        self.tree_ = self.tree({"g.py": CHECKED})
        self.answers = self.tree_.catalog.file("g.py").module.ANSWERS
        self.gate = CheckGate()

    def listed(self) -> list[str]:
        return [tool["name"] for tool in self.tree_.catalog.listing(self.gate)]

    def test_check_false_keeps_the_tool_out_of_tools_list(self):
        self.answers[0] = False
        self.assertEqual(self.listed(), [])
        self.assertIsNotNone(self.tree_.catalog.find("gated"))  # still callable by name

    def test_check_answer_is_cached_for_30_seconds(self):
        self.assertEqual(self.listed(), ["gated"])
        self.answers[0] = False
        self.assertEqual(self.listed(), ["gated"])
        self.gate.TTL = 0
        self.assertEqual(self.listed(), [])

    def test_check_that_raises_keeps_its_last_answer(self):
        self.gate.TTL = 0
        self.assertEqual(self.listed(), ["gated"])
        self.answers[0] = RuntimeError("daemon is slow")
        with contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(self.listed(), ["gated"])

    def test_check_that_raises_with_nothing_cached_reads_as_unavailable(self):
        self.answers[0] = RuntimeError("no daemon")
        with contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(self.listed(), [])
