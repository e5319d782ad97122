// Migrates one embedded database before any test file runs, for tests/support/pglite-template.ts to copy into each
// new data folder: a fresh PGlite folder's initdb and migrations cost a test file seconds, a copy a fraction of one
// (R-ops-test-pglite-template).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "@/db/client";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-pglite-template-"));
  const database = await openDatabase({ dataDir: dir });
  await database.close();
  project.provide("pgliteTemplate", path.join(dir, "db"));
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
