// The live preview's request as the editor sends it, through the browser's own links (components/trpc/links.ts) to
// the tRPC route behind a real Node HTTP server: it travels alone, never in a batch, so cancelling it when the next
// pause derives again cancels its own fetch, while a request made beside it still answers (R-preview-pause).
import type http from "node:http";
import type { AddressInfo } from "node:net";
import { createTRPCClient } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { studioLinks } from "@/components/trpc/links";
import type { AppRouter } from "@/server/trpc/router";
import { addUser, freshStudio, routes, serveOverHttp, sessionCookie } from "./studio";

const source = 'def hello(name: str) -> str:\n    """Say hello.\n\n    Args:\n        name: Who to greet.\n    """\n    return name\n';
const studio = freshStudio("preview-link", { "greet.py": source });
let server: http.Server;
let base: string;
let cookie: string;
const paths: string[] = [];

const client = () => createTRPCClient<AppRouter>({ links: studioLinks(`${base}/api/trpc`, () => ({ cookie, origin: base })) });

beforeAll(async () => {
  await addUser("dev@quiver.test", "developer");
  cookie = await sessionCookie("dev@quiver.test");
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
});
