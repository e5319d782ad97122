// The registry of MCP servers on PGlite: every fault a sentence at its field with nothing saved, credentials written
// out refused, secrets' uses listed, deletion refused while an agent names the server, a changed row picked up by
// the next use; and the tRPC router over it, as an admin and a builder.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agents } from "@/db/schema";
import { secretReferenceSources } from "@/server/agents/references";
import { createServer, deleteServer, importMcpJson, listServers, updateServer } from "@/server/mcp/registry";
import { createSecret, deleteSecret, listSecrets } from "@/server/secrets/store";
import { openStudio, PROBE, scratchEnv, textOf, type Studio } from "./helpers";

const scratch = scratchEnv("mcp-registry");
let studio: Studio;
const db = () => studio.database.db;
const stdio = (name: string, extra: Record<string, unknown> = {}) => ({ name, transport: { type: "stdio", command: "node", args: [PROBE], ...extra } });

/** The problems a refused save named, as "path: message". */
async function refusal(promise: Promise<unknown>): Promise<string[]> {
  const error = (await promise.then(
    () => {
      throw new Error("it was saved");
    },
    (e: unknown) => e,
  )) as { reason?: string; details?: { problems?: Array<{ path: string; message: string }> } };
  expect(error.reason).toBe("INVALID_MCP_SERVER");
  return error.details!.problems!.map((p) => `${p.path}: ${p.message}`);
}

beforeAll(async () => {
  studio = await openStudio(scratch);
  await createSecret(db(), "admin-1", { name: "GITHUB_TOKEN", value: "ghp_abcdefghijklmnopqrstuvwxyz0123" });
});

