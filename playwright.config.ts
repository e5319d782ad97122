// Playwright: end-to-end tests in Debian's Chromium (never a downloaded browser) against the
// production build, started on a free port with a fresh data folder (R-ops-playwright-port).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { adminState, ownerEnv } from "./tests/e2e/support/accounts";
import { chromiumArgs, chromiumPath } from "./tests/e2e/support/browser";
import { makePgliteTemplate, seedDataDir } from "./tests/e2e/support/pglite-template";

// The config is read again by every worker: choose the port and folder once, in the runner,
// and hand them down through the environment the workers inherit.
process.env.QUIVER_E2E_PORT ??= execFileSync(process.execPath, [
  "-e",
  "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
]).toString();
process.env.QUIVER_E2E_DATA ??= fs.mkdtempSync(path.join(os.tmpdir(), "quiver-e2e-"));
// One migrated embedded database that every studio of the tests starts from (R-ops-test-pglite-template).
process.env.QUIVER_E2E_PGLITE_TEMPLATE ??= makePgliteTemplate();
seedDataDir(process.env.QUIVER_E2E_DATA, undefined);
// The tests edit the tree: they get a copy of the studio's own, never the checkout's files. The copy is a tools/
// inside a folder of its own, which stands for the checkout's root (requirements.txt, hooks/ beside the tree).
if (!process.env.QUIVER_E2E_TOOLS) {
  const copy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "quiver-e2e-checkout-")), "tools");
  fs.cpSync("tools", copy, { recursive: true, filter: (src) => !src.includes("__pycache__") });
  process.env.QUIVER_E2E_TOOLS = copy;
}
const port = Number(process.env.QUIVER_E2E_PORT);

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: process.env.CI ? "list" : [["list"], ["html", { open: "never" }]],
  timeout: 60_000,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    launchOptions: { executablePath: chromiumPath(), args: chromiumArgs },
  },
  projects: [
    { name: "setup", testMatch: /auth\.setup\.ts/ },
    {
      name: "chromium",
      dependencies: ["setup"],
      use: { ...devices["Desktop Chrome"], channel: undefined, storageState: adminState },
    },
  ],
  webServer: {
    // What `npm start` serves with: the custom server that stamps each request's socket address (R-req-trusted-proxy).
    command: `node scripts/serve.mjs -p ${port} -H 127.0.0.1`,
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "pipe",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    env: {
      NEXT_TELEMETRY_DISABLED: "1",
      NEXT_MANUAL_SIG_HANDLE: "1",
      QUIVER_DATA_DIR: process.env.QUIVER_E2E_DATA,
      QUIVER_TOOLS_DIR: process.env.QUIVER_E2E_TOOLS,
      ...ownerEnv,
      // The main suite runs on the embedded database; postgres.spec.ts starts its own server.
      DATABASE_URL: "",
    },
  },
});
