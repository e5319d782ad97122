// /api/metrics over real HTTP on a scratch studio: who may read it (a metrics key, an admin's session) and the
// sentences for everyone else, nothing cacheable, a metrics key that opens nothing else, and the figures a real run
// leaves: a step, its tool call, its overhead, the runs by status as the database counts them, the queue, and a
// tool host killed under it (R-metrics-access, R-metrics-key, R-metrics-names, R-metrics-labels, R-metrics-process).
import type http from "node:http";
import type { AddressInfo } from "node:net";
import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call as modelCall, text } from "@/tests/support/loopback-model";
import { addUser, serveOverHttp, sessionCookie } from "../http/studio";
import { apiStudio, bearer, call, type ApiStudio, type RunStarted } from "../api/runs-studio";

const NOTES = `"""Notes."""


def write(subject: str) -> str:
    """Write one note.

    Args:
        subject: The note's name.
    """
    return f"wrote {subject}"
`;

let s: ApiStudio;
let metricsUrl: string;
let server: http.Server;
let agent: string;
let scraper: { value: string; id: string };
let runKey: { value: string; id: string };
let admin: string;
let builder: string;

/** A key made in the table as the store makes a metrics key: the one scope, no agents (R-metrics-key). */
async function metricsKey(name: string): Promise<{ value: string; id: string }> {
  const { getDb } = await import("@/server/db");
  const { apiKeys } = await import("@/db/schema");
  const { newKeyValue } = await import("@/server/keys/value");
  const made = newKeyValue();
  const [row] = await (await getDb())
    .insert(apiKeys)
    .values({ name, prefix: made.prefix, hash: made.hash, agents: [], scopes: ["metrics"], ratePerMinute: 1000, createdBy: "user-admin" })
    .returning({ id: apiKeys.id });
  return { value: made.value, id: row!.id };
}

