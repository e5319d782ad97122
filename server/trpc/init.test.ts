// The error formatter, over HTTP as a browser receives it: an unexpected error is one sentence with an error id and
// the server log has the details under that id, masked, and without a query's parameters (R-error-id); refused
// input is a sentence (R-input-sentence); no answer carries a stack.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "quiver-formatter-"));
process.env.QUIVER_DATA_DIR = path.join(scratch, "data");
process.env.QUIVER_TOOLS_DIR = scratch;
process.env.QUIVER_SECRET_KEY ??= "6b".repeat(32);
process.env.DATABASE_URL = "";

const STORED = "sk-stored-0123456789abcdef";
const CARRIED = "sk-carried-fedcba9876543210";

async function testRouter() {
  const { publicProcedure, router } = await import("./init");
  const { getDb } = await import("@/server/db");
  const { secrets } = await import("@/db/schema");
  const { encryptSecret } = await import("@/server/secrets/crypto");
  return router({
    // A real driver error: an insert PostgreSQL refuses, whose parameters hold a ciphertext.
    insert: publicProcedure.input(z.object({ value: z.string() })).mutation(async ({ input }) => {
      const db = await getDb();
      await db.insert(secrets).values({ name: "NUL_SECRET", description: "a\u0000b", ciphertext: encryptSecret("NUL_SECRET", input.value), createdBy: "u", updatedBy: "u" });
    }),
    leaky: publicProcedure.input(z.object({ value: z.string() })).mutation(({ input }) => {
      throw new Error(`the upstream refused ${STORED} and ${input.value}`);
    }),
    typed: publicProcedure.input(z.object({ name: z.string() })).mutation(() => "ok"),
  });
}

async function post(procedure: string, input: unknown) {
  const router = await testRouter();
  const response = await fetchRequestHandler({
    endpoint: "/api/trpc",
    req: new Request(`http://studio.test/api/trpc/${procedure}`, { method: "POST", body: JSON.stringify(input), headers: { "content-type": "application/json" } }),
    router,
    createContext: () => ({ headers: new Headers(), user: null }),
  });
  const text = await response.text();
  return { status: response.status, text, error: (JSON.parse(text) as { error: { message: string; data: Record<string, unknown> } }).error };
}

/** The log line written for an error id, once its masker is ready. */
async function logged(spy: { mock: { calls: unknown[][] } }, id: string): Promise<string> {
  await vi.waitFor(() => expect(spy.mock.calls.some((call) => String(call[0]).includes(id))).toBe(true));
  return String(spy.mock.calls.find((call) => String(call[0]).includes(id))![0]);
}

beforeAll(async () => {
  const { getDb } = await import("@/server/db");
  const { createSecret } = await import("@/server/secrets/store");
  await createSecret(await getDb(), "admin", { name: "STORED_TOKEN", value: STORED });
});
afterEach(() => vi.restoreAllMocks());
afterAll(async () => {
  const { closeDatabase } = await import("@/server/db");
  await closeDatabase();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe("an unexpected error", () => {
  it("answers one sentence with an error id, never the SQL, its parameters or the driver's words", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { status, text, error } = await post("insert", { value: CARRIED });
    expect(status).toBe(500);
    expect(error.message).toMatch(/^Something went wrong on the server; error id ([0-9a-f]{12}); the server log has the details\.$/);
    expect(error.data.errorId).toBe(error.message.match(/error id ([0-9a-f]{12})/)![1]);
    expect(text.replace('"path":"insert"', "")).not.toMatch(/insert|secrets|v1:|stack|UTF8|at /i);
    const line = await logged(spy, String(error.data.errorId));
    expect(line).toContain("in tRPC insert");
    expect(line).toMatch(/Failed query: insert into "secrets"/);
    expect(line).toMatch(/caused by:\n.*0x00/);
    // The parameters (the name, the description, the ciphertext) never reach the log.
    expect(line).not.toMatch(/params|v1:[A-Za-z0-9+/=]+:/);
  });

  it("logs the details masked with every stored secret's value and the clear values the request carried", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { error } = await post("leaky", { value: CARRIED });
    expect(error.message).not.toContain(STORED);
    const line = await logged(spy, String(error.data.errorId));
    expect(line).toContain("Error: the upstream refused *** and ***");
    expect(line).not.toContain(STORED);
    expect(line).not.toContain(CARRIED);
    expect(line).toMatch(/\n\s+at /);
  });
});

describe("refused input", () => {
  it("is a sentence naming the field, with the issues for the form and no stack", async () => {
    const { status, error } = await post("typed", { name: 5 });
    expect(status).toBe(400);
    expect(error.message).toBe("name must be text; send it as text.");
    expect(error.data).toMatchObject({ code: "BAD_REQUEST", issues: [{ path: "name", message: "name must be text; send it as text." }], errorId: null });
    expect(error.data).not.toHaveProperty("stack");
  });
});
