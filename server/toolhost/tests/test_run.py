"""run.py serve: what it sets up before serving (sys.path as R-file-helper
says, the installed dependencies, resource limits) and that stdout stays the protocol's."""

from tests.support import HostProcess, TreeCase, write_file

PROBE = '''
import resource
import subprocess
import sys


def paths() -> list[str]:
    return sys.path


def installed() -> str:
    import sitepkg
    return sitepkg.VALUE


def parent_import() -> str:
    from tools import _shared
    return _shared.WORD


def open_files() -> int:
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def child_output() -> str:
    subprocess.run(["echo", "a child writing to its inherited stdout"])
    input_line = sys.stdin.read()
    return f"child done, stdin gave {input_line!r}"
'''


class RunServeTests(TreeCase):
    def setUp(self):
        self.work = self.folder()
        self.tree_dir = self.work / "tools"
        write_file(self.tree_dir, "probe.py", PROBE)
        write_file(self.tree_dir, "_shared.py", "WORD = 'shared'\n")
        self.site = self.work / "site"
        write_file(self.site, "sitepkg.py", "VALUE = 'from the site folder'\n")

    def start(self, *extra: str) -> HostProcess:
        host = HostProcess(self.tree_dir, *extra, cwd=self.work)
        self.addCleanup(host.close)
        host.initialize()
        return host

    def call(self, host: HostProcess, name: str) -> str:
        result = host.ask("tools/call", {"name": name, "arguments": {}})["result"]
        self.assertFalse(result["isError"], result)
        return result["content"][0]["text"]

    def test_tree_and_its_parent_are_on_sys_path(self):
        host = self.start()
        self.assertIn(str(self.tree_dir), self.call(host, "probe__paths"))
        self.assertIn(str(self.tree_dir.parent), self.call(host, "probe__paths"))
        self.assertEqual(self.call(host, "probe__parent_import"), "shared")

    def test_site_folder_is_importable(self):
        host = self.start("--site", str(self.site))
        self.assertEqual(self.call(host, "probe__installed"), "from the site folder")

    def test_resource_limits_are_applied(self):
        host = self.start("--limit-nofile", "200", "--limit-as", "4096", "--limit-cpu", "600")
        self.assertEqual(self.call(host, "probe__open_files"), "200")

    def test_child_processes_and_stdin_cannot_touch_the_protocol(self):
        host = self.start()
        self.assertEqual(self.call(host, "probe__child_output"), "child done, stdin gave ''")
        self.assertEqual(host.ask("ping")["result"], {})
