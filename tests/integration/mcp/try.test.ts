// An MCP server's tool tried by hand from its row (R-mcp-try): the call goes through the one pipeline on the
// server's connection, streaming progress then the answer, with the row's secret masked; a destructive tool is
// refused until the person confirms, a tool that acts is audited as tried by hand, and a tool the server does not
// list is refused with a sentence.
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audit } from "@/db/schema";
import { tryMcpTool, type TryEvent } from "@/server/calls";
import { DomainError } from "@/server/errors";
import { createServer } from "@/server/mcp/registry";
import { createSecret } from "@/server/secrets/store";
import { EVERYTHING, openStudio, PROBE, scratchEnv, type Studio } from "./helpers";

const CHANGING = path.join(__dirname, "servers/changing-server.mjs");
const TOKEN = "try-token-Hq72nBv9";
const scratch = scratchEnv("mcp-try");
let studio: Studio;
const ids: Record<string, string> = {};

async function events(server: string, tool: string, args: Record<string, unknown> = {}, confirmed?: boolean): Promise<TryEvent[]> {
  const seen: TryEvent[] = [];
  const db = studio.database.db;
  for await (const event of tryMcpTool({ db, pool: studio.pool, actor: "admin-1", server, tool, args, confirmed })) seen.push(event);
  return seen;
}

const resultOf = (seen: TryEvent[]) => {
  const last = seen.at(-1);
  if (last?.type !== "result") throw new Error("the call ended without a result");
  return { ...last.result, text: last.result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n") };
};

beforeAll(async () => {
  studio = await openStudio(scratch);
  const db = studio.database.db;
  await createSecret(db, "admin-1", { name: "PROBE_TOKEN", value: TOKEN });
  const stdio = (name: string, args: string[], env?: Record<string, string>) => ({ name, transport: { type: "stdio" as const, command: "node", args, env } });
  ids.everything = (await createServer(db, "admin-1", stdio("everything", [EVERYTHING, "stdio"]))).id;
  ids.changing = (await createServer(db, "admin-1", stdio("changing", [CHANGING]))).id;
  ids.probe = (await createServer(db, "admin-1", stdio("probe", [PROBE], { PROBE_TOKEN: "${PROBE_TOKEN}" }))).id;
}, 30_000);

afterAll(async () => {
  await studio.close();
});

describe("trying an MCP server's tool from its row", () => {
  it("streams the tool's progress lines, then its answer as the model would read it", { timeout: 30_000 }, async () => {
    const seen = await events(ids.everything!, "trigger-long-running-operation", { duration: 1, steps: 2 });
    const progress = seen.filter((event) => event.type === "progress");
    expect(progress.length).toBeGreaterThanOrEqual(1);
    const result = resultOf(seen);
    expect(result.outcome).toBe("ok");
    expect(result.text).toMatch(/Long running operation completed/);
    expect(seen.at(-1)).toMatchObject({ durationMs: expect.any(Number) });
  });

  it("masks the value of the row's secret in what the server answers", { timeout: 30_000 }, async () => {
    const result = resultOf(await events(ids.probe!, "environment"));
    expect(result.text).toContain('"PROBE_TOKEN":"***"');
    expect(result.text).not.toContain(TOKEN);
  });

  it("refuses a tool its server marks destructive until the person confirms, then runs and audits it", { timeout: 30_000 }, async () => {
    const refusal = await events(ids.changing!, "erase").catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(DomainError);
    expect((refusal as DomainError).reason).toBe("CONFIRM_DESTRUCTIVE");
    expect((refusal as DomainError).message).toBe("changing marks erase as destructive: confirm that you want to run it, since what it changes may not be restorable.");
    const db = studio.database.db;
    const rows = () => db.select().from(audit).where(and(eq(audit.action, "tool.executed"), eq(audit.target, "erase")));
    expect(await rows()).toHaveLength(0);

    expect(resultOf(await events(ids.changing!, "erase", {}, true)).text).toBe("erased");
    const [row] = await rows();
    expect(row).toMatchObject({ actor: "admin-1", detail: { via: "try-it", source: ids.changing, server: "changing", outcome: "ok" } });
  });

  it("leaves no audit row for a read-only tool", { timeout: 30_000 }, async () => {
    expect(resultOf(await events(ids.changing!, "note", { text: "kept" })).text).toBe("noted: kept");
    const rows = await studio.database.db.select().from(audit).where(eq(audit.target, "note"));
    expect(rows).toHaveLength(0);
  });

  it("refuses a tool the server does not list, naming the server", { timeout: 30_000 }, async () => {
    const refusal = await events(ids.everything!, "no-such-tool").catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(DomainError);
    expect((refusal as DomainError).message).toBe("everything does not list a tool no-such-tool now; read its tools again and pick one it lists.");
  });
});
