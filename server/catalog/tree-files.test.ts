import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { listTreeFiles } from "./tree-files";

const made: string[] = [];
function tree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-tree-"));
  made.push(dir);
  for (const [name, body] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), body);
  }
  return dir;
}
afterEach(() => made.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

describe("listTreeFiles", () => {
  it("lists only the .py files at the top of the tree, sorted by name", async () => {
    const dir = tree({ "shell.py": "", "notes.py": "", "README.md": "", "data.json": "{}" });
    const listing = await listTreeFiles(dir);
    expect(listing.files.map((f) => f.path)).toEqual(["notes.py", "shell.py"]);
  });

  it("does not scan subdirectories (R-file-flat)", async () => {
    const dir = tree({ "notes.py": "", "sub/deep.py": "" });
    expect((await listTreeFiles(dir)).files.map((f) => f.path)).toEqual(["notes.py"]);
  });

  it("marks a file whose name starts with an underscore as a helper", async () => {
    const dir = tree({ "_helpers.py": "", "notes.py": "" });
    const files = (await listTreeFiles(dir)).files;
    expect(files.find((f) => f.path === "_helpers.py")?.helper).toBe(true);
    expect(files.find((f) => f.path === "notes.py")?.helper).toBe(false);
  });

  it("reports a missing tree as empty instead of failing", async () => {
    const listing = await listTreeFiles(path.join(os.tmpdir(), "quiver-no-such-tree-" + process.pid));
    expect(listing).toMatchObject({ exists: false, files: [] });
  });
});
