"""The host as a client sees it: `run.py serve` in a subprocess, JSON-RPC 2.0
one message per line on stdin/stdout, MCP methods and Quiver's own."""

import json
import time

from tests.support import HostProcess, TreeCase, write_file

TOOLS = '''
"""Tools for the protocol tests."""

import time
from quiver import Context


def echo(text: str) -> str:
    """Say it back."""
    return text


def chatty() -> str:
    """Print while working."""
    print("this goes to stderr, never the protocol")
    return "done"


def slow(seconds: float) -> str:
    """Sleep a while."""
    time.sleep(seconds)
    return "slept"


def steps(ctx: Context) -> str:
    """Report progress."""
    ctx.progress("one")
    ctx.progress("two")
    return "stepped"
'''

STUCK = '''
import time

TIMEOUT = 0.5


def stuck() -> str:
    """Never comes back in time."""
    time.sleep(30)
    return "late"
'''

MARKED = '''
import contextvars

MARK = contextvars.ContextVar("mark", default="unset")


def mark(value: str) -> str:
    """Set a context variable; answer what it was before."""
    before = MARK.get()
    MARK.set(value)
    return before
'''

VAULT = '''
from quiver import Secret

CREDENTIAL_HELP = "Starts with key_."


class Settings:
    key: Secret


def check_secret(name, value):
    if not value.startswith("key_"):
        return f"{value} is not a key; a key starts with key_"
    return None


def peek(settings: Settings) -> bool:
    return settings.key.startswith("key_")
'''


