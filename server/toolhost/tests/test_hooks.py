"""The call hook (hooks/tools.py): what check(call) answers becomes allow, ask,
refuse or none, and a hook that cannot decide refuses (it fails closed)."""

from __future__ import annotations

import unittest

from quiverhost.hooks import Hooks

CALL = {"name": "notes__write", "arguments": {"text": "hi"}, "source": "tools/notes.py",
        "agent": "a1", "run": "r1"}


def decide(source: str, call: dict = CALL) -> dict:
    return Hooks().decide(source, call)


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
        answer = Hooks(seconds=0.2).decide("import time\n\ndef check(call):\n    time.sleep(2)\n", CALL)
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
        self.assertEqual(hooks.decide(counting, CALL)["decision"], "none")
        self.assertEqual(hooks.decide(counting, CALL)["decision"], "ask")  # same module kept
        self.assertEqual(hooks.decide("def check(call):\n    return 'allow'\n", CALL)["decision"], "allow")


if __name__ == "__main__":
    unittest.main()
