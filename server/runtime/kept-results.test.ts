// Where a run keeps a cut result (R-cut-run, R-cut-confined, R-cut-bounded): .results/<run>/ of the agent's working
// folder, through no link, and only so many files, bytes and runs.
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { adoptHostCut, capOutput, KEEP_LIMITS, keepInRun, type KeepIn } from "./kept-results";

let dir: string;
let where: KeepIn;
const saved = { ...KEEP_LIMITS };

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-kept-"));
  fs.mkdirSync(path.join(dir, "data", "workspace", "inbox"), { recursive: true });
  where = { folder: path.join(dir, "data", "workspace", "inbox"), dataDir: path.join(dir, "data"), runId: "run-1" };
});

afterEach(() => {
  Object.assign(KEEP_LIMITS, saved);
  fs.rmSync(dir, { recursive: true, force: true });
});

const listed = (run = "run-1") => fs.readdirSync(path.join(where.folder, ".results", run)).sort();
const keep = async (text: string, at: KeepIn = where) => {
  const kept = await keepInRun(at, text);
  if (!("kept" in kept)) throw new Error(kept.why);
  return kept.kept;
};

describe("keeping a run's cut results", () => {
  it("R-cut-run: keeps the whole text under .results/<run>/ of the working folder and names it relative to that folder", async () => {
    const capped = await capOutput("x".repeat(30_000), 20_000, where);
    expect(capped.kept).toMatch(/^\.results\/run-1\/tool-[0-9a-f-]{36}\.txt$/);
    expect(fs.readFileSync(path.join(where.folder, capped.kept!), "utf8")).toBe("x".repeat(30_000));
    expect(capped.text).toContain(`The whole of it is in ${capped.kept} (in the agent's working folder); read that file for the part in between`);
  });

  it("R-cut-confined: a .results that is a link is not followed; the note says why nothing was kept", async () => {
    const outside = path.join(dir, "outside");
    fs.mkdirSync(outside);
    fs.symlinkSync(outside, path.join(where.folder, ".results"));
    const capped = await capOutput("y".repeat(30_000), 20_000, where);
    expect(capped.kept).toBeNull();
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(capped.text).toContain("The whole of it could not be kept where your file tools can read it (.results is a symbolic link, which is not followed) ...]");
  });

  it("R-cut-confined: a run folder that is a link is not followed either", async () => {
    const outside = path.join(dir, "outside");
    fs.mkdirSync(outside);
    fs.mkdirSync(path.join(where.folder, ".results"));
    fs.symlinkSync(outside, path.join(where.folder, ".results", "run-1"));
    expect(await keepInRun(where, "z")).toEqual({ why: ".results/run-1 is a symbolic link, which is not followed" });
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it("R-cut-bounded: past the count a run's oldest files go, the newest always stays", async () => {
    KEEP_LIMITS.files = 2;
    const first = await keep("a");
    await new Promise((r) => setTimeout(r, 20));
    const second = await keep("b");
    await new Promise((r) => setTimeout(r, 20));
    const third = await keep("c");
    expect(listed()).toEqual([second, third].map((p) => path.basename(p)).sort());
    expect(listed()).not.toContain(path.basename(first));
  });

  it("R-cut-bounded: past the bytes the oldest go, and one file over the bound alone still stays", async () => {
    KEEP_LIMITS.bytes = 25;
    await keep("a".repeat(10));
    await new Promise((r) => setTimeout(r, 20));
    const second = await keep("b".repeat(10));
    await new Promise((r) => setTimeout(r, 20));
    const third = await keep("c".repeat(10));
    expect(listed()).toEqual([second, third].map((p) => path.basename(p)).sort());
    const big = await keep("d".repeat(100));
    expect(listed()).toEqual([path.basename(big)]);
  });

  it("R-cut-bounded: past the number of runs the oldest run's folder goes, never the current run's", async () => {
    KEEP_LIMITS.runs = 2;
    for (const runId of ["old", "middle", "new"]) {
      await keep("t", { ...where, runId });
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(fs.readdirSync(path.join(where.folder, ".results")).sort()).toEqual(["middle", "new"]);
  });
});

describe("moving the tool host's kept file into the run", () => {
  const uuid = "0b5c7f0e-1f2a-4d3b-8c9d-0123456789ab";
  let tree: string;
  let hostResults: string;
  const note = (where: string) => `head[... 25,000 characters left out here: the result was 30,000 characters long. The whole of it is in ${where}; read that file for the part in between ...]tail`;
  const hostNote = note(`.results/tool-${uuid}.txt (in the tool host's working folder)`);

  beforeEach(() => {
    tree = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "quiver-kept-tree-")));
    const hash = createHash("sha256").update(tree).digest("hex").slice(0, 16);
    hostResults = path.join(dir, "hostdata", "work", hash, ".results");
    fs.mkdirSync(hostResults, { recursive: true });
  });
  afterEach(() => fs.rmSync(tree, { recursive: true, force: true }));

  it("R-cut-run: moves the host's file into .results/<run>/, masked, and rewrites the note to name it", async () => {
    fs.writeFileSync(path.join(hostResults, `tool-${uuid}.txt`), "the whole text, with s3cret in it");
    const adopted = await adoptHostCut({ ...where, tree }, hostNote, path.join(hostResults, `tool-${uuid}.txt`), (t) => t.replaceAll("s3cret", "***"));
    expect(adopted.kept).toMatch(/^\.results\/run-1\/tool-[0-9a-f-]{36}\.txt$/);
    expect(adopted.text).toBe(note(`${adopted.kept} (in the agent's working folder)`));
    expect(fs.readFileSync(path.join(where.folder, adopted.kept!), "utf8")).toBe("the whole text, with *** in it");
    expect(fs.readdirSync(hostResults)).toEqual([]);
  });

  it("R-cut-confined: a host .results swapped for a link is not read through, and the note says the rest could not be kept", async () => {
    const elsewhere = path.join(dir, "elsewhere");
    fs.mkdirSync(elsewhere);
    fs.writeFileSync(path.join(elsewhere, `tool-${uuid}.txt`), "not the host's");
    fs.rmSync(hostResults, { recursive: true });
    fs.symlinkSync(elsewhere, hostResults);
    const adopted = await adoptHostCut({ ...where, tree }, hostNote, path.join(hostResults, `tool-${uuid}.txt`), (t) => t);
    expect(adopted.kept).toBeNull();
    expect(adopted.text).toContain("The whole of it could not be kept where your file tools can read it (the tool host's copy could not be read: .results is a symbolic link, which is not followed) ...]");
    expect(fs.existsSync(path.join(where.folder, ".results"))).toBe(false);
  });

  it("R-cut-confined: a reported path outside the work folder of the tree's own host is not taken", async () => {
    const other = path.join(dir, "hostdata", "work", "0123456789abcdef", ".results");
    fs.mkdirSync(other, { recursive: true });
    fs.writeFileSync(path.join(other, `tool-${uuid}.txt`), "another tree's");
    for (const reported of [path.join(other, `tool-${uuid}.txt`), "/etc/passwd", path.join(hostResults, "notes.txt")]) {
      expect(await adoptHostCut({ ...where, tree }, hostNote, reported, (t) => t)).toEqual({ text: hostNote, kept: null });
    }
    expect(fs.readdirSync(other)).toEqual([`tool-${uuid}.txt`]);
  });
});
