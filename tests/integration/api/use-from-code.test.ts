// "Use from code" as its reader meets it: the agent page's snippets, run as written (only the key's placeholder
// filled in) against the studio's real chat-completions route on loopback — curl in a shell, the TypeScript one
// with the installed openai package — so the texts cannot drift from the endpoint; the Python one read back by
// Python; the MCP configurations in each client's shape with no key in them; and the keys a builder is shown as
// reaching the agent, without a hash or a value (R-use-from-code-key, R-use-from-code-keys).
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { KEY_PLACEHOLDER, mcpConfigsOf, snippetsOf } from "@/components/agents/use-from-code-snippets";
import { apiKeys, runs } from "@/db/schema";
import { text } from "@/tests/support/loopback-model";
import { chatStudio, type ChatStudio } from "./chat-studio";

const run = promisify(execFile);

let s: ChatStudio;
/** A name a shell, a JSON body and three languages' string literals must all carry intact. */
let desk: { id: string; name: string };
let key: { value: string; id: string; name: string };
let scratch: string;

beforeAll(async () => {
  s = await chatStudio("use-from-code");
  desk = await s.agent({ name: `Sam's "front" desk`, instructions: "You are the front desk." });
  key = await s.key();
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-use-from-code-"));
  // The TypeScript snippet imports "openai" as its reader's project would: from a node_modules beside it.
  fs.symlinkSync(path.resolve("node_modules"), path.join(scratch, "node_modules"), "dir");
});
beforeEach(() => s.model.reset());
afterAll(async () => {
  await s?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

const withKey = (snippet: string) => {
  expect(snippet).toContain(KEY_PLACEHOLDER);
  return snippet.replaceAll(KEY_PLACEHOLDER, key.value);
};

const bounded = { timeout: 30_000, encoding: "utf8" as const, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", NODE_ENV: "test" as const } };

/** The run the last request started, as stored: the snippets' requests are runs like any other. */
async function lastRun() {
  const started = s.model.requests.at(-1);
  expect(started).toBeDefined();
  const stored = await s.db.select().from(runs).where(eq(runs.agentId, desk.id));
  return stored.sort((a, b) => +new Date(b.startedAt) - +new Date(a.startedAt))[0]!;
}

describe("the snippets, run as written (R-use-from-code-key)", () => {
  it("the curl snippet streams the agent's answer through to [DONE]", async () => {
    s.model.reply(text("I sort the files in your inbox."));
    const { stdout } = await run("bash", ["-c", withKey(snippetsOf(s.base, desk).curl)], bounded);
    const events = stdout.split("\n\n").filter((block) => block.startsWith("data: ")).map((block) => block.slice(6));
    expect(events.at(-1)).toBe("[DONE]");
    const said = events.slice(0, -1).map((e) => (JSON.parse(e) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content ?? "");
    expect(said.join("")).toBe("I sort the files in your inbox.");
    expect(s.model.requests.at(-1)!.body.messages.at(-1)).toMatchObject({ role: "user", content: "What can you do?" });
    expect(await lastRun()).toMatchObject({ status: "done", via: "api", viaKeyName: key.name });
  });

  it("the TypeScript snippet prints the agent's answer with the installed openai package", async () => {
    s.model.reply(text("I answer questions at the front desk.", { paceMs: 5 }));
    const file = path.join(scratch, "snippet.mts");
    fs.writeFileSync(file, withKey(snippetsOf(s.base, desk).typescript));
    const { stdout } = await run(process.execPath, [path.resolve("node_modules/tsx/dist/cli.mjs"), file], { ...bounded, cwd: scratch });
    expect(stdout).toBe("I answer questions at the front desk.");
    expect(await lastRun()).toMatchObject({ status: "done", via: "api", viaKeyName: key.name });
  });

  it("the Python snippet reads back, in Python, as this studio's address and the agent's exact name", async () => {
    const python = snippetsOf(s.base, desk).python;
    expect(python).toContain(KEY_PLACEHOLDER);
    const probe = [
      "import ast, json, sys",
      "tree = ast.parse(sys.stdin.read())",
      "found = {k.arg: ast.literal_eval(k.value) for node in ast.walk(tree) if isinstance(node, ast.Call) for k in node.keywords if k.arg in ('base_url', 'api_key', 'model', 'stream')}",
      "print(json.dumps(found))",
    ].join("\n");
    const child = execFile("python3", ["-c", probe], bounded);
    child.stdin!.end(python);
    const out = await new Promise<string>((resolve, reject) => {
      let stdout = "";
      child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.on("error", reject);
      child.on("close", (code) => (code === 0 ? resolve(stdout) : reject(new Error(`python3 exited with ${code}`))));
    });
    expect(JSON.parse(out)).toEqual({ base_url: `${s.base}/api/v1`, api_key: KEY_PLACEHOLDER, model: desk.name, stream: true });
  });
});

describe("the MCP configurations (R-use-from-code-key)", () => {
  it("gives each client its own shape for the agent's endpoint, with the key as a placeholder or asked for", () => {
    const url = `${s.base}/api/mcp/agents/${desk.id}`;
    const [claude, cursor, vscode] = mcpConfigsOf(s.base, desk).map((c) => JSON.parse(c.config) as Record<string, Record<string, Record<string, unknown>>>);
    expect(claude!.mcpServers!["quiver-sam-s-front-desk"]).toEqual({
      command: "npx",
      args: ["-y", "mcp-remote", url, "--header", "Authorization:${AUTH_HEADER}", "--allow-http"],
      env: { AUTH_HEADER: `Bearer ${KEY_PLACEHOLDER}` },
    });
    expect(cursor!.mcpServers!["quiver-sam-s-front-desk"]).toEqual({ url, headers: { Authorization: `Bearer ${KEY_PLACEHOLDER}` } });
    expect(vscode!.servers!["quiver-sam-s-front-desk"]).toEqual({ type: "http", url, headers: { Authorization: "Bearer ${input:quiver-key}" } });
    expect(vscode!.inputs).toEqual([expect.objectContaining({ type: "promptString", id: "quiver-key", password: true })]);
  });
});

describe("the keys that can reach the agent (R-use-from-code-keys)", () => {
  async function asBuilder() {
    const { appRouter } = await import("@/server/trpc/router");
    const { createCallerFactory } = await import("@/server/trpc/init");
    const user = { id: "user-builder", email: "builder@quiver.test", name: "builder", role: "builder" as const };
    return createCallerFactory(appRouter)({ headers: new Headers(), user });
  }

  it("lists the live keys for all agents or naming this one, by name and prefix, never a hash or a value", async () => {
    const other = await s.agent({ name: "back office" });
    const listed = await s.key({ agents: [desk.id], scopes: ["read", "run"] });
    const elsewhere = await s.key({ agents: [other.id] });
    const revoked = await s.key();
    await s.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, revoked.id));
    const expired = await s.key();
    await s.db.update(apiKeys).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(apiKeys.id, expired.id));
    const later = new Date(Date.now() + 86_400_000);
    const expiring = await s.key({ scopes: ["decide"] });
    await s.db.update(apiKeys).set({ expiresAt: later }).where(eq(apiKeys.id, expiring.id));

    const answer = await (await asBuilder()).useFromCode.get({ id: desk.id });
    const names = answer.keys.map((k) => k.name);
    expect(names).toEqual(expect.arrayContaining([key.name, listed.name, expiring.name]));
    expect(names).not.toContain(elsewhere.name);
    expect(names).not.toContain(revoked.name);
    expect(names).not.toContain(expired.name);
    expect(answer.keys.find((k) => k.name === listed.name)).toEqual({ id: listed.id, name: listed.name, prefix: listed.value.slice(0, 11), scopes: ["run", "read"], reach: "listed", expiresAt: null });
    expect(answer.keys.find((k) => k.name === expiring.name)).toMatchObject({ reach: "all", scopes: ["decide"], expiresAt: later });
    const sent = JSON.stringify(answer);
    const [stored] = await s.db.select().from(apiKeys).where(eq(apiKeys.id, listed.id));
    expect(sent).not.toContain(stored!.hash);
    expect(sent).not.toContain(listed.value);
    expect(answer).toMatchObject({ baseUrl: null, canManageKeys: false });
  });

  it("refuses an agent that does not exist as no such agent", async () => {
    await expect((await asBuilder()).useFromCode.get({ id: "00000000-0000-4000-8000-000000000000" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
