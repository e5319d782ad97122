// What the runs API's tests share: a scratch studio (PGlite in a temp folder, a small tree, the loopback model), every
// route file under app/api/v1 served over real HTTP on 127.0.0.1 as Next would route it, API keys made in the table,
// agents made through the real store, and a reader of server-sent events. Edit when a test needs another helper.
import fs from "node:fs";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathParams, type ErrorBody } from "@/server/api/edge";
import { startLoopbackModel, type LoopbackModel } from "@/tests/support/loopback-model";
import { freshStudio, serveOverHttp } from "../http/studio";

const V1 = path.join(process.cwd(), "app", "api", "v1");
export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

export type RouteFile = { file: string; pattern: string; methods: string[]; module: Record<string, unknown> };

/** Every route.ts under app/api/v1, with the OpenAPI-style path its folder makes ([id] → {id}) and its methods. */
export async function routeFiles(): Promise<RouteFile[]> {
  const found: RouteFile[] = [];
  const walk = async (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.name === "route.ts") {
        const folder = path.relative(path.join(process.cwd(), "app"), dir).split(path.sep);
        const pattern = "/" + folder.map((part) => part.replace(/^\[(\w+)\]$/, "{$1}")).join("/");
        const exports = (await import(full)) as Record<string, unknown>;
        found.push({ file: path.relative(process.cwd(), full), pattern, methods: METHODS.filter((m) => typeof exports[m] === "function"), module: exports });
      }
    }
  };
  await walk(V1);
  return found;
}

export type ApiStudio = {
  url: string;
  model: LoopbackModel;
  builderId: string;
  /** A saved agent on the loopback model; returns its id. */
  agent(name: string, tools?: unknown[]): Promise<string>;
  /** An API key in the table, as an admin would make it; returns its value and id. */
  key(options?: { name?: string; scopes?: ("run" | "read" | "decide")[]; agents?: "all" | string[]; ratePerMinute?: number }): Promise<{ value: string; id: string; name: string }>;
  close(): Promise<void>;
};

let keys = 0;

export async function apiStudio(name: string, files: Record<string, string> = {}): Promise<ApiStudio> {
  process.env.QUIVER_SECRET_KEY ??= "6b".repeat(32);
  const studio = freshStudio(name, files);
  const model = await startLoopbackModel();
  const { getDb } = await import("@/server/db");
  const { user, apiKeys } = await import("@/db/schema");
  const db = await getDb();
  const builderId = "user-bea";
  await db.insert(user).values({ id: builderId, email: "bea@quiver.test", name: "Bea", role: "builder" });
  const routes = await routeFiles();
  const server: http.Server = await serveOverHttp(async (request) => {
    const pathname = new URL(request.url).pathname;
    const route = routes.find((r) => pathParams(r.pattern, pathname) !== null);
    const handler = route?.module[request.method] as ((request: Request) => Promise<Response>) | undefined;
    if (!handler) return new Response("no such route", { status: route ? 405 : 404 });
    return handler(request);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    model,
    builderId,
    async agent(agentName, tools = []) {
      const { createAgent } = await import("@/server/agents/store");
      const { workspaceDir } = await import("@/server/system/filesystem/workspace");
      const declaration = { name: agentName, model: { provider: "openai-compatible", model: "loopback", base_url: model.url }, tools };
      return (await createAgent(db, builderId, declaration, { tree: studio.tree, workspace: workspaceDir(studio.dataDir) })).id;
    },
    async key(options = {}) {
      const { newKeyValue } = await import("@/server/keys/value");
      const made = newKeyValue();
      const keyName = options.name ?? `key ${++keys}`;
      const [row] = await db
        .insert(apiKeys)
        .values({
          name: keyName,
          prefix: made.prefix,
          hash: made.hash,
          agents: options.agents ?? "all",
          scopes: options.scopes ?? ["run", "read", "decide"],
          ratePerMinute: options.ratePerMinute ?? 1000,
          createdBy: "user-admin",
        })
        .returning({ id: apiKeys.id });
      return { value: made.value, id: row!.id, name: keyName };
    },
    async close() {
      const { studioRuntime } = await import("@/server/runtime");
      await (await studioRuntime()).shutdown();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await model.close();
      await studio.close();
    },
  };
}

export type SseEvent = { id: string | null; event: string | null; data: { id: string; type: string; data: Record<string, unknown> } | null };
export type SseRead = { status: number; headers: Headers; events: SseEvent[]; comments: string[]; ended: boolean };

/**
 * Reads a server-sent event stream until it ends, `stop` says so after an event, or `ms` pass (then `ended` is
 * false and the connection is dropped, as a client that goes away drops it).
 */
export async function readEvents(url: string, headers: Record<string, string>, stop: (event: SseEvent, all: SseEvent[]) => boolean = () => false, ms = 20_000): Promise<SseRead> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const answer = await fetch(url, { headers, signal: controller.signal });
  const out = { status: answer.status, headers: answer.headers, events, comments, ended: false };
  if (!answer.body || !answer.headers.get("content-type")?.startsWith("text/event-stream")) {
    clearTimeout(timer);
    return out;
  }
  const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        out.ended = true;
        return out;
      }
      buffer += value;
      for (let cut = buffer.indexOf("\n\n"); cut >= 0; cut = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const event: SseEvent = { id: null, event: null, data: null };
        let isEvent = false;
        for (const line of block.split("\n")) {
          if (line.startsWith(":")) comments.push(line.slice(1).trim());
          else if (line.startsWith("id: ")) event.id = line.slice(4);
          else if (line.startsWith("event: ")) event.event = line.slice(7);
          else if (line.startsWith("data: ")) {
            isEvent = true;
            event.data = JSON.parse(line.slice(6)) as SseEvent["data"];
          }
        }
        if (!isEvent) continue;
        events.push(event);
        if (stop(event, events)) return out;
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
    return out;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

/** The usual headers of a key request. */
export const bearer = (value: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${value}`, ...extra });

/** A JSON request to the API, answered as status, headers and the body parsed as `T` (null when it is not JSON). */
export async function call<T = ErrorBody>(url: string, init: { method?: string; key?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...(init.key ? bearer(init.key) : {}), ...(init.body !== undefined || init.raw !== undefined ? { "content-type": "application/json" } : {}), ...init.headers };
  const answer = await fetch(url, { method: init.method ?? (init.body !== undefined || init.raw !== undefined ? "POST" : "GET"), headers, body: init.raw ?? (init.body !== undefined ? JSON.stringify(init.body) : undefined) });
  const text = await answer.text();
  let json: T | null = null;
  try {
    json = JSON.parse(text) as T;
  } catch {
    json = null;
  }
  return { status: answer.status, headers: answer.headers, json, text };
}

export type RunStarted = { runId: string; status: string; links: { run: string; events: string } };
export type { RunView } from "@/server/api/runs-view";
