import { beforeEach, describe, expect, it, vi } from "vitest";
import type { SessionUser } from "./session";

const sessionUser = vi.fn<(headers: Headers) => Promise<SessionUser | null>>();
vi.mock("./session", () => ({ sessionUser: (headers: Headers) => sessionUser(headers) }));

const { forgetRecentSessions, PREVIEW_SESSION_REUSE_MS, recentSessionUser } = await import("./recent-session");

const dev: SessionUser = { id: "u1", email: "dev@quiver.test", name: "Dev", role: "developer" };
const withCookie = (cookie: string) => new Headers({ cookie });

describe("the preview's session check, reused for a moment (R-preview-session-reuse)", () => {
  let clock = 0;
  const now = () => clock;
  beforeEach(() => {
    forgetRecentSessions();
    sessionUser.mockReset();
    clock = 1_000;
  });

  it("reads the session once for previews of the same cookies in the first half of the window", async () => {
    sessionUser.mockResolvedValue(dev);
    expect(await recentSessionUser(withCookie("quiver.session_token=a"), now)).toEqual(dev);
    clock += PREVIEW_SESSION_REUSE_MS / 2 - 1;
    expect(await recentSessionUser(withCookie("quiver.session_token=a"), now)).toEqual(dev);
    expect(sessionUser).toHaveBeenCalledTimes(1);
  });

  it("reads it again once the window has passed, so a sign-out or a lost role reaches the preview", async () => {
    sessionUser.mockResolvedValueOnce(dev).mockResolvedValueOnce(null);
    await recentSessionUser(withCookie("quiver.session_token=a"), now);
    clock += PREVIEW_SESSION_REUSE_MS;
    expect(await recentSessionUser(withCookie("quiver.session_token=a"), now)).toBeNull();
    expect(sessionUser).toHaveBeenCalledTimes(2);
  });

  it("never lends one cookie's check to other cookies", async () => {
    sessionUser.mockResolvedValueOnce(dev).mockResolvedValueOnce(null);
    await recentSessionUser(withCookie("quiver.session_token=a"), now);
    expect(await recentSessionUser(withCookie("quiver.session_token=b"), now)).toBeNull();
  });

  it("keeps no answer for a request without a session, nor asks for one without cookies", async () => {
    sessionUser.mockResolvedValueOnce(null).mockResolvedValueOnce(dev);
    expect(await recentSessionUser(withCookie("quiver.session_token=gone"), now)).toBeNull();
    expect(await recentSessionUser(withCookie("quiver.session_token=gone"), now)).toEqual(dev);
    expect(await recentSessionUser(new Headers(), now)).toBeNull();
    expect(sessionUser).toHaveBeenCalledTimes(2);
  });

  it("checks a reused session again beside the request past half the window, and the next preview finds the answer", async () => {
    let signedOut!: (user: SessionUser | null) => void;
    sessionUser.mockResolvedValueOnce(dev).mockReturnValueOnce(new Promise((resolve) => (signedOut = resolve)));
    await recentSessionUser(withCookie("quiver.session_token=a"), now);
    clock += PREVIEW_SESSION_REUSE_MS / 2;
    // Answered from the kept check at once, while the database is read again; a third request starts no second read.
    expect(await recentSessionUser(withCookie("quiver.session_token=a"), now)).toEqual(dev);
    expect(await recentSessionUser(withCookie("quiver.session_token=a"), now)).toEqual(dev);
    expect(sessionUser).toHaveBeenCalledTimes(2);
    signedOut(null);
    await Promise.resolve();
    sessionUser.mockResolvedValueOnce(null);
    expect(await recentSessionUser(withCookie("quiver.session_token=a"), now)).toBeNull();
    expect(sessionUser).toHaveBeenCalledTimes(3);
  });

  it("keeps a renewed check from when it was made, so steady typing reads the session about once a second", async () => {
    sessionUser.mockResolvedValue(dev);
    await recentSessionUser(withCookie("quiver.session_token=a"), now);
    for (let step = 0; step < 10; step++) {
      clock += 250;
      expect(await recentSessionUser(withCookie("quiver.session_token=a"), now)).toEqual(dev);
      await Promise.resolve();
    }
    // 2.5 s of previews: the first check, then one each time the kept one passed half the window.
    expect(sessionUser).toHaveBeenCalledTimes(3);
  });
});
