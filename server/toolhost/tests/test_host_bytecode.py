"""What a host start caches (R-cli-call-fast): the host's own modules may keep
their bytecode beside them, but nothing a tool imports leaves any, in the tree,
beside it or in the site folder."""

import os
import tempfile
import unittest
from pathlib import Path

from tests.support import HostProcess

TOOL = '''
def use() -> str:
    """Import a module of the site folder and one beside the tree."""
    import site_mod
    import beside_mod
    return site_mod.WORD + beside_mod.WORD
'''


class BytecodeTests(unittest.TestCase):
    def test_R_cli_call_fast_a_tools_imports_leave_no_bytecode(self):
        with tempfile.TemporaryDirectory() as scratch:
            root = Path(scratch)
            (root / "tools").mkdir()
            (root / "tools" / "t.py").write_text(TOOL)
            (root / "beside_mod.py").write_text("WORD = 'b'\n")
            (root / "site").mkdir()
            (root / "site" / "site_mod.py").write_text("WORD = 'a'\n")
            env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
            env["PYTHONDONTWRITEBYTECODE"] = "1"  # as the studio starts every host
            host = HostProcess(root / "tools", "--site", str(root / "site"), env=env)
            self.addCleanup(host.close)
            host.initialize()
            answer = host.ask("tools/call", {"name": "t__use", "arguments": {}})
            self.assertEqual(answer["result"]["content"][0]["text"], "ab")
            host.close()
            cached = [str(p.relative_to(root)) for p in root.rglob("*.pyc")]
            cached += [str(p.relative_to(root)) for p in root.rglob("__pycache__")]
            self.assertEqual(cached, [])


if __name__ == "__main__":
    unittest.main()
