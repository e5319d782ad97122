// system:memory on the embedded database: facts kept per agent, across runs, in the agent_memory table.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/db/client";
import { call, context, place, type Place } from "./context";

let p: Place;
let database: Database;
beforeAll(async () => {
  p = place("memory");
  database = await openDatabase({ dataDir: p.dataDir });
});
afterAll(async () => {
  await database.close();
  p.cleanup();
});

const agent = (agentId: string = randomUUID()) => context(p, { db: database.db, agentId });

describe("memory", () => {
  it("keeps a value under a key across runs, replaces it, lists and forgets it", async () => {
    const first = agent();
    expect(await call("memory", "memory_set", { key: "customer.tz", value: "Europe/Paris" }, first)).toEqual({ outcome: "ok", text: "Remembered customer.tz." });
    await call("memory", "memory_set", { key: "customer.name", value: "Ada" }, first);
    await call("memory", "memory_set", { key: "other", value: "x" }, first);

    // A later run of the same agent: a new run id, the same agent id.
    const later = { ...agent(first.agentId), runId: randomUUID() };
    expect(await call("memory", "memory_get", { key: "customer.tz" }, later)).toEqual({ outcome: "ok", text: "Europe/Paris" });
    await call("memory", "memory_set", { key: "customer.tz", value: "Asia/Tokyo" }, later);
    expect((await call("memory", "memory_get", { key: "customer.tz" }, later)).text).toBe("Asia/Tokyo");
    expect((await call("memory", "memory_list", { prefix: "customer." }, later)).text).toBe("customer.name\ncustomer.tz");
    expect((await call("memory", "memory_list", {}, later)).text).toBe("customer.name\ncustomer.tz\nother");

    expect((await call("memory", "memory_delete", { key: "customer.tz" }, later)).text).toBe("Forgot customer.tz.");
    expect((await call("memory", "memory_delete", { key: "customer.tz" }, later)).outcome).toBe("ok");
    const missing = await call("memory", "memory_get", { key: "customer.tz" }, later);
    expect(missing.outcome).toBe("failed");
    expect(missing.text).toContain("keys that exist include customer.name, other");
  });

  it("shares nothing between agents", async () => {
    await call("memory", "memory_set", { key: "secret", value: "mine" }, agent());
    const stranger = agent();
    expect((await call("memory", "memory_get", { key: "secret" }, stranger)).outcome).toBe("failed");
    expect((await call("memory", "memory_list", {}, stranger)).text).toBe("Nothing is remembered yet.");
  });

  it("refuses a value over 10,000 characters", async () => {
    const result = await call("memory", "memory_set", { key: "big", value: "x".repeat(10_001) }, agent());
    expect(result).toMatchObject({ outcome: "refused", text: expect.stringContaining("over the 10,000") });
  });

  it("takes a prefix literally, % and _ included", async () => {
    const a = agent();
    for (const key of ["a%b", "axb", "a_c"]) await call("memory", "memory_set", { key, value: "v" }, a);
    expect((await call("memory", "memory_list", { prefix: "a%" }, a)).text).toBe("a%b");
    expect((await call("memory", "memory_list", { prefix: "a_" }, a)).text).toBe("a_c");
  });
});
