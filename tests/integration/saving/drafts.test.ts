// R-save-draft-kept: a save drops the draft it was made from, never edits kept while it ran; two tabs keeping a
// draft at once store one of them whole (on the embedded database, and across two connections to PostgreSQL when
// DATABASE_URL is given).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database, type Db } from "@/db/client";
import { drafts } from "@/db/schema";
import { closeDatabase, getDb } from "@/server/db";
import { parseEnv } from "@/server/env";
import { getDraft, putDraft } from "@/server/tree/drafts";
import { createCallerFactory } from "@/server/trpc/init";
import { toolFilesRouter } from "@/server/trpc/routers/tool-files";
import { startRound } from "./race";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-saving-drafts-"));
const tree = path.join(scratch, "tools");
fs.mkdirSync(tree);
process.env.QUIVER_DATA_DIR = path.join(scratch, "data");
process.env.QUIVER_TOOLS_DIR = tree;

const dev = { id: "dev-drafts", email: "dev@quiver.test", name: "Dev", role: "developer" as const };
const caller = createCallerFactory(toolFilesRouter)({ headers: new Headers(), user: dev });
let db: Db;

beforeAll(async () => {
  db = await getDb();
});
afterAll(async () => {
  await closeDatabase();
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** Holds the file's lock as another studio process would, so a save waits until `release`. */
function holdLock(name: string): { release: () => void } {
  const lock = path.join(tree, `.${name}.lock`);
  fs.mkdirSync(lock);
  return { release: () => fs.rmdirSync(lock) };
}

describe("R-save-draft-kept: a save drops only the draft it was made from", () => {
  it("drops the draft holding the text it saved", { timeout: 30_000 }, async () => {
    const { baseHash, sources } = startRound(tree, "plain.py", 0);
    await caller.putDraft({ path: "plain.py", source: sources[0], baseHash });
    await caller.save({ path: "plain.py", source: sources[0], baseHash });
    expect(await getDraft(db, dev.id, "plain.py")).toBeNull();
  });

  it("drops the draft it started from, though that draft held older text", { timeout: 30_000 }, async () => {
    const { baseHash, sources } = startRound(tree, "older.py", 0);
    await caller.putDraft({ path: "older.py", source: "half of the edit", baseHash });
    await caller.save({ path: "older.py", source: sources[0], baseHash });
    expect(await getDraft(db, dev.id, "older.py")).toBeNull();
  });

  it("keeps edits kept while the save was under way, for the next reload", { timeout: 30_000 }, async () => {
    const { baseHash, sources } = startRound(tree, "typing.py", 0);
    await caller.putDraft({ path: "typing.py", source: "an older buffer", baseHash });
    const lock = holdLock("typing.py");
    const saving = caller.save({ path: "typing.py", source: sources[0], baseHash });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const typedOn = `${sources[0]}# typed after pressing save\n`;
    await caller.putDraft({ path: "typing.py", source: typedOn, baseHash });
    lock.release();
    await saving;
    expect(await getDraft(db, dev.id, "typing.py")).toMatchObject({ source: typedOn, baseHash });
  });

  it("drops a draft of the saved text kept while the save was under way", { timeout: 30_000 }, async () => {
    const { baseHash, sources } = startRound(tree, "echo.py", 0);
    const lock = holdLock("echo.py");
    const saving = caller.save({ path: "echo.py", source: sources[0], baseHash });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await caller.putDraft({ path: "echo.py", source: sources[0], baseHash });
    lock.release();
    await saving;
    expect(await getDraft(db, dev.id, "echo.py")).toBeNull();
  });
});

/** Rounds of two tabs of one person keeping a draft of one file at once, through `a` and `b`. */
async function twoTabs(a: Db, b: Db, userId: string, rounds: number): Promise<string[]> {
  const problems: string[] = [];
  for (let round = 0; round < rounds; round++) {
    const texts = [`tab A, round ${round}`, `tab B, round ${round}`];
    const results = await Promise.allSettled([a, b].map((side, i) => putDraft(side, userId, "tabs.py", texts[i]!, "0".repeat(64))));
    const failed = results.filter((r) => r.status === "rejected");
    const kept = (await getDraft(a, userId, "tabs.py"))?.source;
    if (failed.length > 0) problems.push(`round ${round}: ${String((failed[0] as PromiseRejectedResult).reason)}`);
    else if (!texts.includes(kept ?? "")) problems.push(`round ${round}: kept ${kept}`);
  }
  return problems;
}

describe("R-save-draft-kept: two tabs keeping one file's draft at once", () => {
  it("both answer, and one of the two drafts is kept whole (30 rounds)", { timeout: 60_000 }, async () => {
    expect(await twoTabs(db, db, dev.id, 30)).toEqual([]);
  });

  const databaseUrl = parseEnv({ DATABASE_URL: process.env.QUIVER_TEST_DATABASE_URL }).databaseUrl;
  it.skipIf(!databaseUrl)(
    `both answer across two processes' connections to PostgreSQL (30 rounds)${databaseUrl ? "" : " (skipped: no DATABASE_URL)"}`,
    { timeout: 60_000 },
    async () => {
      const sides: Database[] = [];
      const userId = `dev-tabs-${randomUUID().slice(0, 8)}`;
      try {
        for (const side of ["a", "b"]) sides.push(await openDatabase({ databaseUrl, dataDir: path.join(scratch, `pg-${side}`) }));
        expect(await twoTabs(sides[0]!.db, sides[1]!.db, userId, 30)).toEqual([]);
      } finally {
        // The shared database outlives this file: what was made here goes.
        if (sides[0]) await sides[0].db.delete(drafts).where(eq(drafts.userId, userId));
        for (const side of sides) await side.close();
      }
    },
  );
});
