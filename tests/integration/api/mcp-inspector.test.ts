// The agent's MCP endpoint driven by another client than the SDK's own: the MCP Inspector's CLI, run as a child
// process against the endpoint served on 127.0.0.1 with a bearer key, listing the tools and calling one, its JSON
// output read as a script would read it (R-api-mcp-endpoint, R-api-mcp-list, R-api-mcp-call).
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpStudio, type McpStudio } from "./mcp-studio";

const NOTES = `"""Notes."""


def echo(text: str) -> str:
    """Say the text back.

    Args:
        text: What to say.
    """
    return f"echo: {text}"
`;

const LAUNCHER = path.join(process.cwd(), "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js");
const run = promisify(execFile);
let s: McpStudio;
let agent: string;
let key: string;
/** The Inspector keeps its own files under HOME: a scratch one, not the machine's. */
const home = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-inspector-home-"));

beforeAll(async () => {
  s = await mcpStudio("api-mcp-inspector", { "notes.py": NOTES });
  agent = await s.api.agent("Echo Desk", [{ entry: "tools/notes.py" }]);
  key = (await s.key({ name: "inspector" })).value;
}, 120_000);
afterAll(async () => {
  await s?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

/** The Inspector's CLI against the agent's endpoint; its stdout parsed as the JSON it prints. */
async function inspector(...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, [LAUNCHER, "--cli", s.endpoint(agent), "--transport", "http", "--header", `Authorization: Bearer ${key}`, ...args], {
    timeout: 60_000,
    env: { ...process.env, HOME: home },
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe("the MCP Inspector's CLI", () => {
  it("lists the agent's tools and the agent itself", async () => {
    const listed = (await inspector("--method", "tools/list")) as { tools: { name: string; description: string; inputSchema: { required?: string[] } }[] };
    expect(listed.tools.map((t) => t.name)).toEqual(["notes__echo", "ask_echo_desk"]);
    expect(listed.tools[0]).toMatchObject({ description: "Say the text back.", inputSchema: { required: ["text"] } });
  }, 90_000);

  it("calls an operation and gets its result, as a run in /runs via MCP", async () => {
    const called = (await inspector("--method", "tools/call", "--tool-name", "notes__echo", "--tool-arg", "text=from the inspector")) as {
      content: { type: string; text: string }[];
      isError?: boolean;
      _meta: { "quiver/run": { id: string } };
    };
    expect(called.isError ?? false).toBe(false);
    expect(called.content).toEqual([{ type: "text", text: "echo: from the inspector" }]);
    const { getDb } = await import("@/server/db");
    const { runs } = await import("@/db/schema");
    const { eq } = await import("drizzle-orm");
    const [row] = await (await getDb()).select().from(runs).where(eq(runs.id, called._meta["quiver/run"].id));
    expect(row).toMatchObject({ via: "mcp", viaKeyName: "inspector", status: "done" });
  }, 90_000);
});
