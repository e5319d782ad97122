// Publish and History against the real Python tool host, real git and a database: refused while any file has errors,
// a commit of the tree's files otherwise, no empty commits, versions newest first, read from the database on any
// studio process, and two versions compared for the model.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/db/client";
import { treeVersions } from "@/db/schema";
import { DomainError } from "@/server/errors";
import { closeAll, hostFor } from "@/server/host";
import { compareVersions, listVersions, readVersion } from "@/server/tree/history";
import { publish } from "@/server/tree/publish";
import { describeChange } from "@/server/tree/schema-diff";
import { rewrite, scratch } from "./host/helpers";

const notes = (writeParams: string, args: string) => `"""Notes kept on this machine."""


def write(${writeParams}) -> str:
    """Write one note.

    Args:
${args}
    """
    return subject


def read(subject: str) -> str:
    """Read one note.

    Args:
        subject: Which note.
    """
    return subject
`;

const NOTES_V1 = notes("subject: str", "        subject: Which note.");
const NOTES_V2 = notes("subject: str, body: str, tags: list[str] | None = None", "        subject: Which note.\n        body: The note itself.\n        tags: Labels.");

const CLOCK = `"""Time."""


def now() -> str:
    """Say the time."""
    return "noon"
`;

const SYNTAX_ERROR = `"""Broken on purpose."""


def half(x: int -> int:
    """Halve."""
    return x // 2
`;

const NO_HINT = `"""Missing hints."""


def greet(name) -> str:
    """Greet.

    Args:
        name: Who.
    """
    return name


def shout(text, *rest) -> str:
    """Shout."""
    return text
`;

const space = scratch("publish");
let database: Database;
beforeAll(async () => {
  database = await openDatabase({ dataDir: path.join(space.dir, "database") });
});
afterAll(async () => {
  await closeAll();
  await database?.close();
  space.cleanup();
});

/** As `setup`, on a studio whose database holds no version yet: versions are studio-wide (R-version-stored). */
async function setupStudio(name: string, files: Record<string, string>) {
  await database.db.delete(treeVersions);
  return { ...setup(name, files), db: database.db };
}

/** A tree and a data folder of its own, so each test starts before the first publish. */
function setup(name: string, files: Record<string, string>) {
  const tree = space.tree(name, files);
  const dataDir = path.join(space.dir, `${name}-data`);
  mkdirSync(dataDir);
  return { tree, dataDir, gitDir: path.join(dataDir, "tree.git") };
}

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

const gitOut = (gitDir: string, ...args: string[]) => execFileSync("git", [`--git-dir=${gitDir}`, ...args], { encoding: "utf8" }).trim();

