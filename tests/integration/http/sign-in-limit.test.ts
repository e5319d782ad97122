// Sign-in limits through the real auth route, as the custom server hands requests over (the socket's address
// stamped in x-quiver-peer): wrong passwords count per (address, account), a success does not count, and one account
// guessed from many addresses meets a backoff that grows (R-req-signin-limit, R-req-trusted-proxy).
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { addUser, freshStudio, PASSWORD, routes, signInRequest } from "./studio";

const PROXY = "10.9.9.9";
const studio = freshStudio("sign-in-limit", {}, { QUIVER_TRUSTED_PROXIES: `${PROXY}, 10.8.0.0/16` });
// What scripts/serve.mjs sets when it stamps the socket's address on every request.
(globalThis as Record<symbol, unknown>)[Symbol.for("quiver.peer-stamped")] = true;

beforeAll(async () => {
  for (const name of ["ana", "ben", "cy", "dee", "eve"]) await addUser(`${name}@quiver.test`, "builder");
});

afterEach(() => vi.useRealTimers());
afterAll(() => studio.close());

async function attempt(email: string, password: string, peer: string, forwardedFor?: string): Promise<Response> {
  const { auth } = await routes();
  const headers: Record<string, string> = { "x-quiver-peer": peer };
  if (forwardedFor) headers["x-forwarded-for"] = forwardedFor;
  return auth.POST(signInRequest(email, password, headers));
}

const WRONG = "not-the-password-at-all";

describe("sign-in limits", () => {
  it("gives no more guesses for a varied X-Forwarded-For when the peer is not a trusted proxy", async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 7; i++) statuses.push((await attempt("ana@quiver.test", WRONG, "192.0.2.10", `198.51.100.${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });

  it("answers a refused sign-in with a sentence that says how long to wait", async () => {
    const answer = await attempt("ana@quiver.test", WRONG, "192.0.2.10");
    expect(answer.status).toBe(429);
    const body = (await answer.json()) as { message: string };
    expect(body.message).toMatch(/^Too many failed sign-ins .*try again in \d+ minutes?\.$/);
    expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("does not count a successful sign-in", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await attempt("ben@quiver.test", WRONG, "192.0.2.20")).status);
    statuses.push((await attempt("ben@quiver.test", PASSWORD, "192.0.2.20")).status);
    for (let i = 0; i < 4; i++) statuses.push((await attempt("ben@quiver.test", WRONG, "192.0.2.20")).status);
    expect(statuses).toEqual([401, 401, 401, 401, 200, 401, 401, 401, 401]);
  });

  it("does not lock another account out behind the same address", async () => {
    for (let i = 0; i < 5; i++) await attempt("cy@quiver.test", WRONG, "192.0.2.30");
    expect((await attempt("cy@quiver.test", WRONG, "192.0.2.30")).status).toBe(429);
    expect((await attempt("dee@quiver.test", PASSWORD, "192.0.2.30")).status).toBe(200);
    expect((await attempt("cy@quiver.test", PASSWORD, "192.0.2.31")).status).toBe(200);
  });

  it("makes one account guessed from many addresses wait longer after each failure", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2031-01-01T00:00:00Z") });
    let peer = 0;
    const next = () => `203.0.113.${++peer}`;
    for (let i = 0; i < 10; i++) expect((await attempt("eve@quiver.test", WRONG, next())).status).toBe(401);
    const waits: number[] = [];
    for (let round = 0; round < 4; round++) {
      expect((await attempt("eve@quiver.test", WRONG, next())).status).toBe(401);
      const refused = await attempt("eve@quiver.test", WRONG, next());
      expect(refused.status).toBe(429);
      const wait = Number(refused.headers.get("retry-after"));
      waits.push(wait);
      vi.setSystemTime(Date.now() + wait * 1000);
    }
    expect(waits).toEqual([1, 2, 4, 8]);
    // Once the wait is over the right password signs in, and that clears the account's count.
    expect((await attempt("eve@quiver.test", PASSWORD, next())).status).toBe(200);
    expect((await attempt("eve@quiver.test", WRONG, next())).status).toBe(401);
    expect((await attempt("eve@quiver.test", WRONG, next())).status).toBe(401);
  });

  it("counts clients behind a trusted proxy by the address the proxy forwards", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2032-01-01T00:00:00Z") });
    for (let i = 0; i < 5; i++) await attempt("ana@quiver.test", WRONG, PROXY, "198.51.100.77");
    expect((await attempt("ana@quiver.test", WRONG, PROXY, "1.2.3.4, 198.51.100.77")).status).toBe(429);
    expect((await attempt("ana@quiver.test", WRONG, "10.8.3.4", "198.51.100.78, 10.9.9.9")).status).toBe(401);
  });
});
