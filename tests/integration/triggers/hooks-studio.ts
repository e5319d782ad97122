// What the webhook tests share: a scratch studio (PGlite in a temp folder, the loopback model), the route file under
// app/api/hooks served over real HTTP on 127.0.0.1 as Next would route it, a builder who makes the webhooks, and an
// agent made through the real store. Edit when a test needs another helper.
import type http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { startLoopbackModel, type LoopbackModel } from "@/tests/support/loopback-model";
import { freshStudio, serveOverHttp } from "../http/studio";

export type HookStudio = {
  url: string;
  model: LoopbackModel;
  builderId: string;
  /** A saved agent on the loopback model; returns its id. */
  agent(name: string): Promise<string>;
  close(): Promise<void>;
};

export async function hookStudio(name: string): Promise<HookStudio> {
  process.env.QUIVER_SECRET_KEY ??= "6b".repeat(32);
  const studio = freshStudio(name);
  const model = await startLoopbackModel();
  const { getDb } = await import("@/server/db");
  const { user } = await import("@/db/schema");
  const db = await getDb();
  const builderId = "user-bea";
  await db.insert(user).values({ id: builderId, email: "bea@quiver.test", name: "Bea", role: "builder" });
  const route = (await import(path.join(process.cwd(), "app", "api", "hooks", "[agent]", "[token]", "route.ts"))) as { POST: (request: Request) => Promise<Response> };
  const server: http.Server = await serveOverHttp((request) => {
    if (!new URL(request.url).pathname.startsWith("/api/hooks/")) return new Response("no such route", { status: 404 });
    return request.method === "POST" ? route.POST(request) : new Response("method not allowed", { status: 405 });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    model,
    builderId,
    async agent(agentName) {
      const { createAgent } = await import("@/server/agents/store");
      const { workspaceDir } = await import("@/server/system/filesystem/workspace");
      const declaration = { name: agentName, model: { provider: "openai-compatible", model: "loopback", base_url: model.url }, tools: [] };
      return (await createAgent(db, builderId, declaration, { tree: studio.tree, workspace: workspaceDir(studio.dataDir) })).id;
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

/** A POST to a webhook's address, answered as status, headers and the body parsed as JSON (null when it is not). */
export async function post<T = { error: { code: string; message: string } }>(url: string, body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}) {
  const answer = await fetch(url, { method: "POST", headers, body });
  const text = await answer.text();
  let json: T | null = null;
  try {
    json = JSON.parse(text) as T;
  } catch {
    json = null;
  }
  return { status: answer.status, headers: answer.headers, json, text };
}

export type HookAnswer = { runId: string; status: string; reply?: string; error?: string | null; missing?: string[]; links: { run: string } };
