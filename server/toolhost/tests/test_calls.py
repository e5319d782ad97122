"""What a call answers (docs/rules.md, What a call answers: results, errors,
the cut and the timeout; R-result-outcome), how instances live by scope, and
ctx.tool."""

import base64
import os
import queue
import threading
import time

from quiverhost.calls import Control, _bound

from tests.support import TreeCase, write_file

TOOLS = '''
import asyncio
import time
from quiver import Image, Refused, TransientError


def echo(text: str) -> str:
    return text


def numbers(n: int) -> list[int]:
    return list(range(n))


def nothing() -> None:
    return None


def a_set() -> str:
    return {1, 2}


def broken() -> str:
    raise ValueError("lines are counted from 1; start=0 reads nothing")


def refuse() -> str:
    raise Refused("that file is outside the workspace")


def flaky() -> str:
    raise TransientError("the upstream answered 503")


def long(n: int) -> str:
    return "a" * 5000 + "m" * (n - 6000) + "z" * 1000


def sleep(seconds: float) -> str:
    time.sleep(seconds)
    return "slept"


async def later(text: str) -> str:
    await asyncio.sleep(0.01)
    return text.upper()


def maybe(since: int | None, depth: int = 3) -> dict:
    return {"since": since, "depth": depth}


def picture() -> list:
    return ["a red dot", Image(b"PNG...", "image/png")]


def leave() -> str:
    raise SystemExit(3)
'''


class ResultTests(TreeCase):
    def setUp(self):
        self.host = self.calls({"t.py": TOOLS})

    def call(self, name, arguments=None, meta=None):
        return self.host.call(name, arguments or {}, meta or {})

    def test_str_result_is_the_text(self):
        result = self.call("t__echo", {"text": "hi"})
        self.assertEqual(result["content"], [{"type": "text", "text": "hi"}])
        self.assertFalse(result["isError"])
        self.assertEqual(result["_meta"]["quiver/outcome"], "ok")
        self.assertIsInstance(result["_meta"]["quiver/duration_ms"], int)

    def test_json_result_is_its_json_text(self):
        self.assertEqual(self.text(self.call("t__numbers", {"n": 3})), "[0, 1, 2]")
        self.assertEqual(self.text(self.call("t__nothing")), "null")

    def test_non_json_result_is_an_error(self):
        result = self.call("t__a_set")
        self.assertTrue(result["isError"])
        self.assertEqual(self.text(result), "TypeError: the result of t__a_set is not JSON (set is not "
                                            "serialisable); return str, int, float, bool, None, list "
                                            "or dict")

    def test_exception_is_type_and_message(self):
        result = self.call("t__broken")
        self.assertEqual(self.text(result), "ValueError: lines are counted from 1; start=0 reads nothing")
        self.assertEqual((result["isError"], result["_meta"]["quiver/outcome"]), (True, "failed"))

    def test_refused_is_a_refusal_not_a_failure(self):
        result = self.call("t__refuse")
        self.assertEqual(self.text(result), "Refused: that file is outside the workspace")
        self.assertEqual(result["_meta"]["quiver/outcome"], "refused")

    def test_transient_error_is_transient(self):
        self.assertEqual(self.call("t__flaky")["_meta"]["quiver/outcome"], "transient")

    def test_system_exit_in_a_tool_does_not_end_the_host(self):
        self.assertEqual(self.text(self.call("t__leave")), "SystemExit: 3")
        self.assertEqual(self.text(self.call("t__echo", {"text": "still here"})), "still here")

    def test_long_text_is_cut_and_kept_whole_in_a_file(self):
        workdir = self.folder()
        self.host = self.calls({"t.py": TOOLS}, workdir)
        result = self.call("t__long", {"n": 30_000})
        text = self.text(result)
        kept = result["_meta"]["quiver/truncated"]
        self.assertEqual(os.path.dirname(kept), str(workdir / ".results"))
        self.assertRegex(kept, r"/tool-[0-9a-f-]{36}\.txt$")
        with open(kept, encoding="utf-8") as whole:
            self.assertEqual(len(whole.read()), 30_000)
        self.assertTrue(text.startswith("a" * 4000))
        self.assertFalse(text.startswith("a" * 4001))
        self.assertTrue(text.endswith("z" * 1000))
        self.assertIn(f"The whole of it is in .results/{os.path.basename(kept)} (in the tool host's "
                      "working folder)", text)
        self.assertIn("30,000 characters", text)
        self.assertLess(len(text), 5400)

    def test_text_of_20000_characters_is_not_cut(self):
        result = self.call("t__echo", {"text": "x" * 20_000})
        self.assertEqual(len(self.text(result)), 20_000)
        self.assertNotIn("quiver/truncated", result["_meta"])

    def test_async_function_runs_on_its_own_loop(self):
        self.assertEqual(self.text(self.call("t__later", {"text": "up"})), "UP")

    def test_optional_left_out_is_passed_as_none(self):
        self.assertEqual(self.text(self.call("t__maybe")), '{"since": null, "depth": 3}')

    def test_image_beside_text_is_image_content(self):
        content = self.call("t__picture")["content"]
        self.assertEqual(content[0], {"type": "text", "text": "a red dot"})
        self.assertEqual(content[1], {"type": "image", "mimeType": "image/png",
                                      "data": base64.b64encode(b"PNG...").decode()})

    def test_unknown_tool_names_close_ones(self):
        result = self.call("t__ecko")
        self.assertTrue(result["isError"])
        self.assertIn("Unknown tool `t__ecko`; did you mean t__echo", self.text(result))

    def test_wrong_argument_type_is_refused_before_running(self):
        result = self.call("t__numbers", {"n": "three"})
        self.assertEqual(self.text(result), "Refused: `n` of t__numbers must be an integer, not a string")

    def test_missing_argument_is_refused(self):
        self.assertEqual(self.text(self.call("t__echo")), "Refused: t__echo needs the argument `text`")

    def test_tools_of_a_file_with_errors_are_not_callable(self):
        host = self.calls({"bad.py": "def ok() -> str:\n    return ''\n\n\ndef f(x) -> str:\n    return ''\n"})
        self.assertIn("Unknown tool", self.text(host.call("bad__ok", {}, {})))

    def test_a_call_to_a_file_that_does_not_import_says_so_with_its_first_error(self):
        host = self.calls({"broken.py": "import not_a_module_anywhere\n\n\ndef run() -> str:\n"
                                        "    return ''\n", "fine.py": "def run() -> str:\n    return ''\n"})
        result = host.call("broken__run", {}, {})
        self.assertEqual(result["_meta"]["quiver/outcome"], "refused")
        self.assertEqual(self.text(result), (
            "Unknown tool `broken__run`: broken.py does not import (line 1: ModuleNotFoundError: "
            "No module named 'not_a_module_anywhere'), so it offers no tools until it is fixed."))

    def test_a_call_to_a_file_with_errors_names_the_first(self):
        host = self.calls({"bad.py": "def ok() -> str:\n    return ''\n\n\ndef f(x) -> str:\n    return ''\n"})
        self.assertRegex(self.text(host.call("bad__ok", {}, {})),
                         r"^Unknown tool `bad__ok`: bad\.py has errors \(line 5: .*`x`.*\), so it "
                         r"offers no tools until they are fixed\.$")


