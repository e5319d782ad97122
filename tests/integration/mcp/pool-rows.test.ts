// How soon the pool sees a server's row change (R-mcp-one-connection): one changed or deleted in this process at the
// next use, one changed behind the registry's back (another studio process sharing the database) once the pool's
// read of the row is older than rowFreshMs, and not before: a read per call would cost more than the call.
import fs from "node:fs";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpServers } from "@/db/schema";
import { McpPool } from "@/server/mcp/pool";
import { createServer, deleteServer, updateServer } from "@/server/mcp/registry";
import { openStudio, PROBE, scratchEnv, textOf, type Studio } from "./helpers";

const scratch = scratchEnv("mcp-pool-rows");
let studio: Studio;
const db = () => studio.database.db;
const probe = (name: string, greeting: string) => ({ name, transport: { type: "stdio", command: "node", args: [PROBE], env: { GREETING: greeting } } });
const greeting = async (pool: McpPool, id: string) =>
  (JSON.parse(textOf(await pool.callTool(db(), id, "environment", {}))) as { env: { GREETING: string } }).env.GREETING;

/** What another process sharing the database does: the row changed without this process's registry knowing. */
async function changedElsewhere(id: string, set: Partial<typeof mcpServers.$inferInsert>) {
  await db().update(mcpServers).set({ ...set, updatedAt: new Date(Date.now() + 1_000) }).where(eq(mcpServers.id, id));
}

beforeAll(async () => {
  studio = await openStudio(scratch);
});

afterAll(async () => {
  await studio.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe("the pool's read of a server's row", () => {
  it("stands for the next uses while fresh, and a change made here is seen at once", { timeout: 30_000 }, async () => {
    const pool = new McpPool({ dataDir: studio.dataDir, connectTimeoutMs: 15_000, rowFreshMs: 60_000 });
    try {
      const row = await createServer(db(), "admin-1", probe("fresh", "first"));
      expect(await greeting(pool, row.id)).toBe("first");
      await changedElsewhere(row.id, { env: { GREETING: "elsewhere" } });
      expect(await greeting(pool, row.id)).toBe("first");
      await updateServer(db(), "admin-1", row.id, probe("fresh", "here"));
      expect(await greeting(pool, row.id)).toBe("here");
      await deleteServer(db(), "admin-1", row.id);
      await expect(pool.callTool(db(), row.id, "environment", {})).rejects.toMatchObject({ reason: "NO_SUCH_MCP_SERVER" });
    } finally {
      await pool.closeAll();
    }
  });

  it("is taken again once older than rowFreshMs, so a change made elsewhere is seen", { timeout: 30_000 }, async () => {
    const pool = new McpPool({ dataDir: studio.dataDir, connectTimeoutMs: 15_000, rowFreshMs: 0 });
    try {
      const row = await createServer(db(), "admin-1", probe("stale", "first"));
      expect(await greeting(pool, row.id)).toBe("first");
      await changedElsewhere(row.id, { env: { GREETING: "elsewhere" } });
      expect(await greeting(pool, row.id)).toBe("elsewhere");
      await db().delete(mcpServers).where(eq(mcpServers.id, row.id));
      await expect(pool.callTool(db(), row.id, "environment", {})).rejects.toMatchObject({ reason: "NO_SUCH_MCP_SERVER" });
    } finally {
      await pool.closeAll();
    }
  });
});
