// A studio key that does not match the secrets is a start-up error /api/health reports with its sentence.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { closeDatabase } from "@/server/db";
import { checkKey } from "@/server/secrets/key";
import { startStudio } from "@/server/startup";
import { GET } from "@/app/api/health/route";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-startup-"));
afterAll(async () => {
  await closeDatabase();
  fs.rmSync(dir, { recursive: true, force: true });
});

it("reports a studio key that does not match the secrets as a start-up error in /api/health", async () => {
  const first = await openDatabase({ dataDir: dir });
  await checkKey(first.db, randomBytes(32), "env");
  await first.close();

  process.env.QUIVER_DATA_DIR = dir;
  // This studio's embedded database, even where CI exports a PostgreSQL URL for other tests.
  process.env.DATABASE_URL = "";
  process.env.QUIVER_SECRET_KEY = randomBytes(32).toString("base64");
  await startStudio();
  const answer = await GET();
  expect(answer.status).toBe(503);
  expect(await answer.json()).toEqual({
    ok: false,
    error: "QUIVER_SECRET_KEY is not the key this studio's secrets were encrypted with: set it to the original key. The secrets are kept, unread, until then.",
  });
});
