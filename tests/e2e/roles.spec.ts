// The built studio's roles on PostgreSQL (R-queue-role): a worker process answers only /api/health and /api/metrics, and a process
// whose QUIVER_SECRET_KEY is not the studio's refuses to start and says so on /api/health and in its log.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { parseEnv } from "@/server/env";
import { startStudio } from "./support/studio-process";

const databaseUrl = parseEnv(process.env).databaseUrl;

test.skip(!databaseUrl, "set DATABASE_URL to a PostgreSQL database to test the roles of several processes");

test.use({ storageState: { cookies: [], origins: [] } });

/** The key every run against the shared test database uses (tests/e2e/postgres.spec.ts). */
const KEY = "c".repeat(64);

test("R-queue-role: a worker process answers its health and its metrics and nothing else, in a sentence", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-worker-"));
  const studio = await startStudio({ QUIVER_DATA_DIR: dataDir, DATABASE_URL: databaseUrl!, QUIVER_SECRET_KEY: KEY, QUIVER_ROLE: "worker" });
  try {
    expect(await (await fetch(`${studio.url}/api/health`)).json()).toEqual({ ok: true, db: "postgres" });
    for (const address of ["/", "/runs", "/api/v1/openapi.json"]) {
      const res = await fetch(`${studio.url}${address}`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { message: string }).message).toMatch(/is a worker \(QUIVER_ROLE=worker\): it drives runs and answers only \/api\/health/);
    }
    // Its metrics are counted where its runs are driven, so it answers them too, to a credential only (R-metrics-process).
    const metrics = await fetch(`${studio.url}/api/metrics`);
    expect(metrics.status).toBe(401);
    expect(((await metrics.json()) as { error: { code: string } }).error.code).toBe("NO_CREDENTIAL");
    // The start-up line comes once the database is ready, which /api/health need not wait for.
    await expect.poll(() => studio.output(), { timeout: 15_000 }).toMatch(/role worker/);
  } finally {
    expect(await studio.stop()).toBe(0);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test("R-queue-role: a process with another studio key refuses to start, saying which variable to fix", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-wrong-key-"));
  const studio = await startStudio({ QUIVER_DATA_DIR: dataDir, DATABASE_URL: databaseUrl!, QUIVER_SECRET_KEY: "d".repeat(64), QUIVER_ROLE: "worker" });
  try {
    const res = await fetch(`${studio.url}/api/health`);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: string }).error).toMatch(/^QUIVER_SECRET_KEY is not the key this studio's secrets were encrypted with/);
    expect(studio.output()).toMatch(/start-up failed: QUIVER_SECRET_KEY is not the key/);
  } finally {
    await studio.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
