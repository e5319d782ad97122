import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { childBaseEnv } from "../env";
import { DEFAULT_LIMITS, hostCommand, hostEnv, serveArgs, toolhostScript, workDirFor } from "./command";
import { findOnPath } from "./sandbox";

const scratch = mkdtempSync(path.join(tmpdir(), "quiver-command-"));
const tree = path.join(scratch, "tree");
mkdirSync(tree);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the host's command", () => {
  it("passes every resource limit to run.py serve", () => {
    const args = serveArgs("/q/run.py", "/t", DEFAULT_LIMITS);
    expect(args.slice(0, 4)).toEqual(["/q/run.py", "serve", "--tree", "/t"]);
    const pairs = Object.fromEntries(args.slice(4).reduce<string[][]>((acc, arg, i, all) => (i % 2 ? acc : [...acc, [arg, all[i + 1]!]]), []));
    expect(pairs).toEqual({ "--limit-as": "2048", "--limit-cpu": "3600", "--limit-nofile": "1024", "--limit-nproc": "4096", "--memory-soft": "512" });
  });

  it("adds --site only when the tree has a site folder", () => {
    expect(serveArgs("r", "/t", DEFAULT_LIMITS)).not.toContain("--site");
    expect(serveArgs("r", "/t", DEFAULT_LIMITS, { siteDir: "/w/site" }).slice(-2)).toEqual(["--site", "/w/site"]);
  });

  it("gives each tree its own work folder under the data folder", () => {
    const a = workDirFor("/trees/a", "/data");
    expect(path.dirname(a)).toBe("/data/work");
    expect(workDirFor("/trees/a", "/data")).toBe(a);
    expect(workDirFor("/trees/b", "/data")).not.toBe(a);
  });

  it("keeps studio settings and keys out of the host's environment", () => {
    vi.stubEnv("QUIVER_SECRET_KEY", "canary-key");
    vi.stubEnv("DATABASE_URL", "postgres://user:pw@db/quiver");
    vi.stubEnv("OPENAI_API_KEY", "sk-canary");
    try {
      const env = hostEnv("/data/work/abc");
      expect(Object.keys(env).sort()).toEqual(expect.arrayContaining(["HOME", "PATH", "PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED"]));
      expect(Object.keys(env).every((k) => ["HOME", "PATH", "LANG", "LC_ALL", "TZ", "PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED"].includes(k))).toBe(true);
      expect(JSON.stringify(env)).not.toMatch(/canary|postgres:/);
      expect(env.HOME).toBe("/data/work/abc");
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("runs the host unsandboxed when asked, and says so", async () => {
    const command = await hostCommand(tree, { sandbox: false, dataDir: path.join(scratch, "data"), python: "python3" });
    expect(command.command).toBe("python3");
    expect(command.sandboxed).toBe(false);
    expect(command.reason).toMatch(/unsandboxed/);
    expect(command.cwd).toBe(command.workDir);
    expect(command.workDir.startsWith(path.join(scratch, "data", "work"))).toBe(true);
  });

  it("falls back to the unsandboxed command, saying how to fix it, where bubblewrap is not installed", async () => {
    vi.stubEnv("PATH", "/nonexistent-quiver-bin");
    try {
      const command = await hostCommand(tree, { dataDir: path.join(scratch, "data"), python: "python3" });
      expect(command).toMatchObject({ command: "python3", sandboxed: false });
      expect(command.reason).toBe("bubblewrap is not installed; the tool host runs unsandboxed: install the bubblewrap package");
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it.skipIf(!findOnPath("bwrap", childBaseEnv().PATH ?? ""))("wraps the host in bubblewrap where it works", async () => {
    const command = await hostCommand(tree, { dataDir: path.join(scratch, "data"), python: "python3" });
    expect(command.sandboxed).toBe(true);
    expect(command.reason).toBeNull();
    expect(path.basename(command.command)).toBe("bwrap");
    const end = command.args.indexOf("--");
    expect(command.args.slice(end + 1, end + 4)).toEqual(["python3", toolhostScript(), "serve"]);
  });

  it("refuses a tree that is not a folder with a sentence", async () => {
    await expect(hostCommand(path.join(scratch, "missing"), { sandbox: false })).rejects.toThrow(/is not a folder/);
  });
});
