// R-save-compare-and-write for agents: two saves of one agent from the same version, at the same moment, make one
// new version and refuse the other as stale, on the embedded database and across two studio processes' connections
// to one PostgreSQL (when DATABASE_URL is given; skipped otherwise).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type Database, type Db } from "@/db/client";
import { agents, audit } from "@/db/schema";
import { agentHistory, createAgent, saveAgent, type Place } from "@/server/agents/store";
import { parseEnv } from "@/server/env";
import { ONE_SAVED_ONE_REFUSED, tally } from "./race";

const ROUNDS = 30;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-saving-agents-"));
// No tree: the agents use built-in sources only, so no tool host starts.
const place: Place = { tree: path.join(scratch, "no-tree"), workspace: path.join(scratch, "workspace") };
const declaration = (name: string, instructions: string) => ({
  name,
  instructions,
  model: { provider: "openai-compatible", model: "m", base_url: "http://127.0.0.1:9/v1" },
  tools: [{ entry: "system:web" }],
});

afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Rounds of two saves from the version the round starts at, the first through `a`, the second through `b`. */
async function race(a: Db, b: Db, actor: string): Promise<{ outcomes: string[]; id: string }> {
  const name = `race ${randomUUID().slice(0, 8)}`;
  const { id } = await createAgent(a, actor, declaration(name, "Round 0."), place);
  const outcomes: string[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const texts: [string, string] = [`A in round ${round}.`, `B in round ${round}.`];
    const baseVersion = round;
    const results = await Promise.allSettled(
      [a, b].map((db, i) => saveAgent(db, actor, { id, baseVersion, declaration: declaration(name, texts[i]!) }, place)),
    );
    const statuses = results.map((r) => (r.status === "fulfilled" ? 200 : (r.reason as { reason?: string }).reason === "STALE_VERSION" ? 409 : 500));
    const [latest] = await agentHistory(a, id);
    const ok = texts.filter((_, i) => statuses[i] === 200);
    const kept = latest!.version === round + 1 && ok.length === 1 && latest!.declaration.instructions === ok[0];
    outcomes.push(kept && statuses.includes(409) ? ONE_SAVED_ONE_REFUSED : `answered ${statuses.join(" and ")}, now at version ${latest!.version}`);
  }
  return { outcomes, id };
}

describe("R-save-compare-and-write: two saves of one agent from the same version", () => {
  it(`make one new version and refuse the other as stale, on the embedded database (${ROUNDS} rounds)`, { timeout: 120_000 }, async () => {
    const database = await openDatabase({ dataDir: path.join(scratch, "data") });
    try {
      const { outcomes } = await race(database.db, database.db, "user-racer");
      expect(tally(outcomes)).toEqual({ [ONE_SAVED_ONE_REFUSED]: ROUNDS });
    } finally {
      await database.close();
    }
  });

  const databaseUrl = parseEnv({ DATABASE_URL: process.env.QUIVER_TEST_DATABASE_URL }).databaseUrl;
  it.skipIf(!databaseUrl)(
    `make one new version and refuse the other across two processes' connections to PostgreSQL (${ROUNDS} rounds)${databaseUrl ? "" : " (skipped: no DATABASE_URL)"}`,
    { timeout: 120_000 },
    async () => {
      const sides: Database[] = [];
      const actor = `user-racer-${randomUUID().slice(0, 8)}`;
      let id: string | undefined;
      try {
        for (const side of ["a", "b"]) sides.push(await openDatabase({ databaseUrl, dataDir: path.join(scratch, `pg-${side}`) }));
        const result = await race(sides[0]!.db, sides[1]!.db, actor);
        id = result.id;
        expect(tally(result.outcomes)).toEqual({ [ONE_SAVED_ONE_REFUSED]: ROUNDS });
      } finally {
        // The shared database outlives this file: what was made here goes.
        const db = sides[0]?.db;
        if (db && id) await db.delete(agents).where(inArray(agents.id, [id]));
        if (db) await db.delete(audit).where(eq(audit.actor, actor));
        for (const side of sides) await side.close();
      }
    },
  );
});
