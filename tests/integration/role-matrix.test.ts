// The role matrix: every tRPC procedure, called as nobody, a builder, a developer and an admin, is
// allowed or refused exactly as declared here. A procedure with no row fails the first test.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { TRPCError } from "@trpc/server";
import { afterAll, describe, expect, it } from "vitest";
import type { Role } from "@/db/schema";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-roles-"));
fs.mkdirSync(path.join(scratch, "tools"));
// Before anything reads the configuration: this test's own data folder and an empty tree.
process.env.QUIVER_DATA_DIR = path.join(scratch, "data");
process.env.QUIVER_TOOLS_DIR = path.join(scratch, "tools");
process.env.DATABASE_URL = "";

type Needs = Role | "anyone";

const matrix: Record<string, Needs> = {
  "account.me": "anyone",
  "account.createOwner": "anyone",
  "account.preferences": "builder",
  "account.setTheme": "builder",
  "agents.list": "builder",
  "agents.get": "builder",
  "agents.versions": "builder",
  "agents.create": "builder",
  "agents.save": "builder",
  "agents.duplicate": "builder",
  "agents.remove": "builder",
  "agents.export": "builder",
  "agents.import": "builder",
  "agents.sources": "builder",
  "agents.search": "builder",
  "agents.modelView": "builder",
  "agents.validate": "builder",
  "agents.acceptToolChange": "builder",
  "agents.toolChanges": "builder",
  "apiKeys.list": "admin",
  "apiKeys.create": "admin",
  "apiKeys.revoke": "admin",
  "audit.list": "admin",
  "mcpServers.list": "admin",
  "mcpServers.get": "admin",
  "mcpServers.names": "builder",
  "mcpServers.tools": "builder",
  "mcpServers.create": "admin",
  "mcpServers.update": "admin",
  "mcpServers.remove": "admin",
  "mcpServers.import": "admin",
  "mcpServers.test": "admin",
  "mcpServers.restart": "admin",
  "mcpServers.try": "admin",
  "mcpServers.connect": "admin",
  "mcpServers.disconnect": "admin",
  "models.list": "builder",
  "models.offered": "builder",
  "models.create": "admin",
  "models.update": "admin",
  "models.remove": "admin",
  "models.prices": "admin",
  "models.test": "admin",
  "models.inline": "admin",
  "models.adopt": "admin",
  "runs.start": "builder",
  "runs.send": "builder",
  "runs.cancel": "builder",
  "runs.decide": "builder",
  "runs.answer": "builder",
  "runs.recover": "builder",
  "runs.events": "builder",
  "runs.changes": "builder",
  "runs.list": "builder",
  "runs.get": "builder",
  "runs.totals": "builder",
  "useFromCode.get": "builder",
  "triggers.webhook": "builder",
  "triggers.createWebhook": "builder",
  "triggers.rotateWebhook": "builder",
  "triggers.setWebhookTemplate": "builder",
  "triggers.removeWebhook": "builder",
  "triggers.schedules": "builder",
  "triggers.preview": "builder",
  "triggers.createSchedule": "builder",
  "triggers.updateSchedule": "builder",
  "triggers.removeSchedule": "builder",
  "users.list": "admin",
  "users.create": "admin",
  "users.setRole": "admin",
  "users.setDisabled": "admin",
  "secrets.list": "admin",
  "secrets.names": "builder",
  "secrets.create": "admin",
  "secrets.rotate": "admin",
  "secrets.remove": "admin",
  "secrets.checkBinding": "builder",
  "start.checklist": "builder",
  "start.templates": "builder",
  "start.createAgent": "builder",
  "tools.files": "builder",
  "tools.read": "builder",
  "tools.preview": "developer",
  "tools.file.save": "developer",
  "tools.file.create": "developer",
  "tools.file.rename": "developer",
  "tools.file.remove": "developer",
  "tools.file.putDraft": "developer",
  "tools.file.dropDraft": "developer",
  "tools.try.run": "developer",
  "tools.try.examples": "developer",
  "tools.try.saveExample": "developer",
  "tools.try.deleteExample": "developer",
  "tools.history.publish": "developer",
  "tools.history.versions": "builder",
  "tools.history.compare": "developer",
  "tools.project.list": "builder",
  "tools.project.read": "developer",
  "tools.project.save": "developer",
  "tools.project.status": "builder",
  "tools.project.log": "developer",
  "tools.project.install": "developer",
};

const callers: { who: string; role: Role | null }[] = [
  { who: "nobody", role: null },
  { who: "a builder", role: "builder" },
  { who: "a developer", role: "developer" },
  { who: "an admin", role: "admin" },
];

const rank = { anyone: 0, builder: 1, developer: 2, admin: 3 } as const;

async function load() {
  const { appRouter } = await import("@/server/trpc/router");
  const { createCallerFactory } = await import("@/server/trpc/init");
  return { appRouter, createCaller: createCallerFactory(appRouter) };
}

afterAll(async () => {
  const { closeAll } = await import("@/server/host");
  const { closeDatabase } = await import("@/server/db");
  await closeAll();
  await closeDatabase();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe("the role matrix", () => {
  it("has a row for every procedure, and no row for a procedure that does not exist", async () => {
    const { appRouter } = await load();
    // Each domain's router is loaded on its first call (R-boot-routers-lazy): load them all, as calls would.
    while (Object.keys(appRouter._def.lazy).length > 0) await Promise.all(Object.values(appRouter._def.lazy).map((loader) => loader.load()));
    const paths = Object.keys(appRouter._def.procedures).sort();
    expect(paths).toEqual(Object.keys(matrix).sort());
  });

  for (const [procedure, needs] of Object.entries(matrix)) {
    for (const caller of callers) {
      const allowed = (caller.role ? rank[caller.role] : 0) >= rank[needs];
      it(`${procedure} is ${allowed ? "allowed" : "refused"} to ${caller.who}`, async () => {
        const { createCaller } = await load();
        const user = caller.role ? { id: `user-${caller.role}`, email: `${caller.role}@quiver.test`, name: caller.role, role: caller.role } : null;
        const api = createCaller({ headers: new Headers(), user }) as unknown as Record<string, unknown>;
        const fn = procedure.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], api) as (
          input: unknown,
        ) => Promise<unknown>;
        let code: string | null = null;
        try {
          // No input at all: an allowed caller gets past the role check and stops at validation (or runs a read).
          const result = await fn(undefined);
          if (result && typeof result === "object" && Symbol.asyncIterator in result) {
            await (result as unknown as AsyncIterator<unknown>).return?.();
          }
        } catch (err) {
          code = err instanceof TRPCError ? err.code : "OTHER";
        }
        if (allowed) expect(code === "UNAUTHORIZED" || code === "FORBIDDEN").toBe(false);
        else expect(code).toBe(caller.role ? "FORBIDDEN" : "UNAUTHORIZED");
      });
    }
  }
});
