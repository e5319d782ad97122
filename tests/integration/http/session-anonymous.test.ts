// Who is asking, from a request's cookies (R-auth-anonymous-light): a request with no session cookie is nobody's and
// leaves better-auth unbuilt; one with a session cookie is asked of better-auth, which knows a real session from a
// made-up one.
import { afterAll, describe, expect, it } from "vitest";
import { addUser, freshStudio, sessionCookie } from "./studio";

const studio = freshStudio("session-anonymous");
const globals = globalThis as Record<string, unknown>;
afterAll(() => studio.close());

describe("the person behind a request", () => {
  it("R-auth-anonymous-light: is nobody without a session cookie, and better-auth is not built for it", async () => {
    const { sessionUser } = await import("@/server/auth/session");
    expect(await sessionUser(new Headers())).toBeNull();
    expect(await sessionUser(new Headers({ cookie: "theme=dark; other=1" }))).toBeNull();
    expect(globals.__quiverAuth).toBeUndefined();
  });

  it("R-auth-anonymous-light: finds a session cookie exactly where better-auth's own getSessionCookie does", async () => {
    const { hasSessionCookie } = await import("@/server/auth/session");
    const { getSessionCookie } = await import("better-auth/cookies");
    const cookies = [
      "",
      "theme=dark",
      "quiver.session_token=abc.def",
      "__Secure-quiver.session_token=abc.def",
      "quiver-session_token=abc",
      "theme=dark; quiver.session_token=a%2Fb",
      "quiver.session_token=",
      "better-auth.session_token=abc",
      "quiver.session_data=abc",
      "quiver.session_token.0=abc",
    ];
    for (const cookie of cookies) {
      const headers = new Headers(cookie ? { cookie } : {});
      expect(hasSessionCookie(headers), cookie).toBe(Boolean(getSessionCookie(headers, { cookiePrefix: "quiver" })));
    }
    expect(hasSessionCookie(new Headers({ cookie: "quiver.session_token=abc.def" }))).toBe(true);
  });

  it("R-auth-anonymous-light: is the signed-in person with a real session cookie, and nobody with a made-up one", async () => {
    const { sessionUser } = await import("@/server/auth/session");
    await addUser("ann@quiver.test", "builder");
    const cookie = await sessionCookie("ann@quiver.test");
    expect(cookie).toMatch(/quiver\.session_token=/);
    expect(await sessionUser(new Headers({ cookie }))).toMatchObject({ email: "ann@quiver.test", role: "builder" });
    expect(await sessionUser(new Headers({ cookie: "quiver.session_token=made-up.value" }))).toBeNull();
    expect(await sessionUser(new Headers({ cookie: "__Secure-quiver.session_token=made-up.value" }))).toBeNull();
  });
});
