// A tree's dependencies through server/host/deps.ts and the real `run.py deps`: read from the checkout's root beside
// the tree folder (R-deps-root), installed once, stamped, then seen by the host started afterwards (--site), also
// sandboxed. Offline: pip installs a wheel built here from a local folder.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { closeAll, hostFor, installDeps, resultText } from "@/server/host";
import { env } from "@/server/env";
import { scratch } from "./helpers";

const USES = `"""Uses a dependency the tree declares."""


def version() -> str:
    """The installed demo package's version."""
    import quiverdemo

    return quiverdemo.VERSION
`;

// A wheel is a zip with the package and its dist-info; writing one needs no build backend and no network.
const MAKE_WHEEL = `
import sys, zipfile
out = sys.argv[1]
files = {
    "quiverdemo/__init__.py": 'VERSION = "0.1"\\n',
    "quiverdemo-0.1.dist-info/METADATA": "Metadata-Version: 2.1\\nName: quiverdemo\\nVersion: 0.1\\n",
    "quiverdemo-0.1.dist-info/WHEEL": "Wheel-Version: 1.0\\nGenerator: quiver-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
}
record = "".join(f"{name},,\\n" for name in files) + "quiverdemo-0.1.dist-info/RECORD,,\\n"
with zipfile.ZipFile(out, "w") as wheel:
    for name, text in files.items():
        wheel.writestr(name, text)
    wheel.writestr("quiverdemo-0.1.dist-info/RECORD", record)
`;

const space = scratch("deps");
afterAll(async () => {
  await closeAll();
  space.cleanup();
});

function pipWorks(): string | null {
  try {
    execFileSync(env().python, ["-m", "pip", "--version"], { stdio: "ignore" });
    return null;
  } catch {
    return `${env().python} -m pip does not run here`;
  }
}

describe("a tree's dependencies", () => {
  const noPip = pipWorks();
  if (noPip) console.info(`dependency tests skipped: ${noPip}`);

  it.skipIf(noPip !== null)("R-deps-root: installs the root's requirements.txt once, says unchanged after, and the next host imports them", async (ctx) => {
    const wheels = path.join(space.dir, "wheels");
    mkdirSync(wheels);
    execFileSync(env().python, ["-c", MAKE_WHEEL, path.join(wheels, "quiverdemo-0.1-py3-none-any.whl")]);
    const tree = space.tree("checkout/tools", { "uses.py": USES });
    writeFileSync(path.join(space.dir, "checkout", "requirements.txt"), "quiverdemo==0.1\n");
    const pipArgs = ["--no-index", "--find-links", wheels];
    const host = hostFor(tree, { sandbox: false, dataDir: space.dataDir });

    expect(resultText(await host.call("uses__version", {}))).toMatch(/^ModuleNotFoundError: No module named 'quiverdemo'/);

    const first = await host.installDeps({ pipArgs });
    if (first.status === "failed" && /pip/.test(first.error ?? "")) ctx.skip(`pip cannot install offline here: ${first.error}`);
    expect(first).toMatchObject({ status: "installed", error: null });
    expect(first.log).toMatch(/deps\.log$/);
    expect(readFileSync(first.log, "utf8")).toContain("quiverdemo");
    expect(existsSync(path.join(path.dirname(first.log), "site", "quiverdemo"))).toBe(true);

    expect(resultText(await host.call("uses__version", {}))).toBe("0.1");

    const second = await installDeps(tree, { sandbox: false, dataDir: space.dataDir, pipArgs });
    expect(second).toMatchObject({ status: "unchanged", error: null, root: path.join(space.dir, "checkout"), files: ["requirements.txt"] });
  });

  it.skipIf(noPip !== null)("R-deps-root: the sandboxed step reads the root's files, which sit outside the writable tree", async () => {
    const tree = space.tree("sandboxed/tools", { "uses.py": USES });
    writeFileSync(path.join(space.dir, "sandboxed", "setup.sh"), 'echo "made by setup" > "$QUIVER_SITE/marker.txt"\n');
    const summary = await installDeps(tree, { sandbox: true, dataDir: space.dataDir });
    expect(summary).toMatchObject({ status: "installed", files: ["setup.sh"] });
    expect(readFileSync(path.join(path.dirname(summary.log), "site", "marker.txt"), "utf8")).toBe("made by setup\n");
  });

  it("R-deps-root: a requirements.txt in the tree folder is not read, and the summary says to move it", async () => {
    const tree = space.tree("misplaced/tools", { "uses.py": USES, "requirements.txt": "quiverdemo==0.1\n" });
    const summary = await installDeps(tree, { sandbox: false, dataDir: space.dataDir });
    expect(summary).toMatchObject({ status: "none", misplaced: ["tools/requirements.txt"] });
    expect(summary.note).toContain(`so move it to ${path.join(space.dir, "misplaced")}/`);
  });

  it("says none for a tree that declares nothing", async () => {
    const tree = space.tree("bare", { "uses.py": USES });
    expect(await installDeps(tree, { sandbox: false, dataDir: space.dataDir })).toMatchObject({ status: "none" });
  });
});
