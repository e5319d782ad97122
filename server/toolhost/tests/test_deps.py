"""The dependency install (R-host-deps): requirements.txt, then pyproject.toml's
[project] dependencies, then setup.sh, from the root of the checkout beside the
tree folder only (R-deps-root); stamped by a sha256 so an unchanged tree
installs nothing; a failure never raises; the log keeps the last install's
transcript and a line per run (R-deps-log). pip runs offline against a wheel
the test writes itself."""

import base64
import hashlib
import json
import subprocess
import sys
import zipfile
from pathlib import Path

from quiverhost import deps_log
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
        self.root = work
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
        write_file(self.root, "requirements.txt", "tinypkg\n")
        summary = self.install()
        self.assertEqual((summary["status"], summary["error"]), ("installed", None))
        self.assertTrue((self.site / "tinypkg" / "__init__.py").is_file())
        self.assertIn("-r requirements.txt", self.log.read_text())
        self.assertEqual(summary["log"], str(self.log))

    def test_unchanged_tree_installs_nothing(self):
        write_file(self.root, "requirements.txt", "tinypkg\n")
        self.install()
        again = self.install()
        self.assertEqual(again["status"], "unchanged")
        self.assertEqual(deps_log.read(self.log)[1][-1].split()[1], "unchanged")

    def test_changed_file_installs_again(self):
        write_file(self.root, "requirements.txt", "tinypkg\n")
        self.install()
        write_file(self.root, "requirements.txt", "tinypkg\notherpkg\n")
        self.assertEqual(self.install()["status"], "installed")
        self.assertTrue((self.site / "otherpkg").is_dir())

    def test_pyproject_project_dependencies_then_setup_sh_in_order(self):
        write_file(self.root, "pyproject.toml",
                   '[project]\nname = "t"\ndependencies = ["otherpkg"]\n\n[tool.other]\nx = 1\n')
        write_file(self.root, "setup.sh", 'ls "$QUIVER_SITE" > made-by-setup.txt\n')
        self.assertEqual(self.install()["status"], "installed")
        self.assertIn("otherpkg", (self.root / "made-by-setup.txt").read_text())

    def test_files_in_subfolders_are_not_dependency_files(self):
        write_file(self.root, "programs/setup.sh", "exit 1\n")
        write_file(self.tree_dir, "sub/requirements.txt", "tinypkg\n")
        self.assertEqual(self.install()["status"], "none")

    def test_R_deps_root_tree_folder_files_are_not_read_and_are_named(self):
        write_file(self.tree_dir, "requirements.txt", "not-a-package-anywhere\n")
        summary = self.install()
        self.assertEqual(summary["status"], "none")
        self.assertEqual(summary["misplaced"], ["tools/requirements.txt"])
        self.assertIn("tools/requirements.txt is not a dependency file", summary["note"])
        self.assertIn(f"move it to {self.root}/", summary["note"])
        self.assertFalse(self.site.exists())

    def test_R_deps_root_reads_the_checkout_root_and_says_which_files(self):
        write_file(self.root, "requirements.txt", "tinypkg\n")
        write_file(self.tree_dir, "requirements.txt", "otherpkg\n")
        summary = self.install()
        self.assertEqual((summary["status"], summary["root"], summary["files"]),
                         ("installed", str(self.root), ["requirements.txt"]))
        self.assertTrue((self.site / "tinypkg").is_dir())
        self.assertFalse((self.site / "otherpkg").exists())
        self.assertEqual(summary["misplaced"], ["tools/requirements.txt"])

    def test_R_deps_log_unchanged_run_keeps_the_install_transcript(self):
        write_file(self.root, "requirements.txt", "tinypkg\n")
        self.install()
        self.install()
        self.install()
        transcript, runs = deps_log.read(self.log)
        self.assertIn("-r requirements.txt", transcript)
        self.assertIn("tinypkg", transcript)
        self.assertEqual([line.split()[1] for line in runs], ["installed", "unchanged", "unchanged"])
        self.assertRegex(runs[1], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ unchanged in \d+\.\d s: requirements\.txt")

    def test_R_deps_log_a_new_install_replaces_the_transcript_and_keeps_the_runs(self):
        write_file(self.root, "requirements.txt", "tinypkg\n")
        self.install()
        write_file(self.root, "requirements.txt", "otherpkg\n")
        self.install()
        transcript, runs = deps_log.read(self.log)
        self.assertIn("otherpkg", transcript)
        self.assertNotIn("tinypkg", transcript)
        self.assertEqual([line.split()[1] for line in runs], ["installed", "installed"])

    def test_R_deps_log_keeps_only_the_last_runs(self):
        write_file(self.root, "requirements.txt", "tinypkg\n")
        self.install()
        for _ in range(deps_log.KEPT_RUNS + 5):
            self.install()
        transcript, runs = deps_log.read(self.log)
        self.assertEqual(len(runs), deps_log.KEPT_RUNS)
        self.assertTrue(all(" unchanged " in line for line in runs))
        self.assertIn("-r requirements.txt", transcript)

    def test_R_deps_log_a_failure_says_pips_own_error_line(self):
        write_file(self.root, "requirements.txt", "not-a-package-anywhere\n")
        summary = self.install()
        self.assertEqual(summary["status"], "failed")
        self.assertRegex(summary["error"], r"\(ERROR: .*not-a-package-anywhere.*\); read the log for the rest$")
        _, runs = deps_log.read(self.log)
        self.assertIn(" failed in ", runs[-1])
        self.assertIn("not-a-package-anywhere", runs[-1])

    def test_failure_is_reported_not_raised_and_not_stamped(self):
        write_file(self.root, "requirements.txt", "not-a-package-anywhere\n")
        summary = self.install()
        self.assertEqual(summary["status"], "failed")
        self.assertIn("read the log", summary["error"])
        self.assertIn("not-a-package-anywhere", self.log.read_text())
        self.assertEqual(self.install()["status"], "failed")  # no stamp: it tries again

    def test_budget_is_shared_and_enforced(self):
        write_file(self.root, "setup.sh", "sleep 5\n")
        summary = self.install(budget=0.5)
        self.assertEqual(summary["status"], "failed")
        self.assertIn("budget", summary["error"])
        self.assertLess(summary["seconds"], 4)

    def test_cli_prints_one_json_line(self):
        write_file(self.root, "requirements.txt", "tinypkg\n")
        done = subprocess.run([sys.executable, str(RUN_PY), "deps", "--tree", str(self.tree_dir),
                               "--site", str(self.site), "--log", str(self.log),
                               "--pip-arg", "--no-index", "--pip-arg", "--find-links",
                               "--pip-arg", str(self.wheels)],
                              capture_output=True, text=True, timeout=120)
        lines = done.stdout.strip().splitlines()
        self.assertEqual(len(lines), 1, done.stderr)
        summary = json.loads(lines[0])
        self.assertEqual(set(summary), {"status", "log", "seconds", "error", "root", "files", "misplaced", "note"})
        self.assertEqual(summary["status"], "installed")
