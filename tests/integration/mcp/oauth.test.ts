// An OAuth-protected MCP server (the official SDK's authorization server pieces, on 127.0.0.1), reached the way the
// page reaches the studio: tRPC and the callback route with an admin's session, the test playing the browser at the
// consent page. Covers the row that needs a sign-in, Connect through to a tool call, tokens kept sealed and never
// answered, a refresh when the access token expires, a revoked grant, and callbacks the studio did not start.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { audit, mcpOauthGrants, mcpOauthPending, mcpServers } from "@/db/schema";
import { addUser, freshStudio, routes, sessionCookie, STUDIO, trpcRequest } from "../http/studio";
import { textOf } from "./helpers";
import { oauthServer, type OAuthServer } from "./servers/oauth-server";

const studio = freshStudio("mcp-oauth");
const CALLBACK = `${STUDIO}/api/mcp/oauth/callback`;
let server: OAuthServer;
let admin: string;
let other: string;
let id: string;
const written: string[] = [];

type Answer = { status: number; text: string; data: unknown; message: string | null };

async function trpc(procedure: string, input: unknown, cookie = admin, method: "GET" | "POST" = "POST"): Promise<Answer> {
  const { trpc: handler } = await routes();
  const request = trpcRequest(procedure, input, { method, headers: { cookie, origin: STUDIO } });
  const answer = await (method === "GET" ? handler.GET(request) : handler.POST(request));
  const text = await answer.text();
  const body = JSON.parse(text) as { result?: { data: unknown }; error?: { message: string } };
  return { status: answer.status, text, data: body.result?.data, message: body.error?.message ?? null };
}

type Row = { id: string; status: { state: string; sentence: string }; signIn: { signedIn: boolean; signedInBy: string | null; outcome: string | null } | null };
const rowOf = async (which = id): Promise<Row & { raw: string }> => {
  const answer = await trpc("mcpServers.list", undefined, admin, "GET");
  return { ...(answer.data as Row[]).find((row) => row.id === which)!, raw: answer.text };
};

const callback = async (location: string, cookie = admin) => {
  const { GET } = await import("@/app/api/mcp/oauth/callback/route");
  return GET(new Request(location, { headers: { cookie } }));
};

/** Connect, then the browser at the consent page: the address the server sends it back to. */
async function consent(cookie = admin, which = id): Promise<string> {
  const connect = await trpc("mcpServers.connect", { id: which }, cookie);
  expect(connect.message).toBeNull();
  const consentPage = await fetch((connect.data as { url: string }).url, { redirect: "manual" });
  expect(consentPage.status).toBe(302);
  return consentPage.headers.get("location")!;
}

const db = async () => (await import("@/server/db")).getDb();
const pool = async () => (await import("@/server/mcp/pool")).mcpPool();

/** Everything the studio stored or printed, as text a token must not appear in. */
async function everythingKept(): Promise<string> {
  const d = await db();
  const tables = await Promise.all([d.select().from(mcpOauthGrants), d.select().from(mcpOauthPending), d.select().from(audit), d.select().from(mcpServers)]);
  return JSON.stringify(tables) + written.join("");
}

beforeAll(async () => {
  server = await oauthServer();
  await addUser("admin@quiver.test", "admin");
  await addUser("second@quiver.test", "admin");
  admin = await sessionCookie("admin@quiver.test");
  other = await sessionCookie("second@quiver.test");
  const capture = (chunk: unknown) => void written.push(String(chunk));
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => (capture(chunk), true));
  for (const level of ["warn", "error", "log"] as const) vi.spyOn(console, level).mockImplementation((...args: unknown[]) => capture(args.join(" ")));
  const created = await trpc("mcpServers.create", { server: { name: "tickets", transport: { type: "http", url: server.url, auth: { type: "oauth", scopes: ["tools"] } } } });
  expect(created.message).toBeNull();
  id = (created.data as { id: string }).id;
}, 90_000);

afterAll(async () => {
  vi.restoreAllMocks();
  await (await import("@/server/mcp/pool")).closeMcpServers();
  await server.close();
  await studio.close();
});