describe("publish", () => {
  it("refuses a tree with errors, listing only the first error of each failing file", async () => {
    const { tree, dataDir, gitDir } = setup("broken", { "clock.py": CLOCK, "half.py": SYNTAX_ERROR, "greet.py": NO_HINT });
    const error = await refusal(publish({ tree, dataDir, message: "first" }));
    expect(error.reason).toBe("TREE_HAS_ERRORS");
    expect(error.message).toMatch(/^Not published: 2 files have errors \(greet\.py, half\.py\)/);
    const errors = error.details?.errors as { path: string; line: number | null; message: string }[];
    expect(errors.map((e) => e.path)).toEqual(["greet.py", "half.py"]);
    expect(errors[0]).toMatchObject({ line: 4, message: expect.stringContaining("`name` in greet() has no type hint") });
    expect(errors[1]).toMatchObject({ line: 4, message: expect.stringMatching(/^SyntaxError: /) });
    expect(gitOut(gitDir, "rev-list", "--all", "--count")).toBe("0");
  }, 60_000);

  it("checks in a fresh interpreter, so a file that imported a helper's old version is found broken", async () => {
    const clock = CLOCK.replace('"""Time."""\n', '"""Time."""\n\nfrom _shared import NOON\n').replace('"noon"', "NOON");
    const { tree, dataDir } = setup("helper", { "_shared.py": 'NOON = "noon"\n', "clock.py": clock });
    const live = hostFor(tree, { sandbox: false, dataDir });
    expect((await live.catalog()).files.flatMap((file) => file.errors)).toEqual([]);
    rewrite(path.join(tree, "_shared.py"), 'MIDNIGHT = "midnight"\n');
    // R-file-reload: a changed helper does not re-import the files that imported it, so the long-lived host still
    // offers clock.py; a new interpreter imports it afresh and fails.
    expect((await live.catalog()).files.flatMap((file) => file.errors)).toEqual([]);
    const error = await refusal(publish({ tree, dataDir, message: "helper" }));
    expect(error.details?.errors).toEqual([{ path: "clock.py", line: 3, message: expect.stringMatching(/^ImportError: cannot import name 'NOON'/) }]);
  }, 60_000);

  it("R-deps-root: commits the top-level tool files and the root's dependency files, and nothing under a subfolder", async () => {
    const { tree, dataDir, gitDir } = setup("good/tools", { "clock.py": CLOCK, "notes.py": NOTES_V1, "requirements.txt": "not read\n" });
    writeFileSync(path.join(path.dirname(tree), "requirements.txt"), "\n");
    mkdirSync(path.join(tree, "__pycache__"));
    writeFileSync(path.join(tree, "__pycache__", "clock.cpython-311.pyc"), "x");
    mkdirSync(path.join(tree, "sub"));
    writeFileSync(path.join(tree, "sub", "other.py"), CLOCK);
    writeFileSync(path.join(tree, "notes.txt"), "not a tool");

    const published = await publish({ tree, dataDir, message: "  First version\n\nWith notes.  " });
    expect(published.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(published.message).toBe("First version\n\nWith notes.");
    expect(published.files).toEqual(["clock.py", "notes.py", "requirements.txt"]);
    expect(Math.abs(Date.parse(published.at) - Date.now())).toBeLessThan(60_000);

    expect(gitOut(gitDir, "rev-parse", "HEAD")).toBe(published.commit);
    expect(gitOut(gitDir, "ls-tree", "--name-only", "HEAD").split("\n")).toEqual(["clock.py", "notes.py", "requirements.txt"]);
    expect(gitOut(gitDir, "show", "HEAD:requirements.txt")).toBe("");
    expect(gitOut(gitDir, "log", "-1", "--format=%an <%ae>|%s")).toBe("Quiver <quiver@localhost>|First version");
    expect(gitOut(gitDir, "config", "--bool", "core.bare")).toBe("true");
  }, 60_000);

  it("says nothing changed instead of making an empty commit", async () => {
    const { tree, dataDir, gitDir } = setup("same", { "clock.py": CLOCK });
    const first = await publish({ tree, dataDir, message: "clock" });
    const error = await refusal(publish({ tree, dataDir, message: "again" }));
    expect(error.reason).toBe("NOTHING_CHANGED");
    expect(error.message).toBe(`Nothing changed since the last publish (${first.commit.slice(0, 7)}, “clock”): edit a file first.`);
    expect(gitOut(gitDir, "rev-list", "--count", "HEAD")).toBe("1");
  }, 60_000);

  it("records a deleted file as gone from the next version", async () => {
    const { tree, dataDir, gitDir, db } = await setupStudio("deleted", { "clock.py": CLOCK, "notes.py": NOTES_V1 });
    await publish({ tree, dataDir, message: "both", db });
    execFileSync("rm", [path.join(tree, "notes.py")]);
    const second = await publish({ tree, dataDir, message: "no notes", db });
    expect(second.files).toEqual(["clock.py"]);
    expect(gitOut(gitDir, "ls-tree", "--name-only", "HEAD")).toBe("clock.py");
    expect(await listVersions({ db, tree, path: "notes.py" })).toHaveLength(1);
  }, 60_000);

  it("refuses an empty message", async () => {
    const { tree, dataDir } = setup("nomessage", { "clock.py": CLOCK });
    expect((await refusal(publish({ tree, dataDir, message: "   " }))).reason).toBe("NO_MESSAGE");
  });
});

describe("history", () => {
  it("has no versions before the first publish", async () => {
    const { tree, db } = await setupStudio("fresh", { "clock.py": CLOCK });
    expect(await listVersions({ db, tree, path: "clock.py" })).toEqual([]);
  });

  it("lists a file's published versions newest first, only those that changed it, and compares two for the model", async () => {
    const { tree, dataDir, db } = await setupStudio("history", { "clock.py": CLOCK, "notes.py": NOTES_V1 });
    const first = await publish({ tree, dataDir, message: "Notes can be written", db });
    rewrite(path.join(tree, "clock.py"), CLOCK.replace("noon", "midnight"));
    const clockOnly = await publish({ tree, dataDir, message: "Clock says midnight", db });
    rewrite(path.join(tree, "notes.py"), NOTES_V2);
    const second = await publish({ tree, dataDir, message: "Notes take a body and tags", db });

    const versions = await listVersions({ db, tree, path: "notes.py" });
    expect(versions.map((v) => [v.number, v.commit, v.message, v.author])).toEqual([
      [3, second.commit, "Notes take a body and tags", "Quiver"],
      [1, first.commit, "Notes can be written", "Quiver"],
    ]);
    expect(versions.map((v) => v.commit)).not.toContain(clockOnly.commit);
    expect(versions[0]!.at).toBe(second.at);

    expect(await readVersion({ db, tree, path: "notes.py", commit: first.commit })).toBe(NOTES_V1);
    expect(await readVersion({ db, tree, path: "notes.py", commit: first.commit.slice(0, 7) })).toBe(NOTES_V1);
    const compared = await compareVersions({ db, tree, path: "notes.py", from: first.commit, to: second.commit, host: { sandbox: false, dataDir } });
    expect(compared.before.source).toBe(NOTES_V1);
    expect(compared.after.source).toBe(NOTES_V2);
    expect(compared.before.entry.tools.map((t) => t.name)).toEqual(["notes__write", "notes__read"]);
    expect(compared.schemaDiff.map(describeChange)).toEqual([
      "notes__write: added required parameter body (string)",
      "notes__write: added optional parameter tags (array of string)",
    ]);
  }, 90_000);

  it("compares the latest version with the file on disk now", async () => {
    const { tree, dataDir, db } = await setupStudio("working", { "notes.py": NOTES_V2 });
    const published = await publish({ tree, dataDir, message: "v2", db });
    rewrite(path.join(tree, "notes.py"), NOTES_V2.replace("def read(", "def fetch("));
    const compared = await compareVersions({ db, tree, path: "notes.py", from: published.commit, to: "working", host: { sandbox: false, dataDir } });
    expect(compared.after.version).toBe("working");
    expect(compared.after.source).toContain("def fetch(");
    expect(compared.schemaDiff.map(describeChange)).toEqual(["Added operation notes__fetch", "Removed operation notes__read"]);
  }, 60_000);

  it("refuses a version that does not hold the file, and a version that is not a commit hash", async () => {
    const { tree, dataDir, db } = await setupStudio("missing", { "clock.py": CLOCK });
    const published = await publish({ tree, dataDir, message: "clock", db });
    expect((await refusal(readVersion({ db, tree, path: "notes.py", commit: published.commit }))).reason).toBe("NO_VERSION");
    expect((await refusal(readVersion({ db, tree, path: "clock.py", commit: "--all" }))).reason).toBe("BAD_VERSION");
    expect((await refusal(readVersion({ db, tree, path: "clock.py", commit: "0000000" }))).reason).toBe("NO_VERSION");
  }, 60_000);

  it("R-version-stored: a studio process whose tree.git is fresh shows the versions another one published, and compares them", async () => {
    const { tree, dataDir, db } = await setupStudio("machine-a/tools", { "notes.py": NOTES_V1 });
    const first = await publish({ tree, dataDir, message: "Notes can be written", db });
    rewrite(path.join(tree, "notes.py"), NOTES_V2);
    const second = await publish({ tree, dataDir, message: "Notes take a body and tags", db });
    // Another machine: a checkout of its own holding the file as it is now, and a data folder no publish has touched.
    const other = setup("machine-b/tools", { "notes.py": NOTES_V2.replace("def read(", "def fetch(") });
    expect(existsSync(path.join(other.gitDir, "HEAD"))).toBe(false);

    const versions = await listVersions({ db, tree: other.tree, path: "notes.py" });
    expect(versions.map((v) => [v.number, v.commit, v.message])).toEqual([
      [2, second.commit, "Notes take a body and tags"],
      [1, first.commit, "Notes can be written"],
    ]);
    const published = await compareVersions({ db, tree: other.tree, path: "notes.py", from: first.commit, to: second.commit, host: { sandbox: false, dataDir: other.dataDir } });
    expect([published.before.source, published.after.source]).toEqual([NOTES_V1, NOTES_V2]);
    const working = await compareVersions({ db, tree: other.tree, path: "notes.py", from: second.commit, to: "working", host: { sandbox: false, dataDir: other.dataDir } });
    expect(working.schemaDiff.map(describeChange)).toEqual(["Added operation notes__fetch", "Removed operation notes__read"]);
  }, 90_000);
});
