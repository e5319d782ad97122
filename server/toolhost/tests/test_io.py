"""ctx.io, the IOHandler (docs/rules.md, "Asking the person from a tool"): each
method sends one quiver/io request for the call, usable from a plain def (it
blocks) and from an async def (it returns an awaitable), and answers the safe
way when nobody answers."""

import asyncio
import threading
import unittest

import quiver
from quiver import CallFailed, Context, IOHandler


class FakeStudio:
    """The studio as a call reaches it: records each request, answers from a script."""

    def __init__(self, *replies):
        self.requests = []
        self.threads = []
        self.replies = list(replies)

    def __call__(self, method, params):
        self.requests.append((method, params))
        self.threads.append(threading.current_thread())
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return reply


def context(studio) -> Context:
    witness = quiver._Witness(studio=studio)
    return Context(call_id="c1", workdir=".", session=None, file="t.py",
                   tool=lambda name: None, witness=witness)


class IOHandlerTests(unittest.TestCase):
    def test_R_tool_io_methods_each_send_one_request_of_its_kind(self):
        studio = FakeStudio({"answer": "blue"}, {"approved": True, "note": "go"},
                            {"approved": True}, {"decision": "once"})
        io = context(studio).io
        self.assertIsInstance(io, IOHandler)
        self.assertEqual(io.ask("Which colour?", ["red", "blue"]), "blue")
        self.assertEqual(io.request_plan_approval("1. read\n2. write"), (True, "go"))
        self.assertIs(io.request_shell_approval("ls -la", "to see the files"), True)
        self.assertEqual(io.request_write_approval("out/report.md", "the weekly report"), "once")
        self.assertEqual(studio.requests, [
            ("quiver/io", {"kind": "ask", "question": "Which colour?", "options": ["red", "blue"]}),
            ("quiver/io", {"kind": "plan", "plan": "1. read\n2. write"}),
            ("quiver/io", {"kind": "shell", "command": "ls -la", "reason": "to see the files"}),
            ("quiver/io", {"kind": "write", "path": "out/report.md",
                           "summary": "the weekly report"}),
        ])

    def test_R_tool_io_decisions_come_back_as_the_seed_types(self):
        io = context(FakeStudio({"approved": False, "note": "too broad"}, {"approved": False},
                                {"decision": "always"}, {"answer": None})).io
        self.assertEqual(io.request_plan_approval("the plan"), (False, "too broad"))
        self.assertIs(io.request_shell_approval("rm -rf build", ""), False)
        self.assertEqual(io.request_write_approval("a.txt", ""), "always")
        self.assertIsNone(io.ask("Anything else?"))

    def test_R_tool_io_nobody_answers_the_safe_way(self):
        failed = CallFailed("the run was stopped")
        io = context(FakeStudio(failed, failed, failed, failed)).io
        self.assertIsNone(io.ask("Go on?"))
        self.assertEqual(io.request_plan_approval("plan"), (False, ""))
        self.assertIs(io.request_shell_approval("make", "build"), False)
        self.assertEqual(io.request_write_approval("a.txt", "x"), "deny")

    def test_R_tool_io_nobody_an_odd_reply_never_reads_as_yes(self):
        io = context(FakeStudio({"approved": "yes"}, {"decision": "sure"}, "nonsense",
                                {"answer": 3})).io
        self.assertIs(io.request_shell_approval("make", ""), False)
        self.assertEqual(io.request_write_approval("a.txt", ""), "deny")
        self.assertEqual(io.request_plan_approval("plan"), (False, ""))
        self.assertIsNone(io.ask("Go on?"))

    def test_R_tool_io_outside_a_run_raises_lookup_error_as_ctx_ask_does(self):
        io = context(quiver._no_studio).io
        with self.assertRaises(LookupError):
            io.request_write_approval("a.txt", "x")

    def test_R_tool_io_checks_its_arguments_before_asking(self):
        studio = FakeStudio()
        io = context(studio).io
        with self.assertRaisesRegex(ValueError, "needs `question`"):
            io.ask("  ")
        with self.assertRaisesRegex(ValueError, "needs `plan`"):
            io.request_plan_approval(None)
        with self.assertRaisesRegex(ValueError, "keep it to 10000"):
            io.request_shell_approval("x" * 10_001, "")
        with self.assertRaisesRegex(ValueError, "at most 50 options"):
            io.ask("Pick", [str(n) for n in range(51)])
        self.assertEqual(studio.requests, [])


class BothWaysTests(unittest.TestCase):
    def test_R_tool_io_both_ways_a_plain_def_blocks_on_its_own_thread(self):
        studio = FakeStudio({"decision": "once"})
        self.assertEqual(context(studio).io.request_write_approval("a.txt", ""), "once")
        self.assertIs(studio.threads[0], threading.current_thread())

    def test_R_tool_io_both_ways_an_async_def_awaits_while_its_loop_goes_on(self):
        studio = FakeStudio({"approved": True, "note": ""}, {"answer": "yes"})
        io = context(studio).io
        ticks = []

        async def ticking():
            for _ in range(3):
                ticks.append(1)
                await asyncio.sleep(0)

        async def tool():
            approved, note = await io.request_plan_approval("plan")
            answer, _ = await asyncio.gather(io.ask("ok?"), ticking())
            return approved, note, answer

        self.assertEqual(asyncio.run(tool()), (True, "", "yes"))
        self.assertEqual(len(ticks), 3)
        # The request went from a worker thread, so the event loop was never blocked.
        self.assertTrue(all(t is not threading.current_thread() for t in studio.threads))

    def test_R_tool_io_both_ways_the_call_asking_is_the_one_running(self):
        asked = FakeStudio({"approved": True})
        kept = context(FakeStudio())  # a Context kept from an earlier call
        running = quiver._Witness(studio=asked)

        async def tool():
            return await kept.io.request_shell_approval("ls", "")
        token = quiver._CURRENT.set(running)
        try:
            self.assertIs(asyncio.run(tool()), True)
        finally:
            quiver._CURRENT.reset(token)
        self.assertEqual(len(asked.requests), 1)

    def test_R_tool_io_both_ways_an_unawaited_answer_never_passes_for_a_yes(self):
        studio = FakeStudio()
        io = context(studio).io

        async def tool():
            pending = io.request_shell_approval("rm -rf /tmp/x", "clean up")
            with self.assertRaisesRegex(TypeError, "write `await ctx.io.request_shell_approval"):
                bool(pending)
            with self.assertRaises(TypeError):
                approved, note = io.request_plan_approval("plan")
            with self.assertRaises(TypeError):
                _ = io.request_write_approval("a.txt", "") == "always"
        asyncio.run(tool())
        # Never awaited, never asked: no card for a question nobody will read the answer to.
        self.assertEqual(studio.requests, [])


if __name__ == "__main__":
    unittest.main()
