"""The call hook (hooks/tools.py): what check(call) answers becomes allow, ask,
refuse or none, and a hook that cannot decide refuses (it fails closed). Calls
carry the text's sha256; the text itself comes only when the host lacks it."""

from __future__ import annotations

import hashlib
import unittest

from quiverhost.hooks import Hooks
from quiverhost.protocol import RpcError

CALL = {"name": "notes__write", "arguments": {"text": "hi"}, "source": "tools/notes.py",
        "agent": "a1", "run": "r1"}


def sha(source: str) -> str:
    return hashlib.sha256(source.encode()).hexdigest()


def given(hooks: Hooks, source: str, call: dict = CALL) -> dict:
    """A call as the studio sends it after the host said the text was missing: hash and text."""
    return hooks.answer({"hash": sha(source), "source": source, "call": call})


def by_hash(hooks: Hooks, source: str, call: dict = CALL) -> dict:
    """A call as the studio sends it first: the text's hash only."""
    return hooks.answer({"hash": sha(source), "call": call})


def decide(source: str, call: dict = CALL) -> dict:
    return given(Hooks(), source, call)


class HookDecisionTests(unittest.TestCase):
    def test_hook_sees_the_call_by_name_with_its_arguments(self):
        answer = decide(
            "def check(call):\n"
            "    assert call.arguments == call.args == {'text': 'hi'}\n"
            "    assert (call.source, call.agent, call.run) == ('tools/notes.py', 'a1', 'r1')\n"
            "    return 'allow' if call.name == 'notes__write' else None\n")
        self.assertEqual(answer, {"decision": "allow", "reason": None})

    def test_hook_none_leaves_the_decision_to_the_agent(self):
        self.assertEqual(decide("def check(call):\n    return None\n")["decision"], "none")

    def test_hook_asks_with_a_reason(self):
        answer = decide("import quiver\n\ndef check(call):\n    return quiver.Ask('it writes')\n")
        self.assertEqual(answer, {"decision": "ask", "reason": "it writes"})
        self.assertEqual(decide("def check(call):\n    return 'ask'\n")["decision"], "ask")

    def test_hook_refuses_with_a_sentence(self):
        answer = decide(
            "from quiver import Refused\n\n"
            "def check(call):\n"
            "    if 'secret' in call.arguments.get('text', '') or True:\n"
            "        raise Refused('Notes may not mention secrets.')\n")
        self.assertEqual(answer, {"decision": "refuse", "reason": "Notes may not mention secrets."})
        self.assertEqual(decide("def check(call):\n    return False\n"),
                         {"decision": "refuse", "reason": None})

    def test_hook_that_fails_refuses(self):
        answer = decide("def check(call):\n    return 1 / 0\n")
        self.assertEqual(answer["decision"], "refuse")
        self.assertTrue(answer["error"])
        self.assertIn("ZeroDivisionError", answer["reason"])

    def test_hook_that_does_not_decide_in_time_refuses(self):
        answer = given(Hooks(seconds=0.2), "import time\n\ndef check(call):\n    time.sleep(2)\n")
        self.assertEqual(answer["decision"], "refuse")
        self.assertIn("did not decide on notes__write within 0.2 s", answer["reason"])

    def test_hook_with_a_syntax_error_or_no_check_refuses_and_says_so(self):
        broken = decide("def check(call)\n    return None\n")
        self.assertEqual(broken["decision"], "refuse")
        self.assertIn("could not be loaded: SyntaxError", broken["reason"])
        missing = decide("def decide(call):\n    return None\n")
        self.assertIn("has no function check(call)", missing["reason"])

    def test_hook_answering_something_else_refuses_and_says_what_to_return(self):
        answer = decide("def check(call):\n    return 'maybe'\n")
        self.assertEqual(answer["decision"], "refuse")
        self.assertIn("not a decision", answer["reason"])
        self.assertIn('quiver.Ask("why")', answer["reason"])

    def test_hook_is_compiled_once_per_text_and_again_when_it_changes(self):
        hooks = Hooks()
        counting = "import itertools\nN = itertools.count(1)\n\ndef check(call):\n    return 'ask' if next(N) > 1 else None\n"
        self.assertEqual(given(hooks, counting)["decision"], "none")
        self.assertEqual(by_hash(hooks, counting)["decision"], "ask")  # same module kept
        self.assertEqual(given(hooks, "def check(call):\n    return 'allow'\n")["decision"], "allow")


class HookByHashTests(unittest.TestCase):
    ALLOW = "def check(call):\n    return 'allow'\n"
    NONE = "def check(call):\n    return None\n"

    def test_hash_the_host_does_not_hold_is_answered_as_missing_without_deciding(self):
        self.assertEqual(by_hash(Hooks(), self.ALLOW), {"missing": sha(self.ALLOW)})

    def test_text_sent_once_then_every_call_by_its_hash_alone(self):
        hooks = Hooks()
        self.assertEqual(given(hooks, self.ALLOW)["decision"], "allow")
        for _ in range(5):
            self.assertEqual(by_hash(hooks, self.ALLOW)["decision"], "allow")

    def test_edited_text_is_missing_until_sent_and_then_decides_the_very_call_that_brought_it(self):
        hooks = Hooks()
        given(hooks, self.ALLOW)
        self.assertEqual(by_hash(hooks, self.NONE), {"missing": sha(self.NONE)})
        self.assertEqual(given(hooks, self.NONE)["decision"], "none")
        # Only the newest text is kept: the old one must come again.
        self.assertEqual(by_hash(hooks, self.ALLOW), {"missing": sha(self.ALLOW)})

    def test_a_broken_text_is_kept_under_its_hash_and_refuses_every_call(self):
        hooks = Hooks()
        broken = "def check(call)\n    return None\n"
        self.assertIn("could not be loaded: SyntaxError", given(hooks, broken)["reason"])
        again = by_hash(hooks, broken)
        self.assertEqual((again["decision"], again["error"]), ("refuse", True))

    def test_text_under_a_hash_that_is_not_its_own_refuses_and_is_not_kept(self):
        hooks = Hooks()
        answer = hooks.answer({"hash": sha(self.NONE), "source": self.ALLOW, "call": CALL})
        self.assertEqual((answer["decision"], answer["error"]), ("refuse", True))
        self.assertIn("not its text's sha256", answer["reason"])
        self.assertEqual(by_hash(hooks, self.NONE), {"missing": sha(self.NONE)})

    def test_params_without_a_sha256_or_a_call_name_are_refused_as_invalid(self):
        hooks = Hooks()
        for params in ({"source": self.ALLOW, "call": CALL}, {"hash": "abc", "call": CALL},
                       {"hash": sha(self.ALLOW), "call": {"arguments": {}}},
                       {"hash": sha(self.ALLOW), "source": 3, "call": CALL}):
            with self.subTest(params=params), self.assertRaises(RpcError):
                hooks.answer(params)


if __name__ == "__main__":
    unittest.main()
