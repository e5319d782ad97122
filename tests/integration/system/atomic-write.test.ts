// R-sys-filesystem: writes publish atomically. A write that fails before it is published leaves the old content whole and
// no temporary file behind; the rename that publishes it is made to fail here.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { call, context, place, type Place } from "./context";

const failRename = vi.hoisted(() => ({ on: false }));
vi.mock("node:fs/promises", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs/promises")>();
  const rename: typeof real.rename = async (from, to) => {
    if (failRename.on) throw Object.assign(new Error("ENOSPC: no space left on device, rename"), { code: "ENOSPC" });
    return real.rename(from, to);
  };
  return { ...real, rename, default: { ...real, rename } };
});

let p: Place;
beforeEach(() => {
  p = place("atomic");
  failRename.on = false;
});
afterEach(() => p.cleanup());

describe("an atomic write that fails", () => {
  it("keeps the old content intact and leaves no temporary file", async () => {
    const file = path.join(p.root, "a.txt");
    writeFileSync(file, "old content");
    failRename.on = true;
    const ctx = context(p);
    const written = await call("filesystem", "write_file", { path: "a.txt", content: "new content", overwrite: true }, ctx);
    expect(written).toEqual({ outcome: "failed", text: "ENOSPC: the disk is full." });
    const edited = await call("filesystem", "edit_file", { path: "a.txt", old_text: "old", new_text: "new" }, ctx);
    expect(edited.outcome).toBe("failed");
    expect(readFileSync(file, "utf8")).toBe("old content");
    expect(readdirSync(p.root)).toEqual(["a.txt"]);
  });
});
