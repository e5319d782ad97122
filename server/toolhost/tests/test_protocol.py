"""JSON-RPC 2.0 over a pair of byte streams, in-process: framing, errors that
leave the connection up, and requests from the host to the client."""

import contextlib
import io
import json
import os
import threading
import unittest

from quiverhost.protocol import NO_REPLY, Connection, RpcError


class Wire:
    """A connection whose client side the test plays: lines in, lines out."""

    def __init__(self, on_request=None, threaded=lambda method: False,
                 quick=lambda method, params: False):
        to_host_r, self._to_host = os.pipe()
        self._from_host, from_host_w = os.pipe()
        self.client_out = os.fdopen(self._to_host, "wb")
        self.client_in = os.fdopen(self._from_host, "rb")
        self.connection = Connection(os.fdopen(to_host_r, "rb"), os.fdopen(from_host_w, "wb"))
        self.notes = []
        self.thread = threading.Thread(
            target=self.connection.serve,
            args=(on_request or (lambda method, params, reply: {"echo": params}),
                  lambda method, params: self.notes.append(method), threaded, quick),
            daemon=True)
        self.thread.start()

    def send(self, raw):
        self.client_out.write(raw if isinstance(raw, bytes) else (json.dumps(raw) + "\n").encode())
        self.client_out.flush()

    def receive(self):
        return json.loads(self.client_in.readline())

    def close(self):
        self.client_out.close()
        self.thread.join(timeout=5)
        self.connection._writer.close()
        self.connection._reader.close()
        self.client_in.close()