class TimeoutTests(TreeCase):
    def test_timeout_then_next_call_served(self):
        host = self.calls({"t.py": TOOLS})
        started = time.monotonic()
        result = host.call("t__sleep", {"seconds": 3}, {"quiver/timeout": 0.3})
        self.assertLess(time.monotonic() - started, 2)
        self.assertEqual(result["_meta"]["quiver/outcome"], "timeout")
        self.assertEqual(self.text(result), "TimeoutError: t__sleep did not finish within 0.3 s; it may "
                                            "have partly run, so check its effects before calling it again.")
        self.assertEqual(self.text(host.call("t__echo", {"text": "next"}, {})), "next")

    def test_past_its_bound_a_call_is_answered_for_while_its_thread_is_left_to_it(self):
        host = self.calls({"t.py": TOOLS})
        early, returned = queue.Queue(), queue.Queue()
        control = Control(early.put)
        running = threading.Thread(target=lambda: returned.put(host.run(
            "t__sleep", {"seconds": 1}, {"quiver/timeout": 0.2}, control=control)), daemon=True)
        running.start()
        answer = early.get(timeout=5)
        self.assertEqual(answer["_meta"]["quiver/outcome"], "timeout")
        self.assertTrue(running.is_alive())  # the tool still sleeps on the thread that ran it
        self.assertIsNone(returned.get(timeout=5))  # and its late result is not an answer

    def test_a_cancelled_call_answers_nothing_then_or_later(self):
        host = self.calls({"t.py": TOOLS})
        early, returned = queue.Queue(), queue.Queue()
        control = Control(early.put)
        running = threading.Thread(target=lambda: returned.put(host.run(
            "t__sleep", {"seconds": 0.3}, {}, control=control)), daemon=True)
        running.start()
        time.sleep(0.05)
        control.cancel()
        self.assertIsNone(early.get(timeout=5))
        self.assertIsNone(returned.get(timeout=5))

    def test_own_timeout_wins_over_the_callers(self):
        source = "import time\nTIMEOUT = 0.2\n\n\ndef nap() -> str:\n    time.sleep(2)\n    return ''\n"
        host = self.calls({"t.py": source})
        result = host.call("t__nap", {}, {"quiver/timeout": 30})
        self.assertIn("did not finish within 0.2 s", self.text(result))

    def test_bound_defaults_and_caps(self):
        tree = self.tree({"t.py": TOOLS, "m.py": 'SCHEMA = {"name": "m"}\nARG_TIMEOUT = True\n'
                          'MAX_TIMEOUT = 50\n\n\nasync def execute(args, ctx):\n    return ""\n',
                          "i.py": 'SCHEMA = {"name": "i"}\nINTERACTIVE = True\n\n\n'
                          'async def execute(args, ctx):\n    return ""\n'})
        echo = tree.catalog.find("t__echo")[0]
        self.assertEqual(_bound(echo, {}, {}), 120)
        self.assertEqual(_bound(echo, {}, {"quiver/timeout": 9000}), 600)
        module = tree.catalog.find("m")[0]
        self.assertEqual(_bound(module, {"timeout": 10}, {}), 10)
        self.assertEqual(_bound(module, {"timeout": 100}, {}), 50)
        self.assertIsNone(_bound(tree.catalog.find("i")[0], {}, {}))


