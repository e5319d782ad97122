// What the runs API refuses, over real HTTP, each in the one envelope { error: { code, message } } with its status
// and a sentence: no key or a bad one (401), a missing scope or agent (403), a run of an agent the key may not use
// answered as no such run (404), input its schemas refuse (400, naming the field), too large a body (413), a key
// over its rate (429 with Retry-After), and an unexpected error (500 with an id, nothing of its own words)
// (R-api-runs-envelope, R-api-runs-foreign).
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { text } from "@/tests/support/loopback-model";
import type { ErrorBody } from "@/server/api/edge";
import { serveOverHttp } from "../http/studio";
import { apiStudio, bearer, call, readEvents, type ApiStudio, type RunStarted } from "./runs-studio";

let s: ApiStudio;
let mine: string;
let theirs: string;
let all: string;
let onlyMine: string;
let theirRun: string;

const UNKNOWN_RUN = "0f8fad5b-d9cb-469f-a165-70867728950e";

beforeAll(async () => {
  s = await apiStudio("api-runs-refusals");
  mine = await s.agent("mine");
  theirs = await s.agent("theirs");
  all = (await s.key({ name: "everything" })).value;
  onlyMine = (await s.key({ name: "only mine", agents: [mine] })).value;
  s.model.reply(text("Hello."));
  const started = await call<RunStarted>(`${s.url}/api/v1/agents/${theirs}/runs`, { key: all, body: { message: "Hi." } });
  theirRun = started.json!.runId;
  await readEvents(`${s.url}/api/v1/runs/${theirRun}/events`, bearer(all));
});
beforeEach(async () => {
  const { forgetKeyRequests } = await import("@/server/keys/rate");
  forgetKeyRequests();
});
afterAll(async () => s?.close());

const api = (path: string) => `${s.url}/api/v1${path}`;

/** The envelope, and that nothing of the server's insides is in it. */
function refused(answer: Awaited<ReturnType<typeof call<ErrorBody>>>, status: number, code: string): string {
  expect({ status: answer.status, code: answer.json?.error.code }).toEqual({ status, code });
  expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
  expect(answer.json!.error.message).toMatch(/^\S.*[.!?]$/s);
  expect(answer.text).not.toMatch(/\bat .+:\d+:\d+|select |insert |postgres|pglite/i);
  return answer.json!.error.message;
}

describe("the key", () => {
  it("401: no key, one not shaped as a key, and a key sent with the studio's session cookie", async () => {
    const none = await call(api(`/agents/${mine}/runs`), { body: { message: "Hi." } });
    expect(refused(none, 401, "NO_KEY")).toContain("Authorization: Bearer");
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="quiver"');
    refused(await call(api(`/runs/${theirRun}`), { key: "qk_short" }), 401, "BAD_KEY");
    const withCookie = await call(api(`/runs/${theirRun}`), { key: all, headers: { cookie: "quiver.session_token=abc" } });
    refused(withCookie, 401, "SESSION_COOKIE");
  });

  it("401 before anything else: a form another site posts without a key starts nothing, whatever its origin", async () => {
    const { getDb } = await import("@/server/db");
    const { runs } = await import("@/db/schema");
    const before = (await (await getDb()).select().from(runs)).length;
    const answer = await call(api(`/agents/${mine}/runs`), { raw: "not even json", headers: { origin: "http://evil.example" } });
    refused(answer, 401, "NO_KEY");
    expect((await (await getDb()).select().from(runs)).length).toBe(before);
  });

  it("403: a key without the route's scope, and a key that may not use the agent", async () => {
    const reader = (await s.key({ scopes: ["read"] })).value;
    expect(refused(await call(api(`/agents/${mine}/runs`), { key: reader, body: { message: "Hi." } }), 403, "KEY_SCOPE")).toContain("may not start or continue runs");
    refused(await call(api(`/runs/${theirRun}/decisions`), { key: reader, body: { callId: "c", decision: "deny" } }), 403, "KEY_SCOPE");
    refused(await call(api(`/runs/${theirRun}/cancel`), { key: reader, method: "POST" }), 403, "KEY_SCOPE");
    const runner = (await s.key({ scopes: ["run"] })).value;
    refused(await call(api(`/runs/${theirRun}`), { key: runner }), 403, "KEY_SCOPE");
    expect(refused(await call(api(`/agents/${theirs}/runs`), { key: onlyMine, body: { message: "Hi." } }), 403, "KEY_AGENT")).toContain("may not use this agent");
  });

  it("429 with Retry-After once a key has made its requests for the minute; another key goes on", async () => {
    const slow = (await s.key({ ratePerMinute: 2 })).value;
    for (let i = 0; i < 2; i++) expect((await call(api(`/runs/${theirRun}`), { key: slow })).status).toBe(200);
    const over = await call(api(`/runs/${theirRun}`), { key: slow });
    refused(over, 429, "KEY_RATE_LIMITED");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await call(api(`/runs/${theirRun}`), { key: all })).status).toBe(200);
  });
});