class ConnectionTests(unittest.TestCase):
    def wire(self, **kwargs) -> Wire:
        wire = Wire(**kwargs)
        self.addCleanup(wire.close)
        return wire

    def test_request_gets_its_result_by_id(self):
        wire = self.wire()
        wire.send({"jsonrpc": "2.0", "id": "a", "method": "x", "params": {"n": 1}})
        self.assertEqual(wire.receive(), {"jsonrpc": "2.0", "id": "a", "result": {"echo": {"n": 1}}})

    def test_malformed_line_is_a_parse_error_and_the_next_line_is_served(self):
        wire = self.wire()
        wire.send(b"{nope\n")
        self.assertEqual(wire.receive()["error"]["code"], -32700)
        wire.send({"jsonrpc": "2.0", "id": 2, "method": "x"})
        self.assertEqual(wire.receive()["id"], 2)

    def test_batch_is_an_invalid_request(self):
        wire = self.wire()
        wire.send(b"[]\n")
        self.assertEqual(wire.receive()["error"]["code"], -32600)

    def test_params_that_are_not_an_object_are_invalid_params(self):
        wire = self.wire()
        wire.send({"jsonrpc": "2.0", "id": 3, "method": "x", "params": [1, 2]})
        self.assertEqual(wire.receive()["error"]["code"], -32602)

    def test_handler_error_is_an_error_answer(self):
        def failing(method, params, request_id):
            if method == "rpc":
                raise RpcError(-32601, "Method not found: rpc")
            raise KeyError("boom")
        wire = self.wire(on_request=failing)
        wire.send({"jsonrpc": "2.0", "id": 1, "method": "rpc"})
        self.assertEqual(wire.receive()["error"], {"code": -32601, "message": "Method not found: rpc"})
        with contextlib.redirect_stderr(io.StringIO()):
            wire.send({"jsonrpc": "2.0", "id": 2, "method": "other"})
            self.assertEqual(wire.receive()["error"], {"code": -32603, "message": "KeyError: 'boom'"})

    def test_text_with_a_lone_surrogate_still_makes_a_line(self):
        wire = self.wire(on_request=lambda m, p, i: {"text": "bad \udcff byte"})
        wire.send({"jsonrpc": "2.0", "id": 1, "method": "x"})
        self.assertEqual(wire.receive()["result"], {"text": "bad ? byte"})

    def test_an_answer_json_cannot_carry_is_an_error_answer(self):
        wire = self.wire(on_request=lambda m, p, i: {"value": {1, 2}})
        wire.send({"jsonrpc": "2.0", "id": 1, "method": "x"})
        self.assertEqual(wire.receive()["error"]["code"], -32603)

    def test_notifications_get_no_answer(self):
        wire = self.wire()
        wire.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        wire.send({"jsonrpc": "2.0", "id": 9, "method": "x"})
        self.assertEqual(wire.receive()["id"], 9)
        self.assertEqual(wire.notes, ["notifications/initialized"])

    def test_no_reply_sends_nothing(self):
        wire = self.wire(on_request=lambda m, p, i: NO_REPLY if m == "quiet" else {})
        wire.send({"jsonrpc": "2.0", "id": 1, "method": "quiet"})
        wire.send({"jsonrpc": "2.0", "id": 2, "method": "loud"})
        self.assertEqual(wire.receive()["id"], 2)

    def test_host_can_ask_the_client_and_await_the_reply(self):
        wire = self.wire()
        answers = {}
        asking = threading.Thread(target=lambda: answers.update(
            value=wire.connection.request("elicitation/create", {"message": "Which?"}, timeout=5)))
        asking.start()
        request = wire.receive()
        self.assertEqual((request["method"], request["params"]), ("elicitation/create", {"message": "Which?"}))
        wire.send({"jsonrpc": "2.0", "id": request["id"], "result": {"action": "accept"}})
        asking.join(timeout=5)
        self.assertEqual(answers["value"], {"action": "accept"})

    def test_a_question_pending_when_the_client_leaves_ends_with_a_sentence(self):
        wire = Wire()
        errors = []

        def ask():
            try:
                wire.connection.request("elicitation/create", {}, timeout=30)
            except ConnectionError as exc:
                errors.append(str(exc))
        asking = threading.Thread(target=ask)
        asking.start()
        wire.receive()
        wire.close()
        asking.join(timeout=5)
        self.assertEqual(errors, ["the client closed the connection before answering elicitation/create"])

    def test_client_error_reply_raises_in_the_host(self):
        wire = self.wire()
        failures = []

        def ask():
            try:
                wire.connection.request("sampling/createMessage", {}, timeout=5)
            except RpcError as exc:
                failures.append(exc.code)
        asking = threading.Thread(target=ask)
        asking.start()
        request = wire.receive()
        wire.send({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -1, "message": "no"}})
        asking.join(timeout=5)
        self.assertEqual(failures, [-1])

    def test_an_answer_given_early_wins_and_the_handlers_is_dropped(self):
        def early(method, params, reply):
            reply.result({"said": "early"})  # as the watcher does for a call past its bound
            return {"said": "late"}
        wire = self.wire(on_request=early)
        wire.send({"jsonrpc": "2.0", "id": 1, "method": "x"})
        wire.send({"jsonrpc": "2.0", "id": 2, "method": "x"})
        self.assertEqual([wire.receive()["result"] for _ in range(2)], [{"said": "early"}] * 2)

    def test_a_slow_request_does_not_hold_up_reading(self):
        release = threading.Event()
        self.addCleanup(release.set)

        def handler(method, params, reply):
            if method == "slow":
                release.wait(10)
            return {"method": method}
        wire = self.wire(on_request=handler, threaded=lambda method: method == "slow")
        wire.send({"jsonrpc": "2.0", "id": 1, "method": "slow"})
        wire.send({"jsonrpc": "2.0", "id": 2, "method": "ping"})
        self.assertEqual(wire.receive(), {"jsonrpc": "2.0", "id": 2, "result": {"method": "ping"}})
        release.set()
        self.assertEqual(wire.receive()["id"], 1)

    def test_a_request_expected_quick_that_is_slow_does_not_hold_up_reading_for_long(self):
        """R-host-reading-turn."""
        release = threading.Event()
        self.addCleanup(release.set)

        def handler(method, params, reply):
            if method == "usually_quick":
                release.wait(10)
            return {"method": method}
        wire = self.wire(on_request=handler, threaded=lambda method: True,
                         quick=lambda method, params: method == "usually_quick")
        wire.send({"jsonrpc": "2.0", "id": 1, "method": "usually_quick"})
        wire.send({"jsonrpc": "2.0", "id": 2, "method": "ping"})
        self.assertEqual(wire.receive(), {"jsonrpc": "2.0", "id": 2, "result": {"method": "ping"}})
        release.set()
        self.assertEqual(wire.receive()["id"], 1)

    def test_a_kept_request_that_asks_the_client_has_the_answer_read(self):
        """R-host-reading-turn: the answer to ctx.ask is read while the call waits."""
        def handler(method, params, reply):
            return {"told": wire.connection.request("quiver/ask", {"question": "?"}, timeout=10)}
        wire = self.wire(on_request=handler, threaded=lambda method: True,
                         quick=lambda method, params: True)
        wire.connection._turns._net = 60  # only the request itself may pass the turn on
        wire.send({"jsonrpc": "2.0", "id": 1, "method": "asks"})
        asked = wire.receive()
        self.assertEqual(asked["method"], "quiver/ask")
        wire.send({"jsonrpc": "2.0", "id": asked["id"], "result": {"answer": "yes"}})
        self.assertEqual(wire.receive(), {"jsonrpc": "2.0", "id": 1,
                                          "result": {"told": {"answer": "yes"}}})

    def test_the_end_of_input_waits_for_answers_not_for_the_threads_that_gave_them(self):
        stuck = threading.Event()
        self.addCleanup(stuck.set)

        def handler(method, params, reply):
            reply.result({"answered": "early"})
            stuck.wait(30)  # a tool that never comes back, already answered for
        wire = Wire(on_request=handler, threaded=lambda method: True)
        wire.send({"jsonrpc": "2.0", "id": 1, "method": "stuck"})
        self.assertEqual(wire.receive()["result"], {"answered": "early"})
        wire.close()
        self.assertFalse(wire.thread.is_alive())
        self.assertTrue(wire.connection.closed.is_set())


if __name__ == "__main__":
    unittest.main()
