"""Calls that reach back to the studio (ctx.system, R-loop-ctx-system;
ctx.ask, R-loop-ctx-ask): the host sends the studio a request on the call's behalf
and waits; the call's bound stops meanwhile (R-call-wait-not-counted)."""

import time

from tests.fake_studio import FakeStudioCase

REACH = '''
"""Tools that call back."""

from quiver import CallFailed, Context, Refused

TIMEOUT = 1


def read_through(path: str, ctx: Context) -> str:
    """Read a file through the studio's filesystem source."""
    try:
        return "read: " + ctx.system.filesystem.read_file(path=path)
    except Refused as exc:
        return f"refused: {exc}"
    except CallFailed as exc:
        return f"failed ({exc.outcome}): {exc}"


def confirm(question: str, ctx: Context) -> str:
    """Ask the person."""
    return f"answer: {ctx.ask(question, ['yes', 'no'])}"


def positional(ctx: Context) -> str:
    """Call a built-in wrongly."""
    return ctx.system.filesystem.read_file("a.txt")
'''

KEPT = '''
"""A run-scoped class whose Context comes from the call that made it."""

from quiver import Context

SCOPE = "run"


class Kept:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def ask(self) -> str:
        """Ask through the kept Context."""
        return str(self.ctx.ask("still there?"))
'''


class ReachBackTests(FakeStudioCase):
    FILES = {"reach.py": REACH, "kept.py": KEPT}
    TOKEN = "call-1"

    def test_ctx_system_calls_a_built_in_through_the_studio(self):
        host = self.start()
        sent = self.call(host, "reach__read_through", {"path": "a.txt"})
        request = self.studio_request(host)
        self.assertEqual(request["method"], "quiver/system")
        self.assertEqual(request["params"], {"source": "filesystem", "operation": "read_file",
                                             "arguments": {"path": "a.txt"}, "call": "call-1"})
        self.answer(host, request, {"outcome": "ok", "text": "hello"})
        self.assertEqual(self.text(host.reply(sent)), "read: hello")

    def test_ctx_system_refusal_and_failure_reach_the_tool_as_exceptions(self):
        host = self.start()
        sent = self.call(host, "reach__read_through", {"path": "a.txt"})
        self.answer(host, self.studio_request(host), {"outcome": "refused", "text": "not narrowed to it"})
        self.assertEqual(self.text(host.reply(sent)), "refused: not narrowed to it")
        sent = self.call(host, "reach__read_through", {"path": "a.txt"})
        self.answer(host, self.studio_request(host), {"outcome": "timeout", "text": "too slow"})
        self.assertEqual(self.text(host.reply(sent)), "failed (timeout): too slow")

    def test_waiting_on_the_studio_does_not_count_against_the_bound(self):
        host = self.start()
        sent = self.call(host, "reach__confirm", {"question": "Go on?"})
        request = self.studio_request(host)
        self.assertEqual(request["method"], "quiver/ask")
        self.assertEqual(request["params"], {"question": "Go on?", "choices": ["yes", "no"],
                                             "call": "call-1"})
        time.sleep(1.6)  # past the file's TIMEOUT of 1 s
        self.answer(host, request, {"answer": "yes"})
        reply = host.reply(sent)
        self.assertEqual(reply["result"]["_meta"]["quiver/outcome"], "ok")
        self.assertEqual(self.text(reply), "answer: yes")

    def test_no_answer_from_the_person_is_none(self):
        host = self.start()
        sent = self.call(host, "reach__confirm", {"question": "Go on?"})
        self.answer(host, self.studio_request(host), {"answer": None})
        self.assertEqual(self.text(host.reply(sent)), "answer: None")

    def test_outside_a_run_ctx_system_says_where_it_works(self):
        host = self.start()
        reply = host.reply(self.call(host, "reach__read_through", {"path": "a.txt"}, token=None))
        self.assertIn("works only in a run of an agent", self.text(reply))
        self.assertEqual(reply["result"]["_meta"]["quiver/outcome"], "failed")

    def test_a_client_that_cannot_answer_is_told_apart(self):
        host = self.start()
        sent = self.call(host, "reach__confirm", {"question": "Go on?"})
        self.answer(host, self.studio_request(host), error={"code": -32601, "message": "Method not found"})
        self.assertIn("needs the Quiver studio", self.text(host.reply(sent)))

    def test_ctx_system_takes_keyword_arguments_only(self):
        host = self.start()
        reply = host.reply(self.call(host, "reach__positional", {}))
        self.assertIn("with keyword arguments", self.text(reply))

    def test_a_kept_context_speaks_for_the_call_running_now(self):
        host = self.start()
        first = self.call(host, "kept__ask", {}, token="call-1")
        request = self.studio_request(host)
        self.assertEqual(request["params"]["call"], "call-1")
        self.answer(host, request, {"answer": "one"})
        self.assertEqual(self.text(host.reply(first)), "one")
        second = self.call(host, "kept__ask", {}, token="call-2")
        request = self.studio_request(host)
        self.assertEqual(request["params"]["call"], "call-2")
        self.answer(host, request, {"answer": "two"})
        self.assertEqual(self.text(host.reply(second)), "two")
