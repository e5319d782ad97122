// What the OpenAI-compatible endpoint's tests share: a throwaway studio (data folder, tree, PGlite) reached through
// the real route handlers of app/api/v1 on a loopback HTTP server, the loopback model behind its agents, API keys
// made straight in the table, and the official openai client pointed at it all.
import type http from "node:http";
import type { AddressInfo } from "node:net";
import OpenAI from "openai";
import { apiKeys, type KeyAgents, type KeyScope } from "@/db/schema";
import { newKeyValue } from "@/server/keys/value";
import { startLoopbackModel } from "@/tests/support/loopback-model";
import { addUser, freshStudio, serveOverHttp } from "../http/studio";

// Before anything reads the configuration: one studio key for the whole file (it is cached per process).
process.env.QUIVER_SECRET_KEY ??= "6b".repeat(32);

export type ChatStudio = Awaited<ReturnType<typeof chatStudio>>;

let keys = 0;
let agents = 0;

export async function chatStudio(name: string, files: Record<string, string> = {}, options: { beatMs?: number } = {}) {
  const studio = freshStudio(name, files);
  const { hostFor } = await import("@/server/host");
  hostFor(studio.tree, { sandbox: false, dataDir: studio.dataDir });
  const { getDb } = await import("@/server/db");
  const { studioRuntime } = await import("@/server/runtime");
  const { createAgent } = await import("@/server/agents/store");
  const { workspaceDir } = await import("@/server/system/filesystem/workspace");
  const { chatCompletions } = await import("@/server/api/chat");
  const models = await import("@/app/api/v1/models/route");
  const route = await import("@/app/api/v1/chat/completions/route");
  const db = await getDb();
  const owner = await addUser(`owner-${name}@quiver.test`, "admin");
  const model = await startLoopbackModel();
  // The route's own handler, unless a test wants a shorter beat than the route's 15 seconds.
  const chat = options.beatMs ? chatCompletions({ beatMs: options.beatMs }) : route.POST;
  const server: http.Server = await serveOverHttp((request) => (new URL(request.url).pathname === "/api/v1/models" ? models.GET(request) : chat(request)));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    db,
    model,
    base,
    chat,
    runtime: () => studioRuntime(),
    /** A saved agent on the loopback model; returns its id and name. */
    async agent(declaration: Record<string, unknown> = {}) {
      const made = await createAgent(
        db,
        owner,
        { name: `agent ${name} ${++agents}`, model: { provider: "openai-compatible", model: "loopback", base_url: model.url }, tools: [], ...declaration },
        { tree: studio.tree, workspace: workspaceDir(studio.dataDir) },
      );
      return { id: made.id, name: made.name };
    },
    /** A live key; returns its value, id and name. */
    async key(options: { scopes?: KeyScope[]; agents?: KeyAgents; waitLimitS?: number } = {}) {
      const value = newKeyValue();
      const keyName = `key ${name} ${++keys}`;
      const [row] = await db
        .insert(apiKeys)
        .values({
          name: keyName,
          prefix: value.prefix,
          hash: value.hash,
          agents: options.agents ?? "all",
          scopes: options.scopes ?? ["run"],
          waitLimitS: options.waitLimitS ?? 300,
          ratePerMinute: 10_000,
          createdBy: owner,
        })
        .returning();
      return { value: value.value, id: row!.id, name: keyName };
    },
    /** The official client, as a program outside the studio would use it. */
    client(keyValue: string) {
      return new OpenAI({ apiKey: keyValue, baseURL: `${base}/api/v1`, maxRetries: 0 });
    },
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await (await studioRuntime()).shutdown();
      await model.close();
      await studio.close();
    },
  };
}

/** What a streamed answer held: its chunks as parsed JSON, its SSE comments, and when each arrived. */
export async function readStream(response: Response): Promise<{ events: string[]; comments: { text: string; at: number }[]; raw: string }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let raw = "";
  const comments: { text: string; at: number }[] = [];
  const events: string[] = [];
  let buffer = "";
  for (let part = await reader.read(); !part.done; part = await reader.read()) {
    const text = decoder.decode(part.value, { stream: true });
    raw += text;
    buffer += text;
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (block.startsWith(":")) comments.push({ text: block.slice(1).trim(), at: performance.now() });
      else if (block.startsWith("data: ")) events.push(block.slice(6));
    }
  }
  return { events, comments, raw };
}

/** The assistant's text of a streamed answer: its chunks' deltas, joined. */
export function contentOf(events: string[]): string {
  return events
    .filter((e) => e !== "[DONE]")
    .map((e) => (JSON.parse(e) as { choices?: { delta?: { content?: string } }[] }).choices?.[0]?.delta?.content ?? "")
    .join("");
}
