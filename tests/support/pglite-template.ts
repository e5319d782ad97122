// Every test file's embedded databases start from the template tests/support/pglite-template.global.ts migrated once:
// a new data folder gets a copy of it before the studio's own openDatabase opens it, which then finds the schema
// up to date, as it does on a studio's every start after its first (R-ops-test-pglite-template). Not for a folder
// that already holds a database, a database on PostgreSQL, migrations of a test's own, or the files that test the
// migrations of a new folder themselves (FRESH_MIGRATIONS).
import fs from "node:fs";
import path from "node:path";
import { expect, inject, vi } from "vitest";

/** Test files about what a new folder's first start does: they migrate it as a studio would. */
const FRESH_MIGRATIONS = ["tests/integration/db.test.ts"];

vi.mock("@/db/client", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/db/client")>();
  const testPath = expect.getState().testPath ?? "";
  if (FRESH_MIGRATIONS.some((file) => testPath.endsWith(file))) return actual;
  const template = inject("pgliteTemplate");
  return {
    ...actual,
    openDatabase: async (options: Parameters<typeof actual.openDatabase>[0]) => {
      const folder = path.join(options.dataDir, "db");
      if (!options.databaseUrl && !options.migrationsDir && !fs.existsSync(folder)) fs.cpSync(template, folder, { recursive: true });
      // The module as it is now, not as it was when this mock was made: vi.resetModules renews the modules it imports
      // (the lock's error class a start-up checks for) but never a mock.
      const current = await vi.importActual<typeof import("@/db/client")>("@/db/client");
      return current.openDatabase(options);
    },
  };
});
