// Vitest: unit tests beside the code and integration tests under tests/integration.
import { defineConfig } from "vitest/config";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(__dirname) } },
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", ".next/**", "tests/e2e/**"],
    environment: "node",
    // Tests open their own databases. A PostgreSQL given in DATABASE_URL is for the tests written for it
    // (tests/integration/db.test.ts), handed over under another name so no other test writes to it.
    // A test that starts a tool host without naming a data folder gets a scratch one, never `.quiver/` in the
    // checkout: tests must not write into the repository.
    env: {
      DATABASE_URL: "",
      QUIVER_TEST_DATABASE_URL: process.env.DATABASE_URL ?? "",
      QUIVER_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "quiver-vitest-")),
    },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite and the tool host are heavy to start; two workers suit a 2-core machine.
    maxWorkers: 2,
  },
});
