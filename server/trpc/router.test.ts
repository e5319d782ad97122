// The API's router loads a domain's code on the first call of one of its procedures (R-boot-routers-lazy).
import { describe, expect, it } from "vitest";
import { createCallerFactory } from "./init";
import { appRouter } from "./router";

const DOMAINS = ["account", "agents", "apiKeys", "audit", "mcpServers", "models", "runs", "secrets", "start", "tools", "triggers", "useFromCode", "users"];

describe("R-boot-routers-lazy", () => {
  it("holds every domain unloaded until one of its procedures is called, then only that domain", async () => {
    expect(Object.keys(appRouter._def.lazy).sort()).toEqual([...DOMAINS].sort());
    expect(Object.keys(appRouter._def.procedures)).toEqual([]);

    // A signed-out call of an admin's procedure: found (refused for want of a session, not NOT_FOUND), with no database.
    const caller = createCallerFactory(appRouter)({ headers: new Headers(), user: null });
    await expect(caller.users.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const loaded = new Set(Object.keys(appRouter._def.procedures).map((path) => path.split(".")[0]));
    expect([...loaded]).toEqual(["users"]);
  });
});
