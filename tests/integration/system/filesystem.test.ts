// system:filesystem against real folders: confinement (R-root-confine), overwrite and recursive (R-sys-filesystem), atomic writes,
// edit_file's exact match, and the limits the builder sets.
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { context, call as callOp, place, type FakeContext, type Place } from "./context";

let p: Place;
let ctx: FakeContext;
beforeEach(() => {
  p = place("fs");
  ctx = context(p);
});
afterEach(() => p.cleanup());

const call = (operation: string, args: Record<string, unknown>, c = ctx) => callOp("filesystem", operation, args, c);
const inRoot = (rel: string) => path.join(p.root, rel);
const put = (rel: string, content: string) => {
  mkdirSync(path.dirname(inRoot(rel)), { recursive: true });
  writeFileSync(inRoot(rel), content);
};

describe("confinement to the root (R-root-confine)", () => {
  it("refuses a path that climbs out of the root with ..", async () => {
    writeFileSync(path.join(p.workspace, "secret.txt"), "outside");
    for (const bad of ["../secret.txt", "a/../../secret.txt", "..\\secret.txt"]) {
      const result = await call("read_file", { path: bad });
      expect(result.outcome, bad).toBe("refused");
      expect(result.text).toContain("leaves the root folder");
    }
  });

  it("accepts a .. that stays inside the root", async () => {
    put("notes/a.txt", "hello\n");
    expect(await call("read_file", { path: "notes/../notes/a.txt" })).toMatchObject({ outcome: "ok", text: expect.stringContaining("hello") });
  });

  it("refuses an absolute path, even one inside the root", async () => {
    put("a.txt", "x");
    for (const bad of [inRoot("a.txt"), "/etc/passwd", "~/a.txt"]) {
      const result = await call("read_file", { path: bad });
      expect(result.outcome, bad).toBe("refused");
      expect(result.text).toContain("absolute path");
    }
  });

  it("refuses a path that leaves the root through a symlink", async () => {
    writeFileSync(path.join(p.dir, "outside.txt"), "secret");
    symlinkSync(path.join(p.dir, "outside.txt"), inRoot("link.txt"));
    const read = await call("read_file", { path: "link.txt" });
    expect(read.outcome).toBe("refused");
    expect(read.text).toContain("symbolic link");
    expect(read.text).not.toContain("secret");
    expect((await call("write_file", { path: "link.txt", content: "changed", overwrite: true })).outcome).toBe("refused");
    expect((await call("delete", { path: "link.txt" })).outcome).toBe("refused");
    expect(readFileSync(path.join(p.dir, "outside.txt"), "utf8")).toBe("secret");
  });

  it("refuses a symlink in a parent folder, even one that points inside the root", async () => {
    put("real/a.txt", "inside");
    symlinkSync(inRoot("real"), inRoot("alias"));
    symlinkSync(p.dir, inRoot("out"));
    expect(await call("read_file", { path: "alias/a.txt" })).toMatchObject({ outcome: "refused", text: expect.stringContaining("(alias)") });
    expect((await call("write_file", { path: "out/new.txt", content: "x" })).outcome).toBe("refused");
    expect(existsSync(path.join(p.dir, "new.txt"))).toBe(false);
    expect((await call("list_directory", { path: "out" })).outcome).toBe("refused");
    expect((await call("grep", { pattern: "inside", path: "alias" })).outcome).toBe("refused");
  });

  it("never follows a symlink while searching", async () => {
    writeFileSync(path.join(p.dir, "outside.md"), "needle");
    symlinkSync(p.dir, inRoot("out"));
    put("in.md", "needle");
    expect((await call("glob", { pattern: "**/*.md" })).text).toBe("in.md");
    expect((await call("grep", { pattern: "needle" })).text).toBe("in.md:1: needle");
    expect((await call("list_directory", {})).text).toContain("out@ (a symbolic link, not followed)");
  });

  it("never deletes the root itself", async () => {
    put("a.txt", "x");
    for (const root of [".", "", "a/..", "./"]) {
      const result = await call("delete", { path: root, recursive: true });
      expect(result.outcome, root).toBe("refused");
      expect(result.text).toContain("root folder itself is never deleted");
    }
    expect(existsSync(inRoot("a.txt"))).toBe(true);
  });

  it("fails every call when the root does not exist (R-sys-filesystem: the root must exist)", async () => {
    const missing = context(p, { settings: { root: path.join(p.workspace, "nope") } });
    expect(await call("list_directory", {}, missing)).toMatchObject({ outcome: "failed", text: expect.stringContaining("does not exist") });
  });

  it("refuses a root that leads out of the workspace through a link", async () => {
    symlinkSync(p.dir, path.join(p.workspace, "escape"));
    const escaping = context(p, { settings: { root: path.join(p.workspace, "escape") } });
    expect(await call("list_directory", {}, escaping)).toMatchObject({ outcome: "failed", text: expect.stringContaining("leads out of the studio's workspace") });
  });
});

