// The end-to-end tests' studios on the embedded database start from one migrated folder, copied into each new data
// folder before the studio opens it (R-ops-test-pglite-template): playwright.config.ts makes it once, in the runner.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** Migrates a folder with the studio's own openDatabase, in a process of its own (the config cannot wait for it). */
export function makePgliteTemplate(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-e2e-pglite-template-"));
  execFileSync(process.execPath, ["--import", "tsx", path.join("tests", "e2e", "support", "migrate-folder.ts"), dir], { stdio: "inherit" });
  return path.join(dir, "db");
}

/** Copies the template into `dataDir` when the studio would open a new embedded database there. */
export function seedDataDir(dataDir: string, databaseUrl: string | undefined): void {
  const template = process.env.QUIVER_E2E_PGLITE_TEMPLATE;
  const folder = path.join(dataDir, "db");
  if (template && !databaseUrl && !fs.existsSync(folder)) fs.cpSync(template, folder, { recursive: true });
}
