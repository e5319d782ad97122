"""The dependency install (R-host-deps): requirements.txt, then pyproject.toml's
[project] dependencies, then setup.sh, from the tree's root only; stamped by a
sha256 so an unchanged tree installs nothing; a failure never raises. pip runs
offline against a wheel the test writes itself."""

import base64
import hashlib
import json
import subprocess
import sys
import zipfile
from pathlib import Path

from quiverhost.deps import install

from tests.support import RUN_PY, TreeCase, write_file


def make_wheel(folder: Path, name: str, version: str = "0.1") -> None:
    """The smallest wheel pip accepts: a module, METADATA, WHEEL and RECORD."""
    dist = f"{name}-{version}.dist-info"
    files = {f"{name}/__init__.py": f"VALUE = {version!r}\n".encode(),
             f"{dist}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode(),
             f"{dist}/WHEEL": b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    record = []
    for path, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(data)}")
    files[f"{dist}/RECORD"] = ("\n".join(record + [f"{dist}/RECORD,,"]) + "\n").encode()
    with zipfile.ZipFile(folder / f"{name}-{version}-py3-none-any.whl", "w") as wheel:
        for path, data in files.items():
            wheel.writestr(path, data)


class DepsTests(TreeCase):
    def setUp(self):
        work = self.folder()
        self.tree_dir, self.site, self.log, self.wheels = (work / "tools", work / "site",
                                                           work / "deps.log", work / "wheels")
        self.tree_dir.mkdir()
        self.wheels.mkdir()
        make_wheel(self.wheels, "tinypkg")
        make_wheel(self.wheels, "otherpkg")

    def install(self, budget: float = 120.0) -> dict:
        return install(self.tree_dir, self.site, self.log, budget,
                       ["--no-index", "--find-links", str(self.wheels)])

    def test_no_dependency_files_is_none(self):
        self.assertEqual(self.install()["status"], "none")

    def test_requirements_installed_into_the_site_folder(self):
        write_file(self.tree_dir, "requirements.txt", "tinypkg\n")
        summary = self.install()
        self.assertEqual((summary["status"], summary["error"]), ("installed", None))
        self.assertTrue((self.site / "tinypkg" / "__init__.py").is_file())
        self.assertIn("-r requirements.txt", self.log.read_text())
        self.assertEqual(summary["log"], str(self.log))

    def test_unchanged_tree_installs_nothing(self):
        write_file(self.tree_dir, "requirements.txt", "tinypkg\n")
        self.install()
        again = self.install()
        self.assertEqual(again["status"], "unchanged")
        self.assertNotIn("pip", self.log.read_text())

    def test_changed_file_installs_again(self):
        write_file(self.tree_dir, "requirements.txt", "tinypkg\n")
        self.install()
        write_file(self.tree_dir, "requirements.txt", "tinypkg\notherpkg\n")
        self.assertEqual(self.install()["status"], "installed")
        self.assertTrue((self.site / "otherpkg").is_dir())

    def test_pyproject_project_dependencies_then_setup_sh_in_order(self):
        write_file(self.tree_dir, "pyproject.toml",
                   '[project]\nname = "t"\ndependencies = ["otherpkg"]\n\n[tool.other]\nx = 1\n')
        write_file(self.tree_dir, "setup.sh", 'ls "$QUIVER_SITE" > made-by-setup.txt\n')
        self.assertEqual(self.install()["status"], "installed")
        self.assertIn("otherpkg", (self.tree_dir / "made-by-setup.txt").read_text())

    def test_files_in_subfolders_are_not_dependency_files(self):
        write_file(self.tree_dir, "tools/requirements.txt", "tinypkg\n")
        write_file(self.tree_dir, "programs/setup.sh", "exit 1\n")
        self.assertEqual(self.install()["status"], "none")

    def test_failure_is_reported_not_raised_and_not_stamped(self):
        write_file(self.tree_dir, "requirements.txt", "not-a-package-anywhere\n")
        summary = self.install()
        self.assertEqual(summary["status"], "failed")
        self.assertIn("read the log", summary["error"])
        self.assertIn("not-a-package-anywhere", self.log.read_text())
        self.assertEqual(self.install()["status"], "failed")  # no stamp: it tries again

    def test_budget_is_shared_and_enforced(self):
        write_file(self.tree_dir, "setup.sh", "sleep 5\n")
        summary = self.install(budget=0.5)
        self.assertEqual(summary["status"], "failed")
        self.assertIn("budget", summary["error"])
        self.assertLess(summary["seconds"], 4)

    def test_cli_prints_one_json_line(self):
        write_file(self.tree_dir, "requirements.txt", "tinypkg\n")
        done = subprocess.run([sys.executable, str(RUN_PY), "deps", "--tree", str(self.tree_dir),
                               "--site", str(self.site), "--log", str(self.log),
                               "--pip-arg", "--no-index", "--pip-arg", "--find-links",
                               "--pip-arg", str(self.wheels)],
                              capture_output=True, text=True, timeout=120)
        lines = done.stdout.strip().splitlines()
        self.assertEqual(len(lines), 1, done.stderr)
        summary = json.loads(lines[0])
        self.assertEqual(set(summary), {"status", "log", "seconds", "error"})
        self.assertEqual(summary["status"], "installed")
