// A studio reached the way a browser reaches it: Request objects through the real route handlers of app/api, on a
// throwaway data folder and tree, with accounts signed in through better-auth. Edit when a test needs another route.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { Role } from "@/db/schema";

/** Where the tests' requests say they were sent; the studio has no QUIVER_BASE_URL, so this host is its own. */
export const STUDIO = "http://127.0.0.1:3999";
export const PASSWORD = "correct-horse-battery-staple";

/**
 * Points the configuration at a fresh data folder and a tree holding `files` (name → Python source). Call it at
 * the top of a test file, before anything reads the configuration.
 */
export function freshStudio(name: string, files: Record<string, string> = {}, extraEnv: Record<string, string> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `quiver-${name}-`));
  const tree = path.join(dir, "tools");
  const dataDir = path.join(dir, "data");
  fs.mkdirSync(tree);
  fs.mkdirSync(dataDir);
  for (const [file, source] of Object.entries(files)) fs.writeFileSync(path.join(tree, file), source);
  Object.assign(process.env, { QUIVER_DATA_DIR: dataDir, QUIVER_TOOLS_DIR: tree, DATABASE_URL: "", ...extraEnv });
  return {
    dir,
    tree,
    dataDir,
    async close() {
      const { closeAll } = await import("@/server/host");
      const { closeDatabase } = await import("@/server/db");
      await closeAll();
      await closeDatabase();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function routes() {
  const trpc = await import("@/app/api/trpc/[trpc]/route");
  const auth = await import("@/app/api/auth/[...all]/route");
  return { trpc, auth };
}

export async function addUser(email: string, role: Role): Promise<string> {
  const { createUser } = await import("@/server/auth/users");
  const { getDb } = await import("@/server/db");
  return (await createUser(await getDb(), { email, name: email.split("@")[0]!, password: PASSWORD, role }, "test")).id;
}

/** A sign-in POST as the sign-in page sends it, with the given extra headers (the stamped peer, a forwarded chain). */
export function signInRequest(email: string, password: string, headers: Record<string, string> = {}): Request {
  return new Request(`${STUDIO}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: STUDIO, ...headers },
    body: JSON.stringify({ email, password }),
  });
}

/** Signs in and answers the Cookie header that carries the session. */
export async function sessionCookie(email: string, password = PASSWORD): Promise<string> {
  const { auth } = await routes();
  const answer = await auth.POST(signInRequest(email, password, { "x-quiver-peer": "127.0.0.1" }));
  if (answer.status !== 200) throw new Error(`sign-in answered ${answer.status}: ${await answer.text()}`);
  const cookies = answer.headers.getSetCookie().map((line) => line.split(";")[0]);
  return cookies.join("; ");
}

/** A tRPC call as the browser's links send it: a query or subscription as GET with `input`, a mutation as POST. */
export function trpcRequest(
  procedure: string,
  input: unknown,
  options: { method?: "GET" | "POST"; headers?: Record<string, string>; batch?: boolean } = {},
): Request {
  const method = options.method ?? "POST";
  const query = options.batch ? "?batch=1" : "";
  const url = new URL(`${STUDIO}/api/trpc/${procedure}${query}`);
  if (method === "GET") url.searchParams.set("input", JSON.stringify(options.batch ? { 0: input } : input));
  return new Request(url, {
    method,
    headers: { ...(method === "POST" ? { "content-type": "application/json" } : {}), ...options.headers },
    body: method === "POST" ? JSON.stringify(options.batch ? { 0: input } : input) : undefined,
  });
}

/**
 * A route handler behind Node's own HTTP server on loopback, as the studio's server puts it: the same header limits
 * and real sockets, the answer streamed as it comes (a Try it call's events arrive one by one), and a client that
 * goes away aborts the request's signal and cancels the answer, as Next does.
 */
export async function serveOverHttp(handler: (request: Request) => Promise<Response> | Response): Promise<http.Server> {
  const node = http.createServer(async (req, res) => {
    const gone = new AbortController();
    res.on("close", () => gone.abort());
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) for (const one of [value ?? []].flat()) headers.append(name, one);
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const answer = await handler(new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body, signal: gone.signal }));
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    const reader = answer.body?.getReader();
    gone.signal.addEventListener("abort", () => void reader?.cancel().catch(() => undefined));
    for (let chunk = await reader?.read(); chunk && !chunk.done && !gone.signal.aborted; chunk = await reader!.read()) res.write(chunk.value);
    res.end();
  });
  await new Promise<void>((resolve) => node.listen(0, "127.0.0.1", resolve));
  return node;
}
