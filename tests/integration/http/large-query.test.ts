// A query with a large input (the agent editor checks the whole declaration on screen with agents.validate), sent by
// the browser's own links (components/trpc/links.ts) to the tRPC route behind a real Node HTTP server, whose header
// limit answered 431 when the input travelled in the URL. Queries travel in a POST's body, which, like every POST,
// must come from the studio's own pages (R-req-origin); a mutation still never answers a GET (R-req-acting-post).
import type http from "node:http";
import type { AddressInfo } from "node:net";
import { createTRPCClient, TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { studioLinks } from "@/components/trpc/links";
import type { AppRouter } from "@/server/trpc/router";
import { addUser, freshStudio, routes, serveOverHttp, sessionCookie } from "./studio";

const studio = freshStudio("large-query");
let server: http.Server;
let base: string;
let cookie: string;

const client = (origin: string) =>
  createTRPCClient<AppRouter>({ links: studioLinks(`${base}/api/trpc`, () => ({ cookie, origin })) });

beforeAll(async () => {
  await addUser("dev@quiver.test", "developer");
  cookie = await sessionCookie("dev@quiver.test");
  const { trpc } = await routes();
  server = await serveOverHttp(trpc.POST);
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await studio.close();
});

const model = { provider: "openai-compatible", model: "m", base_url: "http://127.0.0.1:9/v1" };

describe("a query with a large input", () => {
  it("checks a declaration of about 100 KB, as the agent editor sends it", async () => {
    const declaration = { name: "long-winded", instructions: "Be thorough. ".repeat(7_690), model, tools: [] };
    expect(JSON.stringify(declaration).length).toBeGreaterThan(100_000);
    const answer = await client(base).agents.validate.query({ declaration });
    expect(answer.problems).toEqual([]);
    expect(answer.declaration?.instructions).toBe(declaration.instructions);
  });

  it("names the problems of a declaration with a hundred large entries", async () => {
    const tools = Array.from({ length: 100 }, (_, i) => ({ entry: `nowhere:tool_${i}`, settings: { note: "x".repeat(1_000) } }));
    const answer = await client(base).agents.validate.query({ declaration: { name: "many", model, tools } });
    expect(answer.problems.map((problem) => problem.path)).toContain("tools[99].entry");
  });

  it("is refused with a sentence when another site's page sends it", async () => {
    const error = await client("http://127.0.0.1:4000").agents.list.query().catch((err: unknown) => err);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect((error as TRPCClientError<AppRouter>).message).toMatch(/another site/);
  });

  it("still answers a GET, and a mutation still refuses one", async () => {
    const list = await fetch(`${base}/api/trpc/agents.list`, { headers: { cookie } });
    expect(list.status).toBe(200);
    const create = await fetch(`${base}/api/trpc/agents.create?input=${encodeURIComponent(JSON.stringify({ declaration: { name: "by-get", model } }))}`, {
      headers: { cookie },
    });
    expect(create.status).toBe(405);
  });
});