describe("writing files", () => {
  it("needs overwrite: true to replace an existing file", async () => {
    put("a.txt", "old");
    const refused = await call("write_file", { path: "a.txt", content: "new" });
    expect(refused.outcome).toBe("refused");
    expect(refused.text).toContain("overwrite: true");
    expect(readFileSync(inRoot("a.txt"), "utf8")).toBe("old");
    expect(await call("write_file", { path: "a.txt", content: "new", overwrite: true })).toMatchObject({ outcome: "ok", text: "Replaced a.txt (3 bytes)." });
    expect(readFileSync(inRoot("a.txt"), "utf8")).toBe("new");
  });

  it("creates the folders above a new file", async () => {
    expect(await call("write_file", { path: "a/b/c.txt", content: "deep" })).toMatchObject({ outcome: "ok", text: "Wrote a/b/c.txt (4 bytes)." });
    expect(readFileSync(inRoot("a/b/c.txt"), "utf8")).toBe("deep");
  });

  it("publishes atomically and leaves no temporary file behind", async () => {
    await call("write_file", { path: "a.txt", content: "one" });
    await call("write_file", { path: "a.txt", content: "two", overwrite: true });
    await call("edit_file", { path: "a.txt", old_text: "two", new_text: "three" });
    expect(readdirSync(p.root)).toEqual(["a.txt"]);
    expect(readFileSync(inRoot("a.txt"), "utf8")).toBe("three");
  });

  it("refuses to write over a folder", async () => {
    mkdirSync(inRoot("dir"));
    expect((await call("write_file", { path: "dir", content: "x", overwrite: true })).outcome).toBe("refused");
  });
});

describe("edit_file", () => {
  it("refuses an ambiguous match rather than edit the wrong occurrence", async () => {
    put("a.txt", "x = 1\nx = 1\n");
    const result = await call("edit_file", { path: "a.txt", old_text: "x = 1", new_text: "x = 2" });
    expect(result.outcome).toBe("refused");
    expect(result.text).toContain("appears 2 times");
    expect(readFileSync(inRoot("a.txt"), "utf8")).toBe("x = 1\nx = 1\n");
  });

  it("replaces every occurrence when told to", async () => {
    put("a.txt", "x = 1\nx = 1\n");
    expect(await call("edit_file", { path: "a.txt", old_text: "x = 1", new_text: "x = 2", replace_all: true })).toMatchObject({ outcome: "ok", text: "Replaced 2 occurrences in a.txt." });
    expect(readFileSync(inRoot("a.txt"), "utf8")).toBe("x = 2\nx = 2\n");
  });

  it("replaces one exact occurrence, taking $ in the new text literally", async () => {
    put("a.txt", "price: TBD\n");
    await call("edit_file", { path: "a.txt", old_text: "TBD", new_text: "$& $1 $$" });
    expect(readFileSync(inRoot("a.txt"), "utf8")).toBe("price: $& $1 $$\n");
  });

  it("refuses text that is not in the file", async () => {
    put("a.txt", "hello\n");
    expect(await call("edit_file", { path: "a.txt", old_text: "bye", new_text: "x" })).toMatchObject({ outcome: "refused", text: expect.stringContaining("not found") });
  });
});

describe("delete", () => {
  it("needs recursive: true for a folder that is not empty", async () => {
    put("dir/a.txt", "x");
    const refused = await call("delete", { path: "dir" });
    expect(refused.outcome).toBe("refused");
    expect(refused.text).toContain("recursive: true");
    expect(existsSync(inRoot("dir/a.txt"))).toBe(true);
    expect((await call("delete", { path: "dir", recursive: true })).outcome).toBe("ok");
    expect(existsSync(inRoot("dir"))).toBe(false);
  });

  it("deletes a file, and an empty folder without recursive", async () => {
    put("a.txt", "x");
    mkdirSync(inRoot("empty"));
    expect((await call("delete", { path: "a.txt" })).text).toBe("Deleted a.txt.");
    expect((await call("delete", { path: "empty" })).text).toBe("Deleted the empty folder empty.");
    expect((await call("delete", { path: "a.txt" })).outcome).toBe("failed");
  });
});

