// What the tool host's integration tests share: throwaway trees and data folders, the CLI, waiting for a condition.
// Edit when a test needs a new kind of fixture; the tool files themselves stay in each test.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { findOnPath, probeSandbox } from "@/server/host/sandbox";
import { childBaseEnv } from "@/server/env";

export const ROOT = path.resolve(__dirname, "..", "..", "..");
export const QUIVER_BIN = path.join(ROOT, "bin", "quiver.mjs");

/** A scratch folder for one test file, with a data folder and a way to make trees in it. */
export function scratch(name: string) {
  const dir = mkdtempSync(path.join(tmpdir(), `quiver-${name}-`));
  const dataDir = path.join(dir, "data");
  mkdirSync(dataDir);
  return {
    dir,
    dataDir,
    /** A tree folder holding the given files (name → Python source). */
    tree(treeName: string, files: Record<string, string>): string {
      const tree = path.join(dir, treeName);
      mkdirSync(tree, { recursive: true });
      for (const [file, source] of Object.entries(files)) writeFileSync(path.join(tree, file), source);
      return tree;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Rewrite a file and move its mtime forward, so the host sees a change even within the same second. */
export function rewrite(file: string, source: string, secondsAhead = 2) {
  writeFileSync(file, source);
  const when = Date.now() / 1000 + secondsAhead;
  utimesSync(file, when, when);
}

export async function waitFor(check: () => boolean, ms = 10_000, what = "the condition"): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Whether bubblewrap works here; the reason is printed by the tests that skip without it. */
export const sandboxProbe = await probeSandbox(childBaseEnv().PATH ?? "");
export const hasBwrap = sandboxProbe.bwrap !== null && findOnPath("bwrap", childBaseEnv().PATH ?? "") !== null;

export type Run = { code: number | null; stdout: string; stderr: string };

/** Run `quiver ...` as a user would, with the studio's data folder pointed at `dataDir`. */
export function quiver(args: string[], options: { dataDir: string; env?: Record<string, string>; cwd?: string }): Promise<Run> {
  const env = { ...childBaseEnv(), QUIVER_DATA_DIR: options.dataDir, ...options.env } as Record<string, string>;
  return new Promise((resolve) => {
    execFile(process.execPath, [QUIVER_BIN, ...args], { cwd: options.cwd ?? tmpdir(), env: env as NodeJS.ProcessEnv, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

export const toolhostReady = existsSync(path.join(ROOT, "server", "toolhost", "run.py"));