SHELL = '''
scope = "run"
BUILT = []


class Shell:
    def __init__(self):
        BUILT.append(self)
        self.cwd = "/"

    def cd(self, path: str) -> str:
        self.cwd = path
        return self.cwd

    def pwd(self) -> str:
        return self.cwd
'''

EDITOR = '''
from quiver import Context


class Editor:
    def __init__(self, ctx: Context):
        self.ctx = ctx

    def where(self) -> str:
        return self.ctx.tool("shell").pwd()

    def same(self) -> bool:
        import shell
        return self.ctx.tool("shell") is shell.BUILT[-1]

    def myself(self) -> str:
        return self.ctx.tool("editor")

    def functions(self) -> str:
        return self.ctx.tool("plain").hello()
'''


class ScopeTests(TreeCase):
    def setUp(self):
        self.host = self.calls({"shell.py": SHELL, "editor.py": EDITOR,
                                "plain.py": "def hello() -> str:\n    return 'hi'\n"})

    def test_scope_run_keeps_one_instance_per_session(self):
        self.host.call("shell__cd", {"path": "/tmp"}, {})
        self.assertEqual(self.text(self.host.call("shell__pwd", {}, {})), "/tmp")
        self.assertEqual(self.text(self.host.call("shell__pwd", {}, {"quiver/session": "other"})), "/")

    def test_scope_call_builds_one_instance_per_call(self):
        host = self.calls({"c.py": SHELL.replace('scope = "run"', 'scope = "call"')})
        host.call("c__cd", {"path": "/tmp"}, {})
        self.assertEqual(self.text(host.call("c__pwd", {}, {})), "/")

    def test_ctx_tool_is_the_same_instance_the_session_uses(self):
        self.host.call("shell__cd", {"path": "/srv"}, {"quiver/session": "s1"})
        self.assertEqual(self.text(self.host.call("editor__where", {}, {"quiver/session": "s1"})), "/srv")
        self.assertEqual(self.text(self.host.call("editor__same", {}, {"quiver/session": "s1"})), "true")

    def test_ctx_tool_of_a_functions_file_is_its_module(self):
        self.assertEqual(self.text(self.host.call("editor__functions", {}, {})), "hi")

    def test_a_file_cannot_ask_for_itself(self):
        self.assertIn("LookupError: a file cannot ask for itself",
                      self.text(self.host.call("editor__myself", {}, {})))

    def test_changed_file_drops_its_kept_instance(self):
        self.host.call("shell__cd", {"path": "/tmp"}, {})
        write_file(self.host.tree.root, "shell.py", SHELL + "\n# edited\n")
        self.host.sessions.drop_files(self.host.tree.refresh())
        self.assertEqual(self.text(self.host.call("shell__pwd", {}, {})), "/")


MODULE = '''
from quiver import note_tool_failure, note_tool_refusal

SCHEMA = {"name": "greet", "parameters": {"type": "object", "properties": {"who": {"type": "string"}}}}


async def execute(args, ctx):
    ctx.progress("looking")
    if args is None:
        return "no arguments at all"
    if args.get("who") == "nobody":
        note_tool_refusal(ctx)
        return "I won't greet nobody."
    if args.get("who") == "server":
        note_tool_failure("the server is down")
        return "The server is down right now."
    return f"hello {args['who']} ({ctx.call_id != ''}, {bool(ctx.workdir)})"
'''


class ModuleCallTests(TreeCase):
    def setUp(self):
        self.host = self.calls({"greet.py": MODULE})

    def test_execute_gets_the_arguments_dict_and_a_context(self):
        lines = []
        result = self.host.call("greet", {"who": "Ada"}, {}, progress=lines.append)
        self.assertEqual(self.text(result), "hello Ada (True, True)")
        self.assertEqual(lines, ["looking"])

    def test_execute_may_get_none(self):
        self.assertEqual(self.text(self.host.call("greet", None, {})), "no arguments at all")

    def test_note_tool_refusal_makes_the_string_a_refusal(self):
        result = self.host.call("greet", {"who": "nobody"}, {})
        self.assertEqual((result["isError"], result["_meta"]["quiver/outcome"]), (True, "refused"))

    def test_note_tool_failure_makes_the_string_a_failure(self):
        result = self.host.call("greet", {"who": "server"}, {})
        self.assertEqual((result["isError"], result["_meta"]["quiver/outcome"]), (True, "failed"))
        self.assertEqual(self.text(result), "The server is down right now.")