describe("reading", () => {
  it("answers numbered lines, and a window from start_line with a note on what is left", async () => {
    put("a.txt", "one\ntwo\nthree\n");
    expect((await call("read_file", { path: "a.txt" })).text).toBe("     1\tone\n     2\ttwo\n     3\tthree");
    expect((await call("read_file", { path: "a.txt", start_line: 2, max_lines: 1 })).text).toBe("     2\ttwo\n(lines 2–2 of 3; call again with start_line=3 for more)");
  });

  it("refuses a file over the builder's read limit and a binary file", async () => {
    put("big.txt", "x".repeat(101));
    put("bin.dat", "a\0b");
    const small = context(p, { settings: { root: p.root, max_read_bytes: 100 } });
    expect(await call("read_file", { path: "big.txt" }, small)).toMatchObject({ outcome: "refused", text: expect.stringContaining("over the 100 bytes") });
    expect(await call("read_file", { path: "bin.dat" })).toMatchObject({ outcome: "refused", text: expect.stringContaining("binary") });
  });

  it("lists folders first with a slash, and stops at the builder's entry limit", async () => {
    put("b.txt", "");
    put("a.txt", "");
    put("z/x.txt", "");
    expect((await call("list_directory", {})).text).toBe("z/\na.txt\nb.txt");
    const two = context(p, { settings: { root: p.root, max_directory_entries: 2 } });
    expect((await call("list_directory", {}, two)).text).toBe("z/\na.txt\n(1 more entries not shown; list a subfolder, or find files by name with glob)");
  });
});

describe("searching", () => {
  beforeEach(() => {
    put("README.md", "# Title\nneedle here\n");
    put("docs/guide.md", "nothing\nNeedle\nneedle again\n");
    put("docs/deep/more.md", "needle\n");
    put("src/app.py", "needle = 1\n");
  });

  it("globs with ** across folders, and * within one", async () => {
    expect((await call("glob", { pattern: "**/*.md" })).text).toBe("README.md\ndocs/guide.md\ndocs/deep/more.md");
    expect((await call("glob", { pattern: "*.md" })).text).toBe("README.md");
    expect((await call("glob", { pattern: "*.md", path: "docs" })).text).toBe("docs/guide.md");
    expect((await call("glob", { pattern: "docs/*/*.{md,txt}" })).text).toBe("docs/deep/more.md");
    expect((await call("glob", { pattern: "../**" })).outcome).toBe("refused");
  });

  it("bounds a glob by the builder's entry limit and says so", async () => {
    const two = context(p, { settings: { root: p.root, max_directory_entries: 2 } });
    expect((await call("glob", { pattern: "**/*" }, two)).text).toMatch(/^README\.md\ndocs\/guide\.md\n\(stopped early because it found 2 files/);
  });

  it("greps as path:line: text, filtered by a glob on the file name", async () => {
    expect((await call("grep", { pattern: "needle", glob: "*.md" })).text).toBe("README.md:2: needle here\ndocs/guide.md:3: needle again\ndocs/deep/more.md:1: needle");
    expect((await call("grep", { pattern: "^needle", path: "src/app.py" })).text).toBe("src/app.py:1: needle = 1");
  });

  it("stops a search when the call is cancelled, and says why", async () => {
    const controller = new AbortController();
    controller.abort();
    const cancelled = context(p, { signal: controller.signal });
    expect((await call("grep", { pattern: "needle" }, cancelled)).text).toBe("No matches for needle under ..\n(stopped early because the call was cancelled; narrow the path)");
  });

  it("bounds grep by max_matches and refuses a pattern that is not a regular expression", async () => {
    expect((await call("grep", { pattern: "needle", max_matches: 1 })).text).toMatch(/^README\.md:2: needle here\n\(stopped early because it found 1 matches/);
    expect(await call("grep", { pattern: "(" })).toMatchObject({ outcome: "refused", text: expect.stringContaining("not a valid regular expression") });
  });
});

describe("generate_file", () => {
  it("makes a download in the run's output folder, never under the root, and never replaces one", async () => {
    expect(await call("generate_file", { filename: "report.md", content: "# R" })).toMatchObject({ outcome: "ok" });
    expect(readFileSync(path.join(ctx.outputDir, "report.md"), "utf8")).toBe("# R");
    expect(readdirSync(p.root)).toEqual([]);
    const again = await call("generate_file", { filename: "report.md", content: "other" });
    expect(again).toMatchObject({ outcome: "refused", text: expect.stringContaining("report-2.md") });
    expect(readFileSync(path.join(ctx.outputDir, "report.md"), "utf8")).toBe("# R");
    expect(readdirSync(ctx.outputDir)).toEqual(["report.md"]);
  });

  it("refuses a name with a folder in it", async () => {
    for (const bad of ["../x.md", "a/b.md", ".hidden", ""]) expect((await call("generate_file", { filename: bad, content: "x" })).outcome, bad).toBe("refused");
  });
});
