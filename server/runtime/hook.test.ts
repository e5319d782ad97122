// The call hook's text as a run's calls read it (R-perm-hook, R-perm-hook-watched): read afresh once a watch on
// hooks/ (or the folder above it) reports a change, and the last text otherwise.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { currentHook, HOOK_RECHECK_MS } from "./hook";

let root: string;
let tree: string;
const hook = () => path.join(root, "hooks", "tools.py");
const write = (text: string) => {
  fs.mkdirSync(path.dirname(hook()), { recursive: true });
  fs.writeFileSync(hook(), text);
};
/** Until the watch's event has been taken: a few turns of the loop. */
const turn = () => new Promise((resolve) => setTimeout(resolve, 50));

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-hook-"));
  tree = path.join(root, "tools");
  fs.mkdirSync(tree);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("the call hook's text at run time (R-perm-hook-watched)", () => {
  it("R-perm-hook-watched: an edited hook decides the first call after the loop has taken the change", async () => {
    write("def check(call):\n    return None  # first\n");
    expect(await currentHook(tree)).toContain("# first");
    write("def check(call):\n    return None  # second, longer\n");
    await turn();
    expect(await currentHook(tree)).toContain("# second");
  });

  it("R-perm-hook-watched: a hook made where hooks/ did not exist is seen, and one removed is gone", async () => {
    expect(await currentHook(tree)).toBeNull();
    write("def check(call):\n    return None\n");
    await turn();
    expect(await currentHook(tree)).toBe("def check(call):\n    return None\n");
    fs.rmSync(path.join(root, "hooks"), { recursive: true });
    await turn();
    expect(await currentHook(tree)).toBeNull();
  });

  it("R-perm-hook-watched: calls within the recheck time share the text last read without looking again", async () => {
    write("def check(call):\n    return None\n");
    const first = currentHook(tree);
    // The same read answers every call until a watch reports something or HOOK_RECHECK_MS pass.
    expect(currentHook(tree)).toBe(first);
    expect(HOOK_RECHECK_MS).toBeLessThanOrEqual(1_000);
    await first;
  });
});