class ProtocolTests(TreeCase):
    def start(self, files: dict[str, str] | None = None, *extra: str) -> HostProcess:
        self.root = self.folder() / "tools"
        for name, text in (files or {"t.py": TOOLS, "s.py": STUCK}).items():
            write_file(self.root, name, text)
        host = HostProcess(self.root, *extra)
        self.addCleanup(host.close)
        return host

    def test_initialize_echoes_a_known_protocol_version(self):
        host = self.start()
        result = host.initialize()["result"]
        self.assertEqual(result["protocolVersion"], "2025-06-18")
        self.assertEqual(result["capabilities"], {"tools": {"listChanged": True}})
        self.assertEqual(result["serverInfo"]["name"], "quiver-toolhost")

    def test_initialize_answers_the_latest_for_an_unknown_version(self):
        host = self.start()
        answer = host.ask("initialize", {"protocolVersion": "1999-01-01", "capabilities": {}})
        self.assertEqual(answer["result"]["protocolVersion"], "2025-11-25")

    def test_tools_list_shape(self):
        host = self.start()
        host.initialize()
        tools = host.ask("tools/list")["result"]["tools"]
        echo = next(tool for tool in tools if tool["name"] == "t__echo")
        self.assertEqual(set(echo), {"name", "title", "description", "inputSchema", "annotations", "_meta"})
        self.assertEqual(echo["annotations"], {"title": "Echo", "readOnlyHint": True,
                                               "destructiveHint": False, "idempotentHint": False})
        self.assertEqual(echo["_meta"], {"quiver/file": "t.py", "quiver/risk": "read",
                                         "quiver/timeout": None, "quiver/replay": "manual",
                                         "quiver/scope": "call", "quiver/concurrent": True,
                                         "quiver/capabilities": []})
        self.assertEqual(host.ask("ping")["result"], {})

    def test_tools_call_answers_content_and_outcome(self):
        host = self.start()
        host.initialize()
        result = host.ask("tools/call", {"name": "t__echo", "arguments": {"text": "hi"}})["result"]
        self.assertEqual(result["content"], [{"type": "text", "text": "hi"}])
        self.assertEqual(result["_meta"]["quiver/outcome"], "ok")

    def test_print_inside_a_tool_goes_to_stderr(self):
        host = self.start()
        host.initialize()
        result = host.ask("tools/call", {"name": "t__chatty", "arguments": {}})["result"]
        self.assertEqual(result["content"][0]["text"], "done")
        host.close()
        self.assertIn(b"this goes to stderr", b"".join(host.stderr))

    def test_malformed_line_answers_parse_error_and_host_stays_up(self):
        host = self.start()
        host.send_raw(b"{this is not json\n")
        error = host.next_message()
        self.assertEqual((error["id"], error["error"]["code"]), (None, -32700))
        self.assertEqual(host.ask("ping")["result"], {})

    def test_unknown_method_is_method_not_found(self):
        host = self.start()
        self.assertEqual(host.ask("tools/dance")["error"]["code"], -32601)

    def test_timeout_then_next_call_served(self):
        host = self.start()
        host.initialize()
        result = host.ask("tools/call", {"name": "s__stuck", "arguments": {}})["result"]
        self.assertEqual(result["_meta"]["quiver/outcome"], "timeout")
        self.assertTrue(result["content"][0]["text"].startswith("TimeoutError: s__stuck did not finish within 0.5 s"))
        again = host.ask("tools/call", {"name": "t__echo", "arguments": {"text": "next"}})["result"]
        self.assertEqual(again["content"][0]["text"], "next")

    def test_calls_run_concurrently(self):
        host = self.start()
        host.initialize()
        slow = host.request("tools/call", {"name": "t__slow", "arguments": {"seconds": 2}})
        fast = host.request("tools/call", {"name": "t__echo", "arguments": {"text": "quick"}})
        first, _ = host.wait_for(lambda m: m.get("id") in (slow, fast))
        self.assertEqual(first["id"], fast)
        self.assertEqual(host.reply(slow)["result"]["content"][0]["text"], "slept")

    def test_a_slow_call_does_not_block_a_ping(self):
        host = self.start()
        host.initialize()
        slow = host.request("tools/call", {"name": "t__slow", "arguments": {"seconds": 2}})
        started = time.monotonic()
        self.assertEqual(host.ask("ping")["result"], {})
        self.assertLess(time.monotonic() - started, 1)
        self.assertEqual(host.reply(slow)["result"]["content"][0]["text"], "slept")

    def test_calls_stuck_past_their_bound_are_answered_and_their_threads_replaced(self):
        host = self.start()
        host.initialize()
        stuck = [host.request("tools/call", {"name": "s__stuck", "arguments": {}})
                 for _ in range(2)]
        self.assertEqual(host.ask("ping")["result"], {})  # while both are stuck
        for request in stuck:
            self.assertEqual(host.reply(request)["result"]["_meta"]["quiver/outcome"], "timeout")
        for word in ("one", "two", "three"):  # their threads are still sleeping; others answer
            again = host.ask("tools/call", {"name": "t__echo", "arguments": {"text": word}})
            self.assertEqual(again["result"]["content"][0]["text"], word)
        stuck_again = host.ask("tools/call", {"name": "s__stuck", "arguments": {}})
        self.assertEqual(stuck_again["result"]["_meta"]["quiver/outcome"], "timeout")

    def test_closing_stdin_with_a_call_stuck_past_its_bound_answers_it_and_exits(self):
        host = self.start()
        request = host.request("tools/call", {"name": "s__stuck", "arguments": {}})
        host.process.stdin.close()
        self.assertEqual(host.reply(request)["result"]["_meta"]["quiver/outcome"], "timeout")
        self.assertEqual(host.process.wait(timeout=10), 0)  # without waiting out the 30 s sleep

    def test_a_context_variable_one_call_sets_is_not_seen_by_the_next(self):
        host = self.start({"m.py": MARKED})
        host.initialize()
        for value in ("first", "second", "third"):
            before = host.ask("tools/call", {"name": "m__mark", "arguments": {"value": value}})
            self.assertEqual(before["result"]["content"][0]["text"], "unset")

    def test_progress_notifications_carry_the_token(self):
        host = self.start()
        host.initialize()
        request = host.request("tools/call", {"name": "t__steps", "arguments": {},
                                              "_meta": {"progressToken": "p1"}})
        answer, before = host.wait_for(lambda m: m.get("id") == request)
        progress = [m["params"] for m in before if m.get("method") == "notifications/progress"]
        self.assertEqual(progress, [{"progressToken": "p1", "progress": 1, "message": "one"},
                                    {"progressToken": "p1", "progress": 2, "message": "two"}])
        self.assertEqual(answer["result"]["content"][0]["text"], "stepped")

    def test_cancelled_call_gets_no_answer(self):
        host = self.start()
        host.initialize()
        request = host.request("tools/call", {"name": "t__slow", "arguments": {"seconds": 1}})
        time.sleep(0.2)
        host.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                   "params": {"requestId": request, "reason": "user"}})
        answer = host.ask("ping")
        self.assertEqual(answer["result"], {})
        time.sleep(1.2)
        pending = []
        while not host.messages.empty():
            pending.append(json.loads(host.messages.get()))
        self.assertFalse([m for m in pending if m.get("id") == request])

    def test_changed_file_sends_list_changed_and_reloads(self):
        host = self.start(None, "--watch-interval", "0.1")
        host.initialize()
        self.assertEqual(len(host.ask("tools/list")["result"]["tools"]), 5)  # 4 in t.py, 1 in s.py
        write_file(self.root, "extra.py", "def more() -> str:\n    return 'more'\n")
        host.wait_for(lambda m: m.get("method") == "notifications/tools/list_changed")
        names = [t["name"] for t in host.ask("tools/list")["result"]["tools"]]
        self.assertIn("extra__more", names)

    def test_catalog_and_detail(self):
        host = self.start({"t.py": TOOLS, "bad.py": "def f(x) -> str:\n    return ''\n"})
        files = host.ask("quiver/catalog", {})["result"]["files"]
        self.assertEqual([f["path"] for f in files], ["bad.py", "t.py"])
        self.assertEqual(files[0]["errors"][0]["line"], 1)
        self.assertNotIn("behaviour", files[1]["tools"][0])
        detailed = host.ask("quiver/catalog", {"detail": True})["result"]["files"]
        self.assertIn("behaviour", detailed[1]["tools"][0])
        names = [t["name"] for t in host.ask("tools/list")["result"]["tools"]]
        self.assertNotIn("bad__f", names)

    def test_preview_of_an_unsaved_buffer(self):
        host = self.start()
        entry = host.ask("quiver/preview", {"path": "t.py", "source": "def only(q: str) -> str:\n    return q\n"})["result"]
        self.assertEqual([t["name"] for t in entry["tools"]], ["t__only"])
        listed = [t["name"] for t in host.ask("tools/list")["result"]["tools"]]
        self.assertIn("t__echo", listed)
        self.assertEqual(host.ask("quiver/preview", {"path": "../x.py", "source": ""})["error"]["code"], -32602)

    def test_check_secret_answers_ok_or_a_sentence_without_the_value(self):
        host = self.start({"vault.py": VAULT})
        good = host.ask("quiver/check_secret", {"path": "vault.py", "field": "key", "value": "key_123"})
        self.assertEqual(good["result"], {"ok": True, "message": None})
        bad = host.ask("quiver/check_secret", {"path": "vault.py", "field": "key", "value": "hunter2"})
        self.assertEqual(bad["result"], {"ok": False, "message": "*** is not a key; a key starts with key_"})
        unknown = host.ask("quiver/check_secret", {"path": "vault.py", "field": "nope", "value": "x"})
        self.assertEqual(unknown["error"]["code"], -32602)

    def test_settings_travel_in_meta(self):
        host = self.start({"vault.py": VAULT})
        result = host.ask("tools/call", {"name": "vault__peek", "arguments": {},
                                         "_meta": {"quiver/settings": {"key": "key_abc"}}})["result"]
        self.assertEqual(result["content"][0]["text"], "true")

    def test_closing_stdin_answers_calls_in_flight_then_exits(self):
        host = self.start()
        request = host.request("tools/call", {"name": "t__slow", "arguments": {"seconds": 0.3}})
        host.process.stdin.close()
        self.assertEqual(host.reply(request)["result"]["content"][0]["text"], "slept")
        self.assertEqual(host.process.wait(timeout=10), 0)
