// Requests another site can make a signed-in browser send (a link, a form, a no-cors fetch), through the real route
// handlers: nothing that acts answers a GET, and a state-changing request from anywhere but the studio's own pages
// is refused with 403 and a sentence (R-req-origin, R-req-acting-post).
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUser, freshStudio, routes, sessionCookie, STUDIO, trpcRequest } from "./studio";

const MARKER_TOOL = `"""Writes a marker file, so a test can tell whether a call ran."""

from pathlib import Path


def touch(path: str) -> str:
    """Write the marker.

    Args:
        path: The file to write.
    """
    Path(path).write_text("ran")
    return "written"
`;

const studio = freshStudio("cross-site", { "marker.py": MARKER_TOOL });
const marker = path.join(studio.dir, "marker.txt");
const FOREIGN = "http://127.0.0.1:4000";
let cookie: string;

beforeAll(async () => {
  const { hostFor } = await import("@/server/host");
  // Unsandboxed, so the marker lands where the test looks on every machine.
  hostFor(studio.tree, { sandbox: false, dataDir: studio.dataDir });
  await addUser("dev@quiver.test", "developer");
  cookie = await sessionCookie("dev@quiver.test");
});

afterAll(() => studio.close());

const tryInput = () => ({ name: "marker__touch", args: { path: marker }, settings: {} });

async function bodyWithin(answer: Response, ms = 5_000): Promise<string> {
  const timer = new Promise<string>((resolve) => setTimeout(() => resolve("(still streaming)"), ms));
  return Promise.race([answer.text(), timer]);
}

async function agentNames(): Promise<string[]> {
  const { trpc } = await routes();
  const answer = await trpc.GET(trpcRequest("agents.list", undefined, { method: "GET", headers: { cookie } }));
  const body = (await answer.json()) as { result: { data: { name: string }[] } };
  return body.result.data.map((agent) => agent.name);
}

const declaration = (name: string) => ({
  declaration: { name, instructions: "Say hello.", model: { provider: "openai-compatible", model: "m", base_url: "http://127.0.0.1:9/v1" }, tools: [] },
});

describe("nothing that acts answers a GET", () => {
  it("does not run a tool for a GET to tools.try.run, as a link on another site would send it", async () => {
    const { trpc } = await routes();
    const answer = await trpc.GET(trpcRequest("tools.try.run", tryInput(), { method: "GET", headers: { cookie } }));
    await bodyWithin(answer);
    await new Promise((r) => setTimeout(r, 500));
    expect(answer.status).toBe(405);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it("does not check a secret binding (which runs the file's check_secret and audits the use) for a GET", async () => {
    const { trpc } = await routes();
    const input = { path: "marker.py", field: "token", name: "SOME_TOKEN" };
    const answer = await trpc.GET(trpcRequest("secrets.checkBinding", input, { method: "GET", headers: { cookie } }));
    expect(answer.status).toBe(405);
  });

  it("refuses a GET that says it comes from another site, with 403 and a sentence", async () => {
    const { trpc } = await routes();
    for (const site of ["cross-site", "same-site"]) {
      const answer = await trpc.GET(trpcRequest("tools.files", undefined, { method: "GET", headers: { cookie, "sec-fetch-site": site } }));
      expect(answer.status).toBe(403);
      const body = (await answer.json()) as { error: { message: string; data: { code: string } } };
      expect(body.error.data.code).toBe("FORBIDDEN");
      expect(body.error.message).toMatch(/^[A-Z].*\.$/);
    }
  });
});

describe("a state-changing request must come from the studio's own pages", () => {
  it("refuses agents.create from another origin with 403 and a sentence, and creates nothing", async () => {
    const { trpc } = await routes();
    const answer = await trpc.POST(trpcRequest("agents.create", declaration("from-elsewhere"), { headers: { cookie, origin: FOREIGN } }));
    expect(answer.status).toBe(403);
    const body = (await answer.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/another site/);
    expect(await agentNames()).not.toContain("from-elsewhere");
  });

  it("refuses a mutation that names neither its Origin nor its Sec-Fetch-Site", async () => {
    const { trpc } = await routes();
    const answer = await trpc.POST(trpcRequest("agents.create", declaration("from-nowhere"), { headers: { cookie } }));
    expect(answer.status).toBe(403);
    expect(await agentNames()).not.toContain("from-nowhere");
  });

  it("takes the same mutation from the studio's own origin", async () => {
    const { trpc } = await routes();
    const answer = await trpc.POST(trpcRequest("agents.create", declaration("from-home"), { headers: { cookie, origin: STUDIO } }));
    expect(answer.status, await answer.clone().text()).toBe(200);
    expect(await agentNames()).toContain("from-home");
  });

  it("refuses a sign-out from another origin, and the session lives on", async () => {
    const { auth } = await routes();
    const signOut = new Request(`${STUDIO}/api/auth/sign-out`, { method: "POST", headers: { cookie, origin: FOREIGN } });
    const answer = await auth.POST(signOut);
    expect(answer.status).toBe(403);
    expect(((await answer.json()) as { message: string }).message).toMatch(/another site/);
    const session = await auth.GET(new Request(`${STUDIO}/api/auth/get-session`, { headers: { cookie } }));
    expect(((await session.json()) as { user: { email: string } } | null)?.user.email).toBe("dev@quiver.test");
  });

  it("has every route handler under app/api refuse a state-changing request from another origin", async () => {
    const root = path.resolve(__dirname, "..", "..", "..", "app", "api");
    const files = fs.readdirSync(root, { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith("route.ts"));
    const checked: string[] = [];
    for (const file of files) {
      const route = (await import(/* @vite-ignore */ path.join(root, file))) as Record<string, unknown>;
      for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
        const handler = route[method] as ((request: Request) => Promise<Response>) | undefined;
        if (!handler) continue;
        const url = `${STUDIO}/api/${path.dirname(file).replace(/\[\.\.\.all\]|\[trpc\]/, "x")}`;
        const answer = await handler(new Request(url, { method, headers: { cookie, origin: FOREIGN, "content-type": "application/json" }, body: "{}" }));
        expect(answer.status, `${method} ${file}`).toBe(403);
        checked.push(`${method} ${file}`);
      }
    }
    expect(checked).toEqual(expect.arrayContaining(["POST auth/[...all]/route.ts", "POST trpc/[trpc]/route.ts"]));
  });
});
