// Bad input at the edge, sent over HTTP through the studio's tRPC handler the way a careless or hostile client
// sends it: text with a NUL or a lone surrogate is refused naming its field (R-input-text); every refusal is a
// sentence naming the field and what to send instead (R-input-sentence); no answer carries SQL, a stack or a
// driver's words (R-error-id). Every procedure of the appRouter is walked with wrong types and missing fields.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Role } from "@/db/schema";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-bad-input-"));
fs.mkdirSync(path.join(scratch, "tools"));
fs.writeFileSync(
  path.join(scratch, "tools", "notes.py"),
  `"""Notes."""


def write(subject: str) -> str:
    """Write one note.

    Args:
        subject: The note's name.
    """
    return f"wrote {subject}"
`,
);
// Before anything reads the configuration: this test's own data folder and tree.
process.env.QUIVER_DATA_DIR = path.join(scratch, "data");
process.env.QUIVER_TOOLS_DIR = path.join(scratch, "tools");
process.env.QUIVER_SECRET_KEY ??= "6b".repeat(32);
process.env.DATABASE_URL = "";

const NUL = "a\u0000b";
const LONE = "a\ud800b";
const admin = { id: "user-ada", email: "ada@quiver.test", name: "Ada", role: "admin" as Role };

type Answer = { status: number; text: string; error: { message: string; data: Record<string, unknown> } | null };

/** One call over HTTP, as the browser's links make it: queries and subscriptions by GET, mutations by POST. */
async function send(procedure: string, type: "query" | "mutation" | "subscription", input: unknown): Promise<Answer> {
  const { fetchRequestHandler } = await import("@trpc/server/adapters/fetch");
  const { appRouter } = await import("@/server/trpc/router");
  const url = new URL(`http://studio.test/api/trpc/${procedure}`);
  const init: RequestInit = { method: type === "mutation" ? "POST" : "GET", headers: { "content-type": "application/json" } };
  if (type === "mutation") {
    if (input !== undefined) init.body = JSON.stringify(input);
  } else if (input !== undefined) url.searchParams.set("input", JSON.stringify(input));
  const controller = new AbortController();
  const response = await fetchRequestHandler({
    endpoint: "/api/trpc",
    req: new Request(url, { ...init, signal: controller.signal }),
    router: appRouter,
    createContext: () => ({ headers: new Headers(), user: admin }),
  });
  const text = type === "subscription" ? await firstEvents(response, controller) : await response.text();
  const error = errorIn(text);
  // A stream answers 200 and then its error, with the status it would have had.
  return { status: (error?.data.httpStatus as number | undefined) ?? response.status, text, error };
}

/** A stream's text up to its first event after "connected" (its error, or its first value), or what came in 3 s. */
async function firstEvents(response: Response, controller: AbortController): Promise<string> {
  const reader = response.body!.getReader();
  let text = "";
  const decoder = new TextDecoder();
  const deadline = setTimeout(() => controller.abort(), 3_000);
  try {
    while (!text.split("\n\n").slice(0, -1).some((block) => block.trim() && !block.includes("event: connected"))) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // Aborted: what arrived is the answer.
  } finally {
    clearTimeout(deadline);
    controller.abort();
  }
  return text;
}

function errorIn(text: string): Answer["error"] {
  const candidates = [text, ...text.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6))];
  for (const candidate of candidates) {
    try {
      const parsed = JSON.parse(candidate) as { error?: { message: string; data: Record<string, unknown> } } | { message?: string; data?: Record<string, unknown> };
      if ("error" in parsed && parsed.error) return parsed.error;
      if ("message" in parsed && typeof parsed.message === "string") return parsed as Answer["error"];
    } catch {
      // Not JSON: not the error.
    }
  }
  return null;
}

