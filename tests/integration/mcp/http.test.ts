// HTTP MCP servers: server-everything over Streamable HTTP and over the older HTTP+SSE transport (the fallback),
// a ${SECRET} header that reaches the server but no stored row, log or status, a session the server forgot, and
// URLs that answer something else or nothing.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mcpServers } from "@/db/schema";
import { createServer } from "@/server/mcp/registry";
import { createSecret } from "@/server/secrets/store";
import { everythingOverHttp, freePort, openStudio, scratchEnv, textOf, type Studio } from "./helpers";
import { recordingServer, type Recording } from "./servers/recording-http";

const scratch = scratchEnv("mcp-http");
const TOKEN = "tok-4f7a9c2e81d0b3aa";
let studio: Studio;
let streamable: Awaited<ReturnType<typeof everythingOverHttp>>;
let sse: Awaited<ReturnType<typeof everythingOverHttp>>;
let recording: Recording;
let html: http.Server;

const register = async (name: string, url: string, headers: Record<string, string> = {}) =>
  (await createServer(studio.database.db, "admin-1", { name, transport: { type: "http", url, headers } })).id;

beforeAll(async () => {
  studio = await openStudio(scratch);
  [streamable, sse, recording] = await Promise.all([everythingOverHttp("streamableHttp"), everythingOverHttp("sse"), recordingServer()]);
  html = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<html><body>Welcome to the wiki</body></html>"));
  await new Promise<void>((resolve) => html.listen(0, "127.0.0.1", resolve));
  await createSecret(studio.database.db, "admin-1", { name: "API_TOKEN", value: TOKEN });
}, 30_000);

afterAll(async () => {
  await studio.close();
  streamable.stop();
  sse.stop();
  await recording.close();
  html.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe("server-everything over HTTP", () => {
  it("connects over Streamable HTTP, lists, calls echo and a tool with progress", { timeout: 20_000 }, async () => {
    const db = studio.database.db;
    const id = await register("everything-http", streamable.url);
    expect(await studio.pool.testConnection(db, id)).toMatchObject({ ok: true, sentence: expect.stringMatching(/^Connected over Streamable HTTP: \d+ tools\.$/) });
    expect(studio.pool.status(id)).toMatchObject({ state: "connected", transport: "streamable-http", pid: null });
    expect(textOf(await studio.pool.callTool(db, id, "echo", { message: "over http" }))).toBe("Echo: over http");
    const progress: number[] = [];
    const done = await studio.pool.callTool(db, id, "trigger-long-running-operation", { duration: 1, steps: 3 }, { onProgress: (p) => progress.push(p.progress) });
    expect(textOf(done)).toMatch(/completed/);
    expect(progress).toEqual([1, 2, 3]);
  });

  it("falls back to HTTP+SSE for a server of the older transport, and says so (R-mcp-http-fallback)", { timeout: 20_000 }, async () => {
    const db = studio.database.db;
    const id = await register("everything-sse", sse.url);
    const answer = await studio.pool.testConnection(db, id);
    expect(answer.sentence).toMatch(/^Connected over HTTP\+SSE \(the older transport; the server does not speak Streamable HTTP\): \d+ tools\.$/);
    expect(studio.pool.status(id).transport).toBe("sse");
    expect(textOf(await studio.pool.callTool(db, id, "echo", { message: "old school" }))).toBe("Echo: old school");
  });
});

describe("a ${SECRET} header", () => {
  it("reaches the server resolved, while the stored row, the logs, the status and the result hold no value", { timeout: 20_000 }, async () => {
    const db = studio.database.db;
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const id = await register("recorded", recording.url, { Authorization: "Bearer ${API_TOKEN}", "X-Api-Key": "${API_TOKEN}" });
      const result = await studio.pool.callTool(db, id, "whoami", {});
      expect(recording.headers.some((h) => h.authorization === `Bearer ${TOKEN}` && h["x-api-key"] === TOKEN)).toBe(true);
      expect(textOf(result)).toBe("You sent: Bearer ***");
      const [row] = await db.select().from(mcpServers).where(eq(mcpServers.id, id));
      expect(JSON.stringify(row)).not.toContain(TOKEN);
      expect(row!.headers).toEqual({ Authorization: "Bearer ${API_TOKEN}", "X-Api-Key": "${API_TOKEN}" });
      expect(JSON.stringify(studio.pool.status(id))).not.toContain(TOKEN);
      recording.forgetSessions();
      await studio.pool.callTool(db, id, "whoami", {});
    } finally {
      spy.mockRestore();
    }
    expect(written.join("")).not.toContain(TOKEN);
  });

  it("opens the session again when the server no longer knows it, and serves the call", { timeout: 20_000 }, async () => {
    const db = studio.database.db;
    const id = await register("forgetful", recording.url, { Authorization: "Bearer ${API_TOKEN}" });
    expect((await studio.pool.callTool(db, id, "whoami", {})).isError).not.toBe(true);
    const before = recording.sessionsOpened();
    recording.forgetSessions();
    const again = await studio.pool.callTool(db, id, "whoami", {});
    expect(again.isError).not.toBe(true);
    expect(recording.sessionsOpened()).toBe(before + 1);
    expect(studio.pool.status(id).state).toBe("connected");
  });
});

describe("a URL that is not an MCP server", () => {
  it("answering 200 with a page says what it sent", { timeout: 20_000 }, async () => {
    const { port } = html.address() as AddressInfo;
    const id = await register("wiki", `http://127.0.0.1:${port}/`);
    const answer = await studio.pool.testConnection(studio.database.db, id);
    expect(answer.ok).toBe(false);
    expect(answer.sentence).toBe("The URL answered 200 but not MCP: it sent text/html (“<html><body>Welcome to the wiki</body></html>”).");
    expect(studio.pool.status(id)).toMatchObject({ state: "failed", sentence: answer.sentence });
  });

  it("where nothing listens says so", { timeout: 20_000 }, async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    const id = await register("nobody", url);
    const answer = await studio.pool.testConnection(studio.database.db, id);
    expect(answer).toMatchObject({ ok: false, sentence: `Nothing answers at ${url} (connection refused).` });
    const call = await studio.pool.callTool(studio.database.db, id, "echo", {});
    expect(call.isError).toBe(true);
    expect(textOf(call)).toMatch(/^The MCP server nobody is not available, so echo did not run: /);
  });
});
