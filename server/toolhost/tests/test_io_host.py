"""ctx.io through the tool host as the studio meets it: a quiver/io request on
the call's behalf, the call's bound stopped while the person decides, from a
plain def and from an async def alike (R-tool-io-clock, R-tool-io-both-ways)."""

import time

from tests.fake_studio import FakeStudioCase

DESK = '''
"""Tools that ask the person first."""

from quiver import Context

TIMEOUT = 1


def publish(path: str, ctx: Context) -> str:
    """Write a file once the person allows it."""
    return "write: " + ctx.io.request_write_approval(path, "the report")


async def deploy(command: str, ctx: Context) -> str:
    """Run a command once the person allows it."""
    allowed = await ctx.io.request_shell_approval(command, "to deploy")
    approved, note = await ctx.io.request_plan_approval("1. build\\n2. ship")
    return f"shell: {allowed}, plan: {approved} {note!r}"
'''


SHIP = '''
"""A Tool class that asks before it ships."""

from dataclasses import dataclass

from quiver import Tool, ToolResult


@dataclass
class ShipArgs:
    """What to ship.

    Attributes:
        path: The file to write.
    """
    path: str


class ShipTool(Tool):
    name = "ship"
    description = "Write the release notes once the person allows it."
    input_model = ShipArgs

    async def call(self, args, ctx):
        return ToolResult.ok(await ctx.io.request_write_approval(args.path, "release notes"))
'''


class IOThroughTheHostTests(FakeStudioCase):
    FILES = {"desk.py": DESK, "ship.py": SHIP}
    TOKEN = "call-7"

    def test_R_tool_io_clock_a_write_approval_waits_off_the_call_bound(self):
        host = self.start()
        sent = self.call(host, "desk__publish", {"path": "out/a.md"})
        request = self.studio_request(host)
        self.assertEqual(request["method"], "quiver/io")
        self.assertEqual(request["params"], {"kind": "write", "path": "out/a.md",
                                             "summary": "the report", "call": "call-7"})
        time.sleep(1.6)  # past the file's TIMEOUT of 1 s
        self.answer(host, request, {"decision": "always"})
        reply = host.reply(sent)
        self.assertEqual(reply["result"]["_meta"]["quiver/outcome"], "ok")
        self.assertEqual(self.text(reply), "write: always")

    def test_R_tool_io_both_ways_an_async_tool_awaits_each_decision(self):
        host = self.start()
        sent = self.call(host, "desk__deploy", {"command": "make ship"})
        shell = self.studio_request(host)
        self.assertEqual(shell["params"]["kind"], "shell")
        self.answer(host, shell, {"approved": True})
        plan = self.studio_request(host)
        self.assertEqual(plan["params"], {"kind": "plan", "plan": "1. build\n2. ship",
                                          "call": "call-7"})
        time.sleep(1.2)
        self.answer(host, plan, {"approved": False, "note": "not on a Friday"})
        self.assertEqual(self.text(host.reply(sent)),
                         "shell: True, plan: False 'not on a Friday'")

    def test_R_tool_io_methods_a_tool_class_has_ctx_io_on_its_tool_context(self):
        host = self.start()
        sent = self.call(host, "ship", {"path": "NOTES.md"})
        request = self.studio_request(host)
        self.assertEqual(request["params"], {"kind": "write", "path": "NOTES.md",
                                             "summary": "release notes", "call": "call-7"})
        self.answer(host, request, {"decision": "once"})
        self.assertEqual(self.text(host.reply(sent)), "once")

    def test_R_tool_io_nobody_a_studio_that_fails_the_request_is_a_denial(self):
        host = self.start()
        sent = self.call(host, "desk__publish", {"path": "a.md"})
        self.answer(host, self.studio_request(host),
                    error={"code": -32603, "message": "the run was stopped"})
        self.assertEqual(self.text(host.reply(sent)), "write: deny")

    def test_R_tool_io_outside_a_run_the_tool_hears_where_it_works(self):
        host = self.start()
        reply = host.reply(self.call(host, "desk__publish", {"path": "a.md"}, token=None))
        self.assertIn("ctx.io works only in a run of an agent", self.text(reply))
        self.assertEqual(reply["result"]["_meta"]["quiver/outcome"], "failed")