describe("an MCP server that signs in with OAuth", () => {
  it("needs a sign-in before anyone connects, on its row and when tested (R-mcp-oauth-needs-sign-in)", async () => {
    const row = await rowOf();
    expect(row.status).toEqual(expect.objectContaining({ state: "needs-sign-in", sentence: "Nobody has signed in to tickets yet: an admin must press Connect on its row in Settings → MCP servers." }));
    expect(row.signIn).toMatchObject({ signedIn: false });
    // A builder picking sources reads the same state as the admins' row.
    const names = (await trpc("mcpServers.names", undefined, admin, "GET")).data as Array<{ id: string; state: string }>;
    expect(names.find((n) => n.id === id)?.state).toBe("needs-sign-in");
    const test = await trpc("mcpServers.test", { id });
    expect(test.data).toMatchObject({ ok: false, status: { state: "needs-sign-in" } });
    expect(server.counts.registrations).toBe(0);
  });

  it("connects: consent, the callback, a sealed grant, and a tool called with its token (R-mcp-oauth-connect, R-mcp-oauth-tokens)", { timeout: 30_000 }, async () => {
    const back = await consent();
    expect(back.startsWith(`${CALLBACK}?`)).toBe(true);
    const [asked] = server.authorizations;
    expect(asked).toMatchObject({ redirectUri: CALLBACK, scopes: ["tools"] });
    expect(asked!.codeChallenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(server.counts.registrations).toBe(1);

    const answer = await callback(back);
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe(`/settings/mcp#${id}`);
    expect(answer.headers.get("referrer-policy")).toBe("no-referrer");

    const row = await rowOf();
    expect(row.status.state).toBe("connected");
    expect(row.signIn).toMatchObject({ signedIn: true, signedInBy: "admin", outcome: "Signed in by admin. Connected over Streamable HTTP: 2 tools." });
    const called = await (await pool()).callTool(await db(), id, "whoami", {});
    expect(textOf(called)).toBe("Signed in as a client with scopes: tools");
    const [accessToken] = server.issued.filter((t) => t.startsWith("access-"));
    expect(server.bearers.at(-1)).toBe(`Bearer ${accessToken}`);

    const [grant] = await (await db()).select().from(mcpOauthGrants);
    expect(grant!.tokensCiphertext).toMatch(/^v1:/);
    const kept = await everythingKept();
    for (const value of server.issued) {
      expect(kept).not.toContain(value);
      expect(row.raw).not.toContain(value);
    }
  });

  it("renews an expired access token with the refresh token and carries on (R-mcp-oauth-refresh)", { timeout: 20_000 }, async () => {
    const [before] = await (await db()).select().from(mcpOauthGrants);
    server.expireAccessTokens();
    const called = await (await pool()).callTool(await db(), id, "ping", {});
    expect(textOf(called)).toBe("pong");
    expect(server.counts.refreshes).toBe(1);
    const [after] = await (await db()).select().from(mcpOauthGrants);
    expect(after!.tokensCiphertext).not.toBe(before!.tokensCiphertext);
    expect(after!.refreshedAt).not.toBeNull();
    const newest = server.issued.filter((t) => t.startsWith("access-")).at(-1);
    expect(server.bearers.at(-1)).toBe(`Bearer ${newest}`);
    const kept = await everythingKept();
    for (const value of server.issued) expect(kept).not.toContain(value);
  });

  it("keeps the grant when calls side by side renew it at once and the server rotates its refresh token (R-mcp-oauth-refresh)", { timeout: 20_000 }, async () => {
    server.expireAccessTokens();
    const before = server.counts.refreshes;
    const answers = await Promise.all(["ping", "whoami", "ping"].map(async (tool) => textOf(await (await pool()).callTool(await db(), id, tool, {}))));
    expect(answers).toEqual(["pong", "Signed in as a client with scopes: tools", "pong"]);
    expect(server.counts.refreshes).toBeGreaterThan(before);
    expect((await rowOf()).status.state).toBe("connected");
    expect(textOf(await (await pool()).callTool(await db(), id, "ping", {}))).toBe("pong");
  });

  it("says a revoked grant needs a sign-in again, on the call and on the row (R-mcp-oauth-needs-sign-in)", { timeout: 20_000 }, async () => {
    server.revokeAll();
    const called = await (await pool()).callTool(await db(), id, "ping", {});
    expect(called.isError).toBe(true);
    expect(textOf(called)).toBe(
      "The MCP server tickets is not available, so ping did not run: The sign-in to tickets expired and the server would not renew it: an admin must press Connect on its row in Settings → MCP servers to sign in again.",
    );
    const row = await rowOf();
    expect(row.status).toMatchObject({ state: "needs-sign-in", sentence: expect.stringMatching(/^The sign-in to tickets expired/) });
    expect(row.signIn).toMatchObject({ signedIn: false });
    const [grant] = await (await db()).select().from(mcpOauthGrants);
    expect(grant!.tokensCiphertext).toBeNull();
  });

  it("refuses a callback whose state it did not make, one already used, and one another admin started (R-mcp-oauth-state)", { timeout: 30_000 }, async () => {
    const back = await consent();
    const forged = new URL(back);
    forged.searchParams.set("state", "not-a-state-the-studio-made");
    const wrong = await callback(forged.href);
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("This sign-in is not one the studio started, or it was already used: press Connect on the server&#39;s row in Settings → MCP servers to sign in again.");

    expect((await callback(back)).status).toBe(303);
    const replayed = await callback(back);
    expect(replayed.status).toBe(400);
    expect(await replayed.text()).toContain("already used");
    expect((await rowOf()).status.state).toBe("connected");

    const theirs = await consent(other);
    const stolen = await callback(theirs, admin);
    expect(stolen.status).toBe(400);
    expect(await stolen.text()).toContain("This sign-in was started by another account");
    expect(server.counts.registrations).toBe(1);
  });

  it("shows a refused consent on the row, and Disconnect forgets the grant (R-mcp-oauth-disconnect)", { timeout: 30_000 }, async () => {
    server.deny = true;
    const denied = await callback(await consent());
    server.deny = false;
    expect(denied.status).toBe(303);
    expect((await rowOf()).signIn!.outcome).toBe(
      "The sign-in to tickets was not completed: its server answered access_denied (The user said no); press Connect on the server's row in Settings → MCP servers to sign in again.",
    );
    // The earlier grant still holds: a refused Connect does not sign anyone out.
    expect((await rowOf()).signIn!.signedIn).toBe(true);

    const out = await trpc("mcpServers.disconnect", { id });
    expect(out.message).toBeNull();
    expect(await (await db()).select().from(mcpOauthGrants)).toEqual([]);
    expect((await rowOf()).status.state).toBe("needs-sign-in");
    const kept = await everythingKept();
    for (const value of server.issued) expect(kept).not.toContain(value);
  });

  it("uses a given client id and its secret, registering nothing, and keeps the secret out of every answer", { timeout: 30_000 }, async () => {
    const clientSecret = "given-client-secret-7Qm2x";
    server.addClient({ client_id: "quiver-given", client_secret: clientSecret, redirect_uris: [CALLBACK], token_endpoint_auth_method: "client_secret_post" });
    expect((await trpc("secrets.create", { name: "GIVEN_CLIENT_SECRET", value: clientSecret })).message).toBeNull();
    const auth = { type: "oauth", clientId: "quiver-given", clientSecret: "${GIVEN_CLIENT_SECRET}" };
    const created = await trpc("mcpServers.create", { server: { name: "given", transport: { type: "http", url: server.url, auth } } });
    const given = (created.data as { id: string }).id;
    const registrations = server.counts.registrations;
    expect((await callback(await consent(admin, given))).status).toBe(303);
    expect(server.counts.registrations).toBe(registrations);
    const row = await rowOf(given);
    expect(row.status.state).toBe("connected");
    expect(textOf(await (await pool()).callTool(await db(), given, "ping", {}))).toBe("pong");
    const kept = await everythingKept();
    for (const value of [...server.issued, clientSecret]) {
      expect(kept).not.toContain(value);
      expect(row.raw).not.toContain(value);
    }
  });

  it("says why Connect cannot start where the studio may not register itself, and where nothing answers (R-mcp-oauth-connect)", { timeout: 30_000 }, async () => {
    const plain = http.createServer((_req, res) => res.writeHead(404, { "content-type": "text/plain" }).end("not here"));
    await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
    try {
      const at = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/mcp`;
      const made = await trpc("mcpServers.create", { server: { name: "plain", transport: { type: "http", url: at, auth: "oauth" } } });
      const answer = await trpc("mcpServers.connect", { id: (made.data as { id: string }).id });
      expect(answer.status).toBe(412);
      expect(answer.message).toBe("The sign-in server of plain would not let the studio register itself (it answered 404): in Edit, give the client id its developer settings show, and its secret if it has one.");
      plain.close();
      const gone = await trpc("mcpServers.connect", { id: (made.data as { id: string }).id });
      expect(gone.message).toBe(`Nothing answers the sign-in at ${at} (connection refused).`);
    } finally {
      plain.close();
    }
  });
});
