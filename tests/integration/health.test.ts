// What /api/health says when the studio could not start: the studio's own start-up sentences as they are, and for
// anything else (a driver's words, say) the error-id sentence, with the details in the log under that id (R-error-id).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, expect, it, vi } from "vitest";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-health-"));
const globals = globalThis as Record<string, unknown>;
const saved = { ...process.env };

afterEach(async () => {
  vi.restoreAllMocks();
  const { closeDatabase } = await import("@/server/db");
  await closeDatabase();
  process.env = { ...saved };
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Starts a studio afresh (its configuration and start-up state forgotten) with `vars`; its health and its log. */
async function startWith(vars: Record<string, string>) {
  vi.resetModules();
  delete globals.__quiverDb;
  delete globals.__quiverStartup;
  Object.assign(process.env, { QUIVER_DATA_DIR: path.join(dir, "data"), DATABASE_URL: "" }, vars);
  const lines: string[] = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" ")));
  const { startStudio } = await import("@/server/startup");
  const { GET } = await import("@/app/api/health/route");
  await startStudio();
  const health = async () => {
    const answer = await GET();
    return { status: answer.status, error: ((await answer.json()) as { error?: string }).error ?? "" };
  };
  const first = await health();
  await new Promise((resolve) => setTimeout(resolve, 200));
  return { ...first, health, log: () => lines.join("\n") };
}

it("answers a database that did not open with the error-id sentence, never the driver's words", async () => {
  const started = await startWith({ DATABASE_URL: "postgres://nobody:wrong@127.0.0.1:9/none" });
  expect(started.status).toBe(503);
  const id = /error id ([0-9a-f]{12})/.exec(started.error)?.[1];
  expect(started.error).toBe(`Something went wrong on the server; error id ${id}; the server log has the details.`);
  expect(started.error).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
  // The log has the details under the id, once, however often the health route is asked.
  expect(started.log()).toMatch(new RegExp(`error ${id} in start-up:[\\s\\S]*ECONNREFUSED`));
  expect((await started.health()).error).toBe(started.error);
  expect(started.log().match(/\[quiver\] error [0-9a-f]{12}/g)).toHaveLength(1);
});

it("keeps the studio's own sentence for a second studio on a live data folder", async () => {
  const { openDatabase } = await import("@/db/client");
  const first = await openDatabase({ dataDir: path.join(dir, "live") });
  try {
    const started = await startWith({ QUIVER_DATA_DIR: path.join(dir, "live") });
    expect(started.status).toBe(503);
    expect(started.error).toMatch(/^The data folder .* is in use by another Quiver process \(pid \d+\)\. Stop that process/);
  } finally {
    await first.close();
  }
});

it("keeps the studio's own sentence for a configuration that is not valid", async () => {
  const started = await startWith({ QUIVER_TRUSTED_PROXIES: "not-an-address" });
  expect(started.status).toBe(503);
  expect(started.error).toMatch(/^Quiver's configuration is invalid: QUIVER_TRUSTED_PROXIES: QUIVER_TRUSTED_PROXIES must list IP addresses/);
});
