// A published version on this process's disk: written once from the database into `<dataDir>/versions/<n>/`
// (its tool files under tools/, its project files beside it, as in a checkout), with a tool host of its own,
// of which only the few most recently used keep running (R-version-materialise). Edit when a version's folder
// or the hosts kept for versions change.
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { Db } from "@/db/client";
import { DomainError } from "@/server/errors";
import { hostFor, installDeps, type HostOptions } from "@/server/host";
import { DEPENDENCY_FILES, isProjectFile } from "./project-names";
import { readStoredVersion } from "./versions";

/** Hosts of versions kept running at once: the newest runs' and a few older ones still finishing. */
export const KEPT_HOSTS = 3;
/** A version's host that no run has begun or taken with for this long is stopped; the next use starts it again. */
export const IDLE_MS = 10 * 60_000;

/** The folder holding version `n`'s tree, `<dataDir>/versions/<n>/tools`. */
export function versionTree(dataDir: string, n: number): string {
  return path.join(path.resolve(dataDir), "versions", String(n), "tools");
}

/** Where a stored file goes: a tool file under tools/, a project file at the root; any other name is refused. */
function placed(root: string, name: string): string {
  if (isProjectFile(name)) return path.join(root, name);
  if (/^[A-Za-z0-9_][A-Za-z0-9_.-]*\.py$/.test(name)) return path.join(root, "tools", name);
  throw new Error(`the stored version holds “${name}”, which is neither a tool file nor a project file`);
}

async function write(db: Db, dataDir: string, n: number, options: HostOptions): Promise<string> {
  const tree = versionTree(dataDir, n);
  const root = path.dirname(tree);
  if (existsSync(root)) return tree;
  const version = await readStoredVersion(db, n);
  if (!version) throw new DomainError("NOT_FOUND", "NO_SUCH_VERSION", `Version ${n} of the tree is not in the database: publish the tree again, then start the run again.`);
  // Written aside and renamed into place whole, so a folder under the version's name is always complete.
  const aside = `${root}.${process.pid}.${Date.now()}`;
  await fs.mkdir(path.join(aside, "tools"), { recursive: true, mode: 0o700 });
  try {
    for (const [name, text] of Object.entries(version.files)) {
      const file = placed(aside, name);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, text, { mode: 0o600 });
    }
    await fs.rename(aside, root);
  } catch (error) {
    await fs.rm(aside, { recursive: true, force: true });
    if (!existsSync(root)) throw error;
  }
  // Its dependencies install before its host first serves, as a checkout's do (R-host-deps).
  if (DEPENDENCY_FILES.some((name) => name in version.files)) await installDeps(tree, { ...options, dataDir });
  return tree;
}

type Kept = { tree: string; usedAt: number };

/** One process's versions: each written once, its host's use noted, the hosts of idle versions stopped. */
export class Versions {
  private readonly writing = new Map<number, Promise<string>>();
  private readonly used = new Map<number, Kept>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: { db: Db; dataDir: string; host?: HostOptions; now?: () => number }) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** Version `n`'s tree folder on this process's disk, written there on first use; its host noted as in use. */
  async tree(n: number): Promise<string> {
    let writing = this.writing.get(n);
    if (!writing) {
      writing = write(this.options.db, this.options.dataDir, n, this.options.host ?? {});
      this.writing.set(n, writing);
      writing.catch(() => this.writing.delete(n));
    }
    const tree = await writing;
    this.used.set(n, { tree, usedAt: this.now() });
    this.timer ??= setInterval(() => void this.stopIdle(), 60_000);
    this.timer.unref();
    await this.stopIdle();
    return tree;
  }

  /** The versions whose hosts may be running, newest use first. */
  kept(): number[] {
    return [...this.used.entries()].sort((a, b) => b[1].usedAt - a[1].usedAt).map(([n]) => n);
  }

  /** Stop the hosts of versions beyond the most recently used few, and of any idle too long. */
  async stopIdle(): Promise<void> {
    const now = this.now();
    const order = this.kept();
    const stale = order.filter((n, i) => i >= KEPT_HOSTS || now - this.used.get(n)!.usedAt > IDLE_MS);
    await Promise.all(
      stale.map(async (n) => {
        const kept = this.used.get(n)!;
        this.used.delete(n);
        await hostFor(kept.tree, this.options.host).restart();
      }),
    );
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