afterAll(async () => {
  await studio.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe("registering a server (R-mcp-register)", () => {
  it("names each malformed value at its field and saves nothing", async () => {
    const problems = await refusal(
      createServer(db(), "admin-1", {
        name: "  ",
        idleStopS: -1,
        transport: { type: "stdio", command: "node", args: ["ok", 3], cwd: "relative/dir", env: { "BAD-NAME": "x", GOOD: "${lower}", EDITOR: "${input:token}" } },
      }),
    );
    expect(problems).toEqual([
      "name: Give the server's name.",
      "idleStopS: The idle time is a whole number of seconds from 0 (never stop) to 86400; the default is 600.",
      "transport.args[1]: The argument 2 must be text, not number.",
      "transport.cwd: The working folder must be an absolute path, like /srv/mcp/tickets.",
      "transport.env.BAD-NAME: “BAD-NAME” is not a name the environment can hold: use letters, digits and underscores, not starting with a digit.",
      "transport.env.GOOD: GOOD has a ${…} that is not a secret's reference: write ${NAME}, the secret's name in capitals, digits and underscores, starting with a letter.",
      "transport.env.EDITOR: EDITOR uses an editor's variable (${input:…}, ${env:…}), which the studio does not fill in: create a secret and write ${NAME} instead.",
    ]);
    expect(await refusal(createServer(db(), "admin-1", { name: "web", transport: { type: "http", url: "ftp://example.com", headers: { "Bad Header": "x" } } }))).toEqual([
      "transport.headers.Bad Header: “Bad Header” is not a name the headers can hold: a header's name is letters, digits and - (like X-Api-Key).",
      "transport.url: The URL must be a whole http:// or https:// address, like https://mcp.example.com/mcp.",
    ]);
    expect(await listServers(db())).toEqual([]);
  });

  it("refuses an unknown secret, a command not on PATH and a missing folder, each at its field", async () => {
    const problems = await refusal(
      createServer(db(), "admin-1", { name: "tickets", transport: { type: "stdio", command: "no-such-mcp-server", cwd: "/no/such/folder", env: { TOKEN: "${NOPE_TOKEN}" } } }),
    );
    expect(problems[0]).toBe("transport.env.TOKEN: There is no secret named NOPE_TOKEN; pick one that exists, or create it in Settings → Secrets.");
    expect(problems[1]).toBe("transport.cwd: There is no folder /no/such/folder; create it, or leave the working folder empty to use the server's own.");
    expect(problems[2]).toMatch(/^transport\.command: There is no program named no-such-mcp-server on the server's PATH \(.*\); install it, give its absolute path, or set PATH in env\.$/);
    expect(await listServers(db())).toEqual([]);
  });

  it("refuses a name another server has, case aside", async () => {
    await createServer(db(), "admin-1", stdio("Probe"));
    expect(await refusal(createServer(db(), "admin-1", stdio("probe")))).toEqual(["name: An MCP server named probe already exists; choose another name."]);
  });

  it("refuses credentials written out, and keeps flags, words, URLs and paths (R-mcp-import-literals)", async () => {
    const problems = await refusal(
      createServer(db(), "admin-1", {
        name: "leaky",
        transport: {
          type: "stdio",
          command: "node",
          args: [PROBE, "--token", "abc123secret", "--api-key=zzz999", "sk-proj-abcdefghijklmnop1234"],
          env: { GITHUB_TOKEN: "plain-value-1234", SLACK: "xoxb-1234567890-abcdef", AUTH_MODE: "oauth", KEY_FILE: "/etc/keys/server.pem", DEBUG: "true" },
        },
      }),
    );
    expect(problems.map((p) => p.split(":")[0])).toEqual(["transport.args[2]", "transport.args[3]", "transport.args[4]", "transport.env.GITHUB_TOKEN", "transport.env.SLACK"]);
    expect(problems[3]).toBe(
      "transport.env.GITHUB_TOKEN: The variable GITHUB_TOKEN holds a credential written out; a server's row keeps no credential in clear. Store it as a secret (an admin creates one in Settings → Secrets) and write ${GITHUB_TOKEN} here instead.",
    );
    expect(problems.join(" ")).not.toMatch(/abc123secret|zzz999|plain-value-1234|xoxb-1234567890/);
    const header = await refusal(createServer(db(), "admin-1", { name: "leaky-http", transport: { type: "http", url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer abcdef" } } }));
    expect(header).toEqual([
      "transport.headers.Authorization: The header Authorization holds a credential written out; a server's row keeps no credential in clear. Store it as a secret (an admin creates one in Settings → Secrets) and write Bearer ${LEAKY_HTTP_TOKEN} here instead.",
    ]);
    const kept = await createServer(db(), "admin-1", stdio("tidy", { env: { GITHUB_TOKEN: "${GITHUB_TOKEN}", AUTH_MODE: "oauth", KEY_FILE: "/etc/keys/server.pem" } }));
    expect(kept.transport).toMatchObject({ env: { GITHUB_TOKEN: "${GITHUB_TOKEN}" } });
  });
});

describe("importing an mcp.json", () => {
  it("says the line and column where malformed text breaks", async () => {
    const text = '{\n  "mcpServers": {\n    "memory": { "command": "node" "args": [] }\n  }\n}';
    expect(await refusal(importMcpJson(db(), "admin-1", text))).toEqual([": The mcp.json does not parse at line 3, column 35: Expected ',' or '}' after property value."]);
    expect(await refusal(importMcpJson(db(), "admin-1", '{"mcpServers": {"a": [1,]}}'))).toEqual([": The mcp.json does not parse at line 1, column 25: Unexpected character ]."]);
  });

  it("takes every server or none: one literal token refuses the whole file", async () => {
    const before = (await listServers(db())).length;
    const file = {
      mcpServers: {
        memory: { command: "node", args: [PROBE] },
        github: { command: "node", args: [PROBE], env: { GITHUB_PERSONAL_ACCESS_TOKEN: "ghp_0123456789abcdefghijklmnopqrstuv" } },
      },
    };
    const problems = await refusal(importMcpJson(db(), "admin-1", JSON.stringify(file)));
    expect(problems).toEqual([
      "mcpServers.github.env.GITHUB_PERSONAL_ACCESS_TOKEN: The variable GITHUB_PERSONAL_ACCESS_TOKEN holds a credential written out; a server's row keeps no credential in clear. Store it as a secret (an admin creates one in Settings → Secrets) and write ${GITHUB_PERSONAL_ACCESS_TOKEN} here instead.",
    ]);
    expect((await listServers(db())).length).toBe(before);
  });

  it("reads Claude Desktop's, Cursor's and VS Code's shapes: stdio, http, streamable-http and sse", async () => {
    const claude = { mcpServers: { files: { command: "node", args: [PROBE], env: { GITHUB_TOKEN: "${GITHUB_TOKEN}" } }, remote: { url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer ${GITHUB_TOKEN}" } } } };
    const vscode = { servers: { legacy: { type: "sse", url: "https://old.example.com/sse" }, modern: { type: "streamable-http", url: "https://new.example.com/mcp" } }, inputs: [] };
    const rows = [...(await importMcpJson(db(), "admin-1", JSON.stringify(claude))), ...(await importMcpJson(db(), "admin-1", JSON.stringify(vscode)))];
    expect(rows.map((row) => [row.name, row.transport.type])).toEqual([["files", "stdio"], ["remote", "http"], ["legacy", "http"], ["modern", "http"]]);
    expect(rows[1]!.transport).toEqual({ type: "http", url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer ${GITHUB_TOKEN}" } });
    const again = await refusal(importMcpJson(db(), "admin-1", JSON.stringify({ mcpServers: { Files: { command: "node" } } })));
    expect(again).toEqual(["mcpServers.Files: An MCP server named Files already exists; choose another name."]);
  });
});

describe("secrets and agents that use a server", () => {
  it("lists the server among a secret's uses and refuses to delete the secret under it", async () => {
    const row = (await listServers(db())).find((r) => r.name === "tidy")!;
    const secret = (await listSecrets(db(), secretReferenceSources)).find((s) => s.name === "GITHUB_TOKEN")!;
    expect(secret.references).toEqual(expect.arrayContaining([{ kind: "mcp-server", id: row.id, label: "the MCP server “tidy”", href: `/settings/mcp#${row.id}` }]));
    await expect(deleteSecret(db(), "admin-1", "GITHUB_TOKEN", secretReferenceSources)).rejects.toThrow(/GITHUB_TOKEN is still used by .*the MCP server “tidy”/);
  });

  it("refuses to delete a server an agent names, naming the agent", async () => {
    const row = await createServer(db(), "admin-1", stdio("in-use"));
    await db().insert(agents).values({ name: "triage", declaration: { name: "triage", tools: [{ entry: `${row.id}#a,b` }] }, createdBy: "u", updatedBy: "u" });
    await expect(deleteServer(db(), "admin-1", row.id)).rejects.toThrow("in-use is still used by the agent “triage”; remove it from that agent first, then delete it.");
    const free = await createServer(db(), "admin-1", stdio("free"));
    expect(await deleteServer(db(), "admin-1", free.id)).toEqual({ id: free.id });
  });
});

describe("a row changed while its server runs", () => {
  it("is picked up by the next use, which starts the server as the row says now", { timeout: 20_000 }, async () => {
    const row = await createServer(db(), "admin-1", stdio("changing", { env: { GREETING: "first" } }));
    const greeting = async () => (JSON.parse(textOf(await studio.pool.callTool(db(), row.id, "environment", {}))) as { env: { GREETING: string } }).env.GREETING;
    expect(await greeting()).toBe("first");
    await updateServer(db(), "admin-2", row.id, stdio("changing", { env: { GREETING: "second" } }));
    expect(await greeting()).toBe("second");
    await deleteServer(db(), "admin-1", row.id);
    await expect(studio.pool.callTool(db(), row.id, "environment", {})).rejects.toMatchObject({ reason: "NO_SUCH_MCP_SERVER" });
  });
});

describe("the mcpServers router", () => {
  it("lets an admin import and list, a builder see names only, and checks every text", async () => {
    const { createCallerFactory } = await import("@/server/trpc/init");
    const { mcpServersRouter } = await import("@/server/trpc/routers/mcp-servers");
    const { closeDatabase } = await import("@/server/db");
    const caller = createCallerFactory(mcpServersRouter);
    const admin = caller({ headers: new Headers(), user: { id: "admin-1", email: "a@q.test", name: "A", role: "admin" } });
    const builder = caller({ headers: new Headers(), user: { id: "b-1", email: "b@q.test", name: "B", role: "builder" } });
    try {
      const made = await admin.import({ text: JSON.stringify({ mcpServers: { probe: { command: "node", args: [PROBE] } } }) });
      expect(made.map((r) => r.name)).toEqual(["probe"]);
      expect((await admin.list())[0]).toMatchObject({ name: "probe", status: { state: "stopped" }, agents: [] });
      expect(await builder.names()).toEqual([{ id: made[0]!.id, name: "probe", description: "", transport: "stdio", state: "stopped" }]);
      await expect(admin.create({ server: { name: "nul\u0000name", transport: { type: "stdio", command: "node" } } })).rejects.toMatchObject({ code: "BAD_REQUEST" });
      await expect(admin.get({ id: "not-a-uuid" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    } finally {
      await closeDatabase();
      fs.rmSync(path.join(scratch, "studio"), { recursive: true, force: true });
    }
  });
});