beforeAll(async () => {
  s = await apiStudio("metrics", { "notes.py": NOTES });
  agent = await s.agent("scribe", [{ entry: "tools/notes.py", permissions: { notes__write: "ALLOW" } }]);
  runKey = await s.key({ name: "ci job", scopes: ["run", "read"] });
  scraper = await metricsKey("prometheus");
  await addUser("ada@quiver.test", "admin");
  await addUser("dev@quiver.test", "developer");
  admin = await sessionCookie("ada@quiver.test");
  builder = await sessionCookie("dev@quiver.test");
  const { GET } = await import("@/app/api/metrics/route");
  server = await serveOverHttp((request) => GET(request));
  metricsUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/metrics`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await s?.close();
});

/** The sample lines of the text format, as name{labels} → value. */
function samples(body: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of body.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    found.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return found;
}

async function scrape(headers: Record<string, string> = bearer(scraper.value)): Promise<Map<string, number>> {
  const answer = await fetch(metricsUrl, { headers });
  expect(answer.status, await answer.clone().text()).toBe(200);
  return samples(await answer.text());
}

async function refusal(headers: Record<string, string>): Promise<{ status: number; code: string; message: string; headers: Headers }> {
  const answer = await fetch(metricsUrl, { headers });
  const body = (await answer.json()) as { error: { code: string; message: string } };
  return { status: answer.status, headers: answer.headers, ...body.error };
}

const SENTENCE = /^[A-Z][^\n]*\.$/;

describe("who may read /api/metrics", () => {
  it("R-metrics-access: answers a metrics key in Prometheus's text format, never cached, and audits the read", async () => {
    const answer = await fetch(metricsUrl, { headers: bearer(scraper.value) });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const body = await answer.text();
    expect(body).toContain("# TYPE quiver_run_steps_total counter");
    // Node's own process metrics join from the first read on.
    expect(body).toMatch(/^process_resident_memory_bytes \d+/m);
    const { getDb } = await import("@/server/db");
    const { audit } = await import("@/db/schema");
    const [row] = await (await getDb()).select({ n: count() }).from(audit).where(and(eq(audit.actor, `key:${scraper.id}`), eq(audit.action, "metrics.read")));
    expect(row!.n).toBeGreaterThan(0);
  });

  it("R-metrics-access: answers an admin's session", async () => {
    const answer = await fetch(metricsUrl, { headers: { cookie: admin } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(await answer.text()).toContain("# TYPE quiver_runs gauge");
  });

  it("R-metrics-access: refuses no credential with 401, a developer's session with 403, each in a sentence and uncached", async () => {
    const none = await refusal({});
    expect(none).toMatchObject({ status: 401, code: "NO_CREDENTIAL" });
    expect(none.message).toMatch(SENTENCE);
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="quiver"');
    expect(none.headers.get("cache-control")).toBe("no-store");

    const developer = await refusal({ cookie: builder });
    expect(developer).toMatchObject({ status: 403, code: "NOT_ADMIN" });
    expect(developer.message).toMatch(SENTENCE);
    expect(developer.headers.get("cache-control")).toBe("no-store");

    const ended = await refusal({ cookie: "quiver.session_token=not-a-session" });
    expect(ended).toMatchObject({ status: 401, code: "SESSION_ENDED" });
    expect(ended.message).toMatch(SENTENCE);
  });

  it("R-metrics-access: refuses an admin's cookie that another site's page sent, and a key sent with the cookie", async () => {
    const foreign = await refusal({ cookie: admin, "sec-fetch-site": "cross-site" });
    expect(foreign).toMatchObject({ status: 403, code: "CROSS_SITE" });
    const both = await refusal({ cookie: admin, ...bearer(scraper.value), origin: new URL(metricsUrl).origin });
    expect(both).toMatchObject({ status: 401, code: "SESSION_COOKIE" });
  });

  it("R-metrics-key: refuses a key without the metrics scope, and the metrics key everywhere else", async () => {
    const other = await refusal(bearer(runKey.value));
    expect(other).toMatchObject({ status: 403, code: "KEY_SCOPE" });
    expect(other.message).toBe("This API key may not read the studio's metrics; ask an admin for a key in Settings → API keys that may.");
    const models = await call(`${s.url}/api/v1/models`, { key: scraper.value });
    expect(models.status).toBe(403);
    const start = await call(`${s.url}/api/v1/agents/${agent}/runs`, { key: scraper.value, body: { message: "Write about tea." } });
    expect(start.status).toBe(403);
  });
});

describe("what a run leaves in the metrics", () => {
  it("R-metrics-names: counts a run's step, times its tool call by source and outcome, and observes its overhead", async () => {
    const before = await scrape();
    s.model.reply(modelCall("notes__write", { subject: "tea" }), text("Wrote the note on tea."));
    const started = await call<RunStarted>(`${s.url}/api/v1/agents/${agent}/runs`, { key: runKey.value, body: { message: "Write about tea." } });
    expect(started.status).toBe(201);
    const runId = started.json!.runId;
    const { getDb } = await import("@/server/db");
    const { runs } = await import("@/db/schema");
    const db = await getDb();
    const deadline = Date.now() + 30_000;
    while ((await db.select({ status: runs.status }).from(runs).where(eq(runs.id, runId)))[0]?.status !== "done" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const after = await scrape();
    const grew = (name: string) => (after.get(name) ?? 0) - (before.get(name) ?? 0);
    // One step: the model's reply with its call; the closing reply without a call is not a step.
    expect(grew("quiver_run_steps_total")).toBe(1);
    expect(grew("quiver_step_overhead_seconds_count")).toBe(1);
    expect(grew('quiver_tool_call_seconds_count{source="tree",outcome="ok"}')).toBe(1);
    expect(grew('quiver_tool_call_seconds_bucket{le="+Inf",source="tree",outcome="ok"}')).toBe(1);
    expect(grew('quiver_tool_call_seconds_sum{source="tree",outcome="ok"}')).toBeGreaterThan(0);
  });

  it("R-metrics-process: gives runs by status as the database counts them, every status present, and the queue's depth", async () => {
    const { getDb } = await import("@/server/db");
    const { runs, runStatuses } = await import("@/db/schema");
    const stored = await (await getDb()).select({ status: runs.status, n: count() }).from(runs).groupBy(runs.status);
    const read = await scrape({ cookie: admin });
    for (const status of runStatuses) {
      expect(read.get(`quiver_runs{status="${status}"}`), status).toBe(stored.find((row) => row.status === status)?.n ?? 0);
    }
    expect(read.get('quiver_runs{status="done"}')).toBeGreaterThan(0);
    expect(read.get('quiver_run_queue_depth{queue="quiver-runs"}')).toBe(0);
  });

  it("R-metrics-labels: labels nothing with a tool's, an agent's or a key's name", async () => {
    const body = await (await fetch(metricsUrl, { headers: bearer(scraper.value) })).text();
    const quiver = body.split("\n").filter((line) => line.startsWith("quiver_"));
    expect(quiver.length).toBeGreaterThan(0);
    for (const word of ["notes", "write", "scribe", "ci job", "prometheus", agent]) expect(quiver.join("\n")).not.toContain(word);
  });

  it("R-metrics-names: counts a tool host that died under the studio as a restart, exited", async () => {
    const { hostFor } = await import("@/server/host");
    const host = hostFor((await import("@/server/env")).env().toolsDir);
    const pid = (await host.ready()).pid;
    expect(pid).not.toBeNull();
    const before = (await scrape()).get('quiver_tool_host_restarts_total{reason="exited"}') ?? 0;
    process.kill(pid!, "SIGKILL");
    const deadline = Date.now() + 15_000;
    let now = before;
    while (now === before && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      now = (await scrape()).get('quiver_tool_host_restarts_total{reason="exited"}') ?? 0;
    }
    expect(now).toBe(before + 1);
  });
});
