// Starting and stopping the built studio: what was stored survives, and the data folder is guarded.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { desc, eq } from "drizzle-orm";
import { openDatabase } from "@/db/client";
import { audit } from "@/db/schema";
import { startStudio } from "./support/studio-process";

test.use({ storageState: { cookies: [], origins: [] } });

test("a restarted studio keeps what it stored, and a clean stop releases the data folder", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-restart-"));
  for (let start = 0; start < 2; start++) {
    const studio = await startStudio({ QUIVER_DATA_DIR: dataDir, DATABASE_URL: "" });
    let exit: number | null;
    try {
      const health = await fetch(`${studio.url}/api/health`);
      expect(await health.json()).toEqual({ ok: true, db: "pglite" });
      // R-boot-built-config: served with the configuration the build resolved, which it honours, never loading
      // next.config.mjs again.
      expect(health.headers.get("x-powered-by")).toBeNull();
      expect(studio.output()).not.toMatch(/next\.config\.mjs/);
    } finally {
      // Stopped even when a check fails, so a failed test leaves no studio running after the suite.
      exit = await studio.stop();
    }
    expect(exit).toBe(0);
    expect(fs.existsSync(path.join(dataDir, "quiver.lock"))).toBe(false);
  }
  const database = await openDatabase({ dataDir });
  const starts = await database.db.select().from(audit).where(eq(audit.action, "studio.started")).orderBy(desc(audit.at));
  await database.close();
  expect(starts).toHaveLength(2);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test("a second studio on a live data folder refuses to open it and says why", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-locked-"));
  const first = await startStudio({ QUIVER_DATA_DIR: dataDir, DATABASE_URL: "" });
  try {
    const second = await startStudio({ QUIVER_DATA_DIR: dataDir, DATABASE_URL: "" });
    try {
      const res = await fetch(`${second.url}/api/health`);
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: string }).error).toMatch(/in use by another Quiver process/);
      expect(second.output()).toMatch(/in use by another Quiver process/);
    } finally {
      await second.stop();
    }
    expect((await (await fetch(`${first.url}/api/health`)).json()).ok).toBe(true);
  } finally {
    await first.stop();
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test("R-auth-anonymous-light: the pages a visitor meets first hold none of better-auth's code in their server bundle", () => {
  // Each built page lists the chunks its server code loads with it; better-auth and jose come only when asked, but
  // for the cookie parser the page looks for a session cookie with.
  for (const page of ["page", "sign-in/page", "setup/page"]) {
    const file = path.join(__dirname, "..", "..", ".next", "server", "app", `${page}.js`);
    const chunks = fs.readFileSync(file, "utf8").match(/"[^"]+\.js"/g) ?? [];
    expect(chunks.length, page).toBeGreaterThan(3);
    expect(chunks.filter((c) => /better-auth|jose/.test(c) && !/cookies_cookie-utils/.test(c)), page).toEqual([]);
  }
});