/** What no answer may carry: a dump of issues, SQL, a stack frame, the database driver's words. */
function expectClean(answer: Answer, what: string) {
  expect(answer.status, `${what}: ${answer.text.slice(0, 300)}`).toBeLessThan(500);
  for (const leak of [/SELECT\b/i, /INSERT\b/i, /\bat [\w.<>]+ \(/, /drizzle/i, /postgres/i, /pglite/i, /Failed query/i]) {
    expect(answer.text, `${what} leaks ${leak}`).not.toMatch(leak);
  }
  if (answer.error) {
    const { message } = answer.error;
    expect(message, `${what}: ${message}`).not.toMatch(/^\s*[[{]/);
    expect(message, `${what}: ${message}`).toMatch(/[.!?]$/);
  }
}

beforeAll(async () => {
  const { getDb } = await import("@/server/db");
  const { user } = await import("@/db/schema");
  await (await getDb()).insert(user).values({ id: admin.id, email: admin.email, name: admin.name, role: "admin" });
});

afterAll(async () => {
  const { closeAll } = await import("@/server/host");
  const { closeDatabase } = await import("@/server/db");
  await closeAll();
  await closeDatabase();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const declaration = (name: string) => ({ name, model: { provider: "openai-compatible", model: "m", base_url: "http://127.0.0.1:9/v1" }, tools: [] });

describe("text with a NUL or a lone surrogate", () => {
  it("refuses an agent whose name holds a NUL with a 400 naming the field, not a 500 with its SQL", async () => {
    const answer = await send("agents.create", "mutation", { declaration: declaration(NUL) });
    expectClean(answer, "agents.create");
    expect(answer.status).toBe(400);
    expect(answer.error!.message).toMatch(/^declaration\.name contains a NUL character \(U\+0000\)/);
    expect(answer.error!.data.issues).toEqual([{ path: "declaration.name", message: expect.stringContaining("NUL") }]);
  });

  it("refuses a NUL or a lone surrogate deep in a saved declaration, naming its path", async () => {
    const made = await send("agents.create", "mutation", { declaration: declaration("clean") });
    expect(made.status).toBe(200);
    const { id, version } = (JSON.parse(made.text) as { result: { data: { id: string; version: number } } }).result.data;
    const bad = { ...declaration("clean"), instructions: LONE };
    const answer = await send("agents.save", "mutation", { id, baseVersion: version, declaration: bad });
    expectClean(answer, "agents.save");
    expect(answer.status).toBe(400);
    expect(answer.error!.message).toMatch(/^declaration\.instructions contains a lone surrogate \(U\+D800\)/);
  });

  it("refuses an imported file whose JSON escapes a NUL into a value", async () => {
    const answer = await send("agents.import", "mutation", { json: JSON.stringify(declaration(NUL)) });
    expectClean(answer, "agents.import");
    expect(answer.status).toBe(400);
    expect(answer.error!.message).toMatch(/^json: the declaration's name contains a NUL character/);
  });

  it("refuses a secret with a NUL in its description without echoing its encrypted value", async () => {
    const answer = await send("secrets.create", "mutation", { name: "NUL_TOKEN", value: "sk-nul-0123456789", description: NUL });
    expectClean(answer, "secrets.create");
    expect(answer.status).toBe(400);
    expect(answer.error!.message).toMatch(/^description contains a NUL character/);
    expect(answer.text).not.toMatch(/v1:[A-Za-z0-9+/=]+:/);
  });

  it("refuses a secret value with a lone surrogate instead of storing U+FFFD in its place", async () => {
    const answer = await send("secrets.create", "mutation", { name: "LONE_TOKEN", value: `sk-${LONE}` });
    expect(answer.status).toBe(400);
    expect(answer.error!.message).toMatch(/^value contains a lone surrogate \(U\+D800\)/);
    const names = await send("secrets.names", "query", undefined);
    expect(names.text).not.toContain("LONE_TOKEN");
  });

  it("refuses a file save with a lone surrogate instead of writing U+FFFD in its place", async () => {
    const read = JSON.parse((await send("tools.read", "query", { path: "notes.py" })).text) as { result: { data: { file: { source: string; hash: string } } } };
    const { source, hash } = read.result.data.file;
    const answer = await send("tools.file.save", "mutation", { path: "notes.py", source: `${source}# ${LONE}\n`, baseHash: hash });
    expect(answer.status).toBe(400);
    expect(answer.error!.message).toMatch(/^source contains a lone surrogate \(U\+D800\) at character \d+/);
    expect(fs.readFileSync(path.join(scratch, "tools", "notes.py"), "utf8")).toBe(source);
  });

  it("refuses a NUL in a run's message, a key of Try it's settings and a search", async () => {
    for (const [procedure, type, input, field] of [
      ["runs.start", "mutation", { agentId: "0f8fad5b-d9cb-469f-a165-70867728950e", message: NUL }, "message"],
      ["tools.try.saveExample", "mutation", { path: "notes.py", tool: "notes__write", title: "t", args: {}, settings: { [NUL]: 1 } }, "settings"],
      ["agents.search", "query", { query: NUL }, "query"],
    ] as const) {
      const answer = await send(procedure, type, input);
      expectClean(answer, procedure);
      expect(answer.status, procedure).toBe(400);
      expect(answer.error!.message, procedure).toMatch(new RegExp(`^${field}\\b.*NUL character`));
    }
  });
});

describe("a declaration of the wrong kinds", () => {
  it("names each field and what to write, never zod's own words", async () => {
    const answer = await send("agents.create", "mutation", { declaration: 12345 });
    expect(answer.status).toBe(400);
    expect(answer.error!.message).toBe("This agent cannot be created until this is fixed: An agent's declaration is a JSON object with name, model and tools.");
    const wrong = { ...declaration("kinds"), description: 5, instructions: [], model: "m", policy: { timeout_s: "soon", output_cap: 5, dedupe: "yes", retry: -1 }, tools: [5, { entry: "system:planning", settings: [], permissions: 3 }] };
    const checked = JSON.parse((await send("agents.validate", "query", { declaration: wrong })).text) as { result: { data: { problems: { path: string; message: string }[] } } };
    const { problems } = checked.result.data;
    expect(problems.map((p) => p.path)).toEqual(["description", "instructions", "model", "policy.timeout_s", "policy.output_cap", "policy.dedupe", "policy.retry", "tools[0]", "tools[1].settings", "tools[1].permissions"]);
    for (const problem of problems) expect(problem.message, problem.path).not.toMatch(/^(Invalid|Too (small|big)|Expected)\b/);
  });
});

describe("every procedure, sent bad input", () => {
  it("answers each with a sentence naming the field, never a dump of issues, SQL, a stack or a driver's words", async () => {
    const { appRouter } = await import("@/server/trpc/router");
    const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: "query" | "mutation" | "subscription"; inputs: unknown[] } }>);
    expect(procedures.length).toBeGreaterThan(40);
    let refusals = 0;
    for (const [name, procedure] of procedures) {
      const { type, inputs } = procedure._def;
      for (const input of badInputs(inputs[0])) {
        const what = `${name}(${JSON.stringify(input)})`;
        const answer = await send(name, type, input);
        expectClean(answer, what);
        const issues = (answer.error?.data.issues ?? null) as { path: string; message: string }[] | null;
        if (answer.status !== 400 || !issues) continue;
        refusals++;
        for (const issue of issues) expect(issue.message, what).toMatch(/^[^[{].*[.!?]$/s);
        // The field sent wrong is named by its own issue, first in the sentence unless the schema's author wrote it.
        const [key] = input !== null && typeof input === "object" && !Array.isArray(input) ? Object.keys(input) : [];
        const own = key === undefined ? undefined : issues.find((issue) => issue.path === key || issue.path.startsWith(`${key}.`));
        if (own && !AUTHORS.has(own.message)) expect(own.message, what).toMatch(new RegExp(`^${key}\\b`));
      }
    }
    expect(refusals).toBeGreaterThan(100);
  }, 240_000);
});

/** Sentences a schema's author wrote for a field, in words rather than by its name. */
const AUTHORS = new Set(["Send the agent's declaration."]);

/** Wrong types and missing fields for a procedure's input schema: nothing at all, the wrong kind of value, and each field wrong. */
function badInputs(schema: unknown): unknown[] {
  if (schema === undefined) return [undefined];
  const out: unknown[] = [undefined, 42, "text", [1], {}];
  const shape = objectShape(schema);
  for (const key of Object.keys(shape)) {
    out.push({ [key]: 12345 }, { [key]: { nested: true } }, { [key]: NUL }, { [key]: LONE }, { [key]: [NUL] });
  }
  return out;
}

function objectShape(schema: unknown): Record<string, unknown> {
  let def = (schema as { _zod?: { def: { type: string; shape?: Record<string, unknown>; innerType?: unknown } } } | undefined)?._zod?.def;
  while (def && (def.type === "optional" || def.type === "nullable" || def.type === "default")) {
    def = (def.innerType as { _zod: { def: typeof def } })._zod.def;
  }
  return def?.type === "object" ? (def.shape ?? {}) : {};
}
