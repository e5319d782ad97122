// How each run started (R-key-via): the playground unless told otherwise, a key's run named by the key as it was
// (still read after the key is revoked), and the list filtered by it.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runs } from "@/db/schema";
import { createKey, revokeKey } from "@/server/keys/store";
import { text } from "@/tests/support/loopback-model";
import { ANN, settled, studio, type Studio } from "./setup";

let s: Studio;
let agentId: string;
beforeAll(async () => {
  s = await studio("via", {});
  agentId = await s.agent({ tools: [] });
});
afterAll(async () => s?.close());

describe("how a run started", () => {
  it("is the playground when nothing says otherwise", async () => {
    s.model.reply(text("Hello."));
    const run = await settled(s, (await s.runtime.start({ agentId, message: "Hi.", user: ANN })).runId);
    expect(run).toMatchObject({ via: "playground", viaKeyId: null, viaKeyName: null, startedByName: "Ann" });
  });

  it("names the key a run came through, as it was, after the key is revoked too", async () => {
    const { key } = await createKey(s.database.db, ANN.id, { name: "ci-bot", agents: [agentId], scopes: ["run"] });
    s.model.reply(text("Hello, program."));
    const who = { id: `key:${key.id}`, name: "API key ci-bot" };
    const { runId } = await s.runtime.start({ agentId, message: "Hi.", user: who, via: { kind: "api", keyId: key.id, keyName: key.name } });
    await settled(s, runId);
    await revokeKey(s.database.db, ANN.id, key.id);
    const [row] = await s.database.db.select().from(runs).where(eq(runs.id, runId));
    expect(row).toMatchObject({ via: "api", viaKeyId: key.id, viaKeyName: "ci-bot", startedBy: who.id });
    expect((await s.runtime.get(runId)).run).toMatchObject({ via: "api", viaKeyName: "ci-bot", startedByName: "API key ci-bot" });
  });

  it("filters the list by it", async () => {
    s.model.reply(text("Tick."));
    const scheduled = await settled(s, (await s.runtime.start({ agentId, message: "Tick.", user: ANN, via: { kind: "schedule" } })).runId);
    const listed = await s.runtime.list({ via: "schedule" });
    expect(listed.map((run) => run.id)).toEqual([scheduled.id]);
    expect((await s.runtime.list({ via: "api" })).map((run) => run.viaKeyName)).toEqual(["ci-bot"]);
    expect((await s.runtime.list({ via: "playground" })).every((run) => run.via === "playground")).toBe(true);
    expect(await s.runtime.list({ via: "webhook" })).toEqual([]);
  });
});
