// A run's live events for the caller that has just started it (EventLog.live): listening from the call itself, so
// what is published before the reader first asks is kept, in order, stored events and deltas alike, with no read
// of the table; and a reader that never starts stops listening with its signal.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/db/client";
import { agents, runs } from "@/db/schema";
import { EventLog } from "./events";

let dir: string;
let database: Database;
let runId: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-events-live-"));
  database = await openDatabase({ dataDir: dir });
  const [agent] = await database.db.insert(agents).values({ name: "Live", declaration: { name: "Live" }, createdBy: "u", updatedBy: "u" }).returning({ id: agents.id });
  const [run] = await database.db.insert(runs).values({ agentId: agent!.id, agentVersion: 1, declaration: { name: "Live" }, startedBy: "u" }).returning({ id: runs.id });
  runId = run!.id;
});
afterAll(async () => {
  await database?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("live events of a run just started", () => {
  it("keeps what is published between the call and the first read, stored events and deltas in order", async () => {
    const log = new EventLog(database.db);
    const stop = new AbortController();
    const live = log.live(runId, stop.signal);
    await log.append(runId, "run_started", { n: 1 });
    log.ephemeral(runId, "delta", { text: "Hel" });
    log.ephemeral(runId, "delta", { text: "lo" });
    await log.append(runId, "status", { status: "done" });

    const seen: string[] = [];
    for await (const event of live) {
      seen.push(event.type === "delta" ? `delta ${String(event.data.text)}` : event.type);
      if (event.type === "status") break;
    }
    expect(seen).toEqual(["run_started", "delta Hel", "delta lo", "status"]);
  });

  it("stops listening when its signal aborts, even for a reader that never started", async () => {
    const log = new EventLog(database.db);
    const stop = new AbortController();
    log.live(runId, stop.signal);
    const listeners = (log as unknown as { listeners: Map<string, Set<unknown>> }).listeners;
    expect(listeners.get(runId)?.size).toBe(1);
    stop.abort();
    expect(listeners.has(runId)).toBe(false);
  });
});
