// A provider's model list against a small server on 127.0.0.1 that records what it was sent: the key as a bearer
// token or as Anthropic's x-api-key with its version, and each way a list can fail told in a sentence (R-conn-list).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listModels } from "@/server/models/list";

type Seen = { url: string; headers: http.IncomingHttpHeaders };
let seen: Seen[] = [];
let answer: (res: http.ServerResponse) => void = () => undefined;
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? "", headers: req.headers });
    answer(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const json = (status: number, body: unknown) => (res: http.ServerResponse) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};
const list = json(200, { data: [{ id: "b-model" }, { id: "a-model" }, { id: "a-model" }, { name: "no id" }] });

describe("R-conn-list: the provider's list", () => {
  it("R-conn-list: OpenAI and OpenAI-compatible servers get the key as a bearer token, and the ids come back sorted once each", async () => {
    answer = list;
    seen = [];
    for (const provider of ["openai", "openai-compatible"] as const) {
      expect(await listModels({ provider, baseUrl: `${base}/`, apiKey: "${K}" }, "sk-one")).toMatchObject({ ok: true, models: ["a-model", "b-model"] });
    }
    expect(seen.map((s) => [s.url, s.headers.authorization, s.headers["x-api-key"]])).toEqual([
      ["/v1/models", "Bearer sk-one", undefined],
      ["/v1/models", "Bearer sk-one", undefined],
    ]);
  });

  it("R-conn-list: Anthropic gets x-api-key and anthropic-version 2023-06-01, never a bearer token", async () => {
    answer = list;
    seen = [];
    expect(await listModels({ provider: "anthropic", baseUrl: base, apiKey: "${K}" }, "sk-ant")).toMatchObject({ ok: true, models: ["a-model", "b-model"] });
    expect(seen[0]!.url).toBe("/v1/models?limit=1000");
    expect(seen[0]!.headers).toMatchObject({ "x-api-key": "sk-ant", "anthropic-version": "2023-06-01" });
    expect(seen[0]!.headers.authorization).toBeUndefined();
  });

  it("R-conn-list: a server without a key is sent none", async () => {
    answer = list;
    seen = [];
    await listModels({ provider: "openai-compatible", baseUrl: base, apiKey: null }, null);
    expect(seen[0]!.headers.authorization).toBeUndefined();
  });

  it("R-conn-list: a refused key, no list at the address, an answer that is not a list, no answer in time, a redirect", async () => {
    const t = { provider: "openai-compatible" as const, baseUrl: base, apiKey: "${K}" };
    answer = json(403, { error: { message: "nope" } });
    expect(await listModels(t, "sk")).toMatchObject({ ok: false, kind: "refused", sentence: `The server at ${base} refused the key \${K} (HTTP 403); check the secret's value in Settings → Secrets, or pick another key.` });
    answer = json(404, {});
    expect(await listModels(t, "sk")).toMatchObject({ ok: false, kind: "no-list", sentence: `The server at ${base} has no model list (HTTP 404 for /models); check the address (an OpenAI-compatible server's usually ends in /v1).` });
    answer = (res) => res.end("<html>hello</html>");
    expect(await listModels(t, "sk")).toMatchObject({ ok: false, kind: "no-list", sentence: `The server at ${base} answered /models with something that is not a model list; check the address.` });
    answer = () => undefined;
    expect(await listModels(t, "sk", 300)).toMatchObject({ ok: false, kind: "unreachable", sentence: `The server at ${base} could not be reached within 300 ms (no answer in time); check the address and that the server is running.` });
    answer = (res) => {
      res.writeHead(302, { location: "http://127.0.0.1:9/elsewhere" });
      res.end();
    };
    expect(await listModels(t, "sk")).toMatchObject({ ok: false, kind: "unreachable", sentence: expect.stringContaining("(it answered with a redirect to another address)") });
  });

  it("R-conn-list: an OpenAI-compatible connection without an address is told so before anything is sent", async () => {
    seen = [];
    expect(await listModels({ provider: "openai-compatible", baseUrl: null, apiKey: null }, null)).toMatchObject({ ok: false, sentence: expect.stringMatching(/needs its address/) });
    expect(seen).toEqual([]);
  });
});