describe("runs the key may not see", () => {
  it("404: a run of an agent the key may not use reads exactly as a run that does not exist, on every route", async () => {
    const unknown = refused(await call(api(`/runs/${UNKNOWN_RUN}`), { key: onlyMine }), 404, "NO_SUCH_RUN");
    const routes: [string, { method?: string; body?: unknown }][] = [
      [`/runs/${theirRun}`, {}],
      [`/runs/${theirRun}/messages`, { body: { message: "Hi." } }],
      [`/runs/${theirRun}/decisions`, { body: { callId: "c", decision: "approve_once" } }],
      [`/runs/${theirRun}/answers`, { body: { callId: "c", answer: null } }],
      [`/runs/${theirRun}/cancel`, { method: "POST" }],
    ];
    for (const [path, init] of routes) expect(refused(await call(api(path), { key: onlyMine, ...init }), 404, "NO_SUCH_RUN")).toBe(unknown);
    const events = await call(api(`/runs/${theirRun}/events`), { key: onlyMine });
    expect(refused(events, 404, "NO_SUCH_RUN")).toBe(unknown);
    // The same run is there for a key that may use its agent.
    expect((await call(api(`/runs/${theirRun}`), { key: all })).status).toBe(200);
  });

  it("404 for an agent that does not exist", async () => {
    refused(await call(api(`/agents/${UNKNOWN_RUN}/runs`), { key: all, body: { message: "Hi." } }), 404, "NO_SUCH_AGENT");
  });
});

describe("input", () => {
  it("400 naming the field: a run id that is no id, an empty message, an unknown decision, a field it does not take, a NUL", async () => {
    expect(refused(await call(api("/runs/not-a-run"), { key: all }), 400, "INVALID_INPUT")).toBe("id is not an id the studio made (a UUID such as 0f8fad5b-d9cb-469f-a165-70867728950e); send one.");
    const empty = await call(api(`/agents/${mine}/runs`), { key: all, body: { message: "   " } });
    expect(refused(empty, 400, "INVALID_INPUT")).toBe("message is empty; send at least one character.");
    expect(empty.json!.error.issues).toEqual([{ path: "message", message: "message is empty; send at least one character." }]);
    const decision = await call(api(`/runs/${theirRun}/decisions`), { key: all, body: { callId: "c", decision: "approve" } });
    expect(refused(decision, 400, "INVALID_INPUT")).toBe('decision must be one of "approve_once", "approve_always_in_run", "deny"; send one of them.');
    const extra = await call(api(`/agents/${mine}/runs`), { key: all, body: { message: "Hi.", model: "gpt" } });
    expect(refused(extra, 400, "INVALID_INPUT")).toBe("The input has fields it does not take (model); send it without them.");
    const nul = await call(api(`/agents/${mine}/runs`), { key: all, body: { message: "a\u0000b" } });
    expect(refused(nul, 400, "INVALID_INPUT")).toMatch(/^message contains a NUL character \(U\+0000\) at character 2; remove it/);
    const missing = await call(api(`/runs/${theirRun}/answers`), { key: all, body: { answer: "x" } });
    expect(refused(missing, 400, "INVALID_INPUT")).toBe("callId is missing; send it as text.");
  });

  it("400 for a body that is empty or not JSON, and for an event id that is not one", async () => {
    refused(await call(api(`/agents/${mine}/runs`), { key: all, raw: "" }), 400, "INVALID_BODY");
    refused(await call(api(`/agents/${mine}/runs`), { key: all, raw: '{"message": "cut' }), 400, "INVALID_JSON");
    const header = await call(api(`/runs/${theirRun}/events`), { key: all, headers: { "last-event-id": "yesterday" } });
    expect(refused(header, 400, "INVALID_INPUT")).toContain("An event id is a number such as 42");
  });

  it("413 for a body over the studio's limit", async () => {
    const big = JSON.stringify({ message: "x".repeat(9 * 1024 * 1024) });
    expect(refused(await call(api(`/agents/${mine}/runs`), { key: all, raw: big }), 413, "BODY_TOO_LARGE")).toContain("over the studio's limit of 8 MB");
  });
});

describe("the unexpected", () => {
  it("500 with one sentence and an error id, never the error's own words", async () => {
    const { keyRoute } = await import("@/server/api/edge");
    const { getRunSpec } = await import("@/server/api/runs-specs");
    const failing = keyRoute(getRunSpec, async () => {
      throw new Error('Failed query: select value from secrets where name = $1\nparams: sk-live-123 at Object.<anonymous> (/srv/db.ts:1:2)');
    });
    const server = await serveOverHttp(failing);
    try {
      const port = (server.address() as AddressInfo).port;
      const answer = await call(`http://127.0.0.1:${port}/api/v1/runs/${theirRun}`, { key: all });
      const message = refused(answer, 500, "INTERNAL");
      const errorId = answer.json!.error.errorId!;
      expect(errorId).toMatch(/^[0-9a-f]{12}$/);
      expect(message).toBe(`Something went wrong on the server; error id ${errorId}; the server log has the details.`);
      expect(answer.text).not.toMatch(/secrets|sk-live|db\.ts/);
    } finally {
      server.close();
    }
  });
});
