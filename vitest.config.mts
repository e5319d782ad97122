// Vitest: unit tests beside the code and integration tests under tests/integration.
import { defineConfig } from "vitest/config";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** Tests beside the code that start a tool host, a PGlite database or a listener: each in a worker of its own. */
const ISOLATED = [
  "db/lock.test.ts",
  "db/turns.test.ts",
  "server/calls/call.test.ts",
  "server/calls/secrets.test.ts",
  "server/host/*.test.ts",
  "server/keys/request.test.ts",
  "server/keys/store.test.ts",
  "server/runtime/events-live.test.ts",
  "server/secrets/resolve.test.ts",
  "server/system/web/request.test.ts",
];

/**
 * Takeovers between studio processes on PostgreSQL: each file mostly waits for a worker's lease to lapse (about 20 %
 * of one core over its time, processes.test.ts measured with /usr/bin/time), so `npm test` runs them in a vitest of
 * their own beside the others instead of holding one of the two workers (R-ops-ci-takeover-lane).
 */
const TAKEOVERS = [
  "tests/integration/runtime/processes.test.ts",
  "tests/integration/runtime/journal-processes.test.ts",
  "tests/integration/telemetry/takeover.test.ts",
];

export default defineConfig({
  resolve: { alias: { "@": path.resolve(__dirname) } },
  test: {
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
    // One migrated embedded database, copied into each new data folder a test opens (R-ops-test-pglite-template).
    globalSetup: ["tests/support/pglite-template.global.ts"],
    setupFiles: ["tests/support/pglite-template.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite and the tool host are heavy to start; two workers suit a 2-core machine.
    maxWorkers: 2,
    projects: [
      // The tests beside the code share their workers' loaded modules: a fresh module graph per file cost these small
      // files most of their time (0.37 of the time without it, measured side by side on the same files). Not the
      // files below, nor any new one that starts a process, a server or a database: what they leave running (a timer
      // of a host call, a socket) would outlive the file in a shared worker and fail whichever file runs next.
      {
        extends: true,
        test: { name: "unit", include: ["components/**/*.test.ts", "server/**/*.test.ts", "db/**/*.test.ts"], exclude: [...ISOLATED, "server/toolhost/**"], isolate: false },
      },
      // Integration tests start studios, databases and processes and set module state: each file keeps a worker of its own.
      { extends: true, test: { name: "integration", include: ["tests/**/*.test.ts", ...ISOLATED], exclude: TAKEOVERS } },
      { extends: true, test: { name: "takeovers", include: TAKEOVERS } },
    ],
  },
});
