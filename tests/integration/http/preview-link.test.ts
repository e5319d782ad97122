// The live preview's request as the editor sends it, through the browser's own links (components/trpc/links.ts) to
// the tRPC route behind a real Node HTTP server: it travels alone, never in a batch, so cancelling it when the next
// pause derives again cancels its own fetch, while a request made beside it still answers (R-preview-pause).
import type http from "node:http";
import type { AddressInfo } from "node:net";
import { createTRPCClient } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { studioLinks } from "@/components/trpc/links";
import type { AppRouter } from "@/server/trpc/router";
import { addUser, freshStudio, routes, serveOverHttp, sessionCookie, STUDIO, trpcRequest } from "./studio";

const source = 'def hello(name: str) -> str:\n    """Say hello.\n\n    Args:\n        name: Who to greet.\n    """\n    return name\n';
const studio = freshStudio("preview-link", { "greet.py": source });
let server: http.Server;
let base: string;
let cookie: string;
let builderCookie: string;
const paths: string[] = [];

const client = () => createTRPCClient<AppRouter>({ links: studioLinks(`${base}/api/trpc`, () => ({ cookie, origin: base })) });

beforeAll(async () => {
  await addUser("dev@quiver.test", "developer");
  cookie = await sessionCookie("dev@quiver.test");
  await addUser("builder@quiver.test", "builder");
  builderCookie = await sessionCookie("builder@quiver.test");
  const { trpc } = await routes();
  server = await serveOverHttp((request) => {
    paths.push(new URL(request.url).pathname);
    return trpc.POST(request);
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await studio.close();
});

describe("the live preview's request", () => {
  it("derives the unsaved buffer, sent on its own beside a request of the same moment (R-preview-pause)", async () => {
    paths.length = 0;
    const trpc = client();
    const edited = source.replace("name: str", "name: str, times: int = 1");
    const [entry, files] = await Promise.all([trpc.tools.preview.mutate({ path: "greet.py", source: edited }), trpc.tools.files.query()]);
    expect(entry.tools.map((tool) => Object.keys((tool.input_schema as { properties: object }).properties))).toEqual([["name", "times"]]);
    expect(files.files.map((file) => file.path)).toContain("greet.py");
    expect(paths.sort()).toEqual(["/api/trpc/tools.files", "/api/trpc/tools.preview"]);
  });

  it("is cancelled by its own signal, while the request made beside it still answers (R-preview-pause)", async () => {
    const trpc = client();
    const cancel = new AbortController();
    const preview = trpc.tools.preview.mutate({ path: "greet.py", source }, { signal: cancel.signal });
    const files = trpc.tools.files.query();
    cancel.abort();
    await expect(preview).rejects.toMatchObject({ name: "TRPCClientError", cause: { name: "AbortError" } });
    expect((await files).files.map((file) => file.path)).toContain("greet.py");
  });

  it("answers with its route's parts in Server-Timing, for no cache to keep (R-preview-server-timing)", async () => {
    const { trpc } = await routes();
    const answer = await trpc.POST(trpcRequest("tools.preview", { path: "greet.py", source }, { headers: { cookie, origin: STUDIO } }));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("server-timing")).toMatch(/^session;dur=[\d.]+, derive;dur=[\d.]+, handler;dur=[\d.]+$/);
    expect(answer.headers.get("cache-control")).toBe("no-store, no-transform");
    const other = await trpc.POST(trpcRequest("tools.files", undefined, { headers: { cookie, origin: STUDIO } }));
    expect(other.headers.get("server-timing")).toBeNull();
  });

  it("still refuses a builder, whose reused session check carries their role (R-preview-session-reuse)", async () => {
    const { trpc } = await routes();
    for (let i = 0; i < 2; i++) {
      const answer = await trpc.POST(trpcRequest("tools.preview", { path: "greet.py", source }, { headers: { cookie: builderCookie, origin: STUDIO } }));
      expect(answer.status).toBe(403);
    }
    const nobody = await trpc.POST(trpcRequest("tools.preview", { path: "greet.py", source }, { headers: { origin: STUDIO } }));
    expect(nobody.status).toBe(401);
  });

  it("derives nothing for a request the editor cancelled before the server came to it (R-preview-cancelled-skipped)", async () => {
    const { trpc } = await routes();
    const cancelled = new Request(trpcRequest("tools.preview", { path: "greet.py", source: "def broken(:\n" }, { headers: { cookie, origin: STUDIO } }), {
      signal: AbortSignal.abort(),
    });
    const answer = await trpc.POST(cancelled);
    expect(answer.status).toBe(499);
    expect(JSON.stringify(await answer.json())).not.toContain("SyntaxError");
  });
});
