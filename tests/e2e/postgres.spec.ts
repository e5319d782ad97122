// The scale path: the same build, pointed at PostgreSQL, migrates it and says so.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { parseEnv } from "@/server/env";
import { admin, ownerEnv, signIn } from "./support/accounts";
import { startStudio } from "./support/studio-process";

const databaseUrl = parseEnv(process.env).databaseUrl;

test.skip(!databaseUrl, "set DATABASE_URL to a PostgreSQL database to test the PostgreSQL path");

test.use({ storageState: { cookies: [], origins: [] } });

test("with DATABASE_URL the built studio migrates PostgreSQL and /api/health says postgres", async ({ page }) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-pg-"));
  // One studio key for every run against this database: its secrets (and its key check) outlive the data folder.
  const studio = await startStudio({
    QUIVER_DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl!,
    QUIVER_SECRET_KEY: "c".repeat(64),
    ...ownerEnv,
  });
  try {
    expect(await (await fetch(`${studio.url}/api/health`)).json()).toEqual({ ok: true, db: "postgres" });
    await signIn(page, admin, studio.url);
    await page.goto(`${studio.url}/tools`);
    await expect(page.getByRole("cell", { name: "notes.py", exact: true })).toBeVisible();
    // The embedded database was never opened.
    expect(fs.existsSync(path.join(dataDir, "db"))).toBe(false);
  } finally {
    await studio.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
