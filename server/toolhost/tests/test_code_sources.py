"""quiver.sources as a compute_exec program sees it (docs/rules.md, Code mode):
sources.py installed over a socket pair whose far end plays the studio, so
each function's signature, its arguments on the wire and the exception each
outcome raises are checked without a run.
"""

from __future__ import annotations

import inspect
import json
import os
import socket
import sys
import threading
import types
import unittest
from pathlib import Path

import quiver
from quiver import CallFailed, Refused, TransientError

SOURCES = Path(__file__).resolve().parents[2] / "system" / "compute" / "sources.py"

NOTES = {
    "name": "notes", "entry": "tools/notes.py", "kind": "tree", "title": "Notes", "description": "Notes.",
    "when": "", "doc": "# Notes", "functions": [{
        "name": "add", "operation": "notes__add", "summary": "Keep one note.",
        "parameters": [
            {"name": "subject", "type": "str", "required": True, "positional": True, "description": "About what."},
            {"name": "body", "type": "str", "required": True, "positional": True, "description": ""},
            {"name": "tags", "type": "list[str] | None", "required": False, "positional": False, "description": ""},
            {"name": "loud", "type": "bool", "required": False, "default": False, "positional": False,
             "description": ""},
        ],
    }],
}


class CodeSourcesTest(unittest.TestCase):
    def setUp(self) -> None:
        self.studio, program = socket.socketpair()
        self.fd = os.dup(program.fileno())
        program.close()
        self.asked: list[dict] = []
        self.answers: list[dict] = []
        self.serving = threading.Thread(target=self._serve, daemon=True)
        self.serving.start()
        self.before = list(sys.meta_path)
        module = types.ModuleType("quiver.sources")
        sys.modules[module.__name__] = module
        exec(compile(SOURCES.read_text(encoding="utf-8"), "<quiver.sources>", "exec"), module.__dict__)
        module.install({"fd": self.fd, "folder": None, "index": "# all", "modules": [NOTES]})
        self.sources = module

    def tearDown(self) -> None:
        self.studio.close()
        os.close(self.fd)
        for name in [n for n in sys.modules if n == "quiver.sources" or n.startswith("quiver.sources.")]:
            del sys.modules[name]
        sys.meta_path[:] = self.before
        if hasattr(quiver, "sources"):
            delattr(quiver, "sources")

    def _serve(self) -> None:
        reader = self.studio.makefile("rb")
        for line in reader:
            request = json.loads(line)
            self.asked.append(request)
            answer = self.answers.pop(0) if self.answers else {"outcome": "ok", "text": "fine"}
            self.studio.sendall((json.dumps({"id": request["id"], **answer}) + "\n").encode())

    def test_R_code_arguments_signature_reads_as_python_writes_it(self) -> None:
        from quiver.sources.notes import add
        self.assertEqual(str(inspect.signature(add)),
                         "(subject: str, body: str, *, tags: list[str] | None = None, loud: bool = False) -> str")
        self.assertEqual(add.__doc__, "Keep one note.\n\nArgs:\n    subject: About what.")

    def test_R_code_arguments_positions_mapped_and_omitted_optionals_left_out(self) -> None:
        from quiver.sources.notes import add
        self.assertEqual(add("a", body="b", loud=True), "fine")
        self.assertEqual(add("a", "b", tags=None), "fine")
        self.assertEqual([r["arguments"] for r in self.asked],
                         [{"subject": "a", "body": "b", "loud": True}, {"subject": "a", "body": "b"}])
        self.assertEqual(self.asked[0]["source"], "notes")
        self.assertEqual(self.asked[0]["function"], "add")
        with self.assertRaisesRegex(TypeError, "got two values for subject"):
            add("a", "b", subject="c")
        with self.assertRaisesRegex(TypeError, "must be JSON values"):
            add("a", body=object())

    def test_R_code_import_outcomes_raise_what_ctx_system_raises(self) -> None:
        from quiver.sources.notes import add
        self.answers += [{"outcome": "refused", "text": "no"}, {"outcome": "transient", "text": "later"},
                         {"outcome": "timeout", "text": "slow"}, {"error": "bad line"}]
        with self.assertRaisesRegex(Refused, "^no$"):
            add("a", "b")
        with self.assertRaisesRegex(TransientError, "^later$"):
            add("a", "b")
        with self.assertRaises(CallFailed) as failed:
            add("a", "b")
        self.assertEqual((str(failed.exception), failed.exception.outcome), ("slow", "timeout"))
        with self.assertRaisesRegex(CallFailed, "quiver.sources.notes.add: bad line"):
            add("a", "b")

    def test_R_code_import_call_by_operation_name_and_the_line_is_not_inherited(self) -> None:
        import quiver.sources.notes as notes
        self.assertEqual(notes.call("notes__add", subject="a", body="b"), "fine")
        self.assertEqual(self.asked[-1], {"id": 1, "source": "notes", "operation": "notes__add",
                                          "arguments": {"subject": "a", "body": "b"}})
        self.assertFalse(os.get_inheritable(self.fd))

    def test_R_code_refusal_names_what_the_agent_has(self) -> None:
        with self.assertRaisesRegex(ModuleNotFoundError,
                                    "quiver.sources.web is not one of this agent's sources; it has quiver.sources.notes"):
            import quiver.sources.web  # noqa: F401
        with self.assertRaisesRegex(AttributeError,
                                    "read of quiver.sources.notes is not one of this agent's operations; it was given add"):
            self.sources.notes.read  # noqa: B018


if __name__ == "__main__":
    unittest.main()
