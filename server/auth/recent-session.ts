// The live preview's session check, reused for a moment: a person typing sends one preview per pause, a few a
// second, and each read the session and its user from the database. Only the preview route asks here; every other
// request checks the session each time (R-preview-session-reuse).
import { sessionUser, type SessionUser } from "./session";

/** How long a check of the same cookies stands: a sign-out, a disabled account or a lost role reaches it this late. */
export const PREVIEW_SESSION_REUSE_MS = 2_000;
/** A check older than this is made again beside the request that used it, so steady typing never waits for one. */
const RENEW_AFTER_MS = PREVIEW_SESSION_REUSE_MS / 2;
/** Cookies of this many signed-in people at most are remembered; past that the oldest are let go. */
const MAX_KEPT = 100;

type Checked = { user: SessionUser; at: number; renewing: boolean };

const kept = new Map<string, Checked>();

function keep(cookies: string, user: SessionUser | null, at: number, now: () => number): void {
  kept.delete(cookies);
  // Only a person is remembered: a request without a session finds out anew each time, as it would anywhere else.
  if (!user) return;
  kept.set(cookies, { user, at, renewing: false });
  for (const [key, checked] of kept) {
    if (kept.size <= MAX_KEPT && now() - checked.at < PREVIEW_SESSION_REUSE_MS) break;
    kept.delete(key);
  }
}

/**
 * The signed-in person of these headers, from a check of the same cookies under PREVIEW_SESSION_REUSE_MS old. One
 * past RENEW_AFTER_MS is checked again meanwhile: the database is read while the tool host derives, and the next
 * preview finds the newer answer (a signed-out session, none).
 */
export async function recentSessionUser(headers: Headers, now = () => performance.now()): Promise<SessionUser | null> {
  const cookies = headers.get("cookie");
  if (!cookies) return null;
  const hit = kept.get(cookies);
  const age = hit ? now() - hit.at : Infinity;
  if (hit && age < PREVIEW_SESSION_REUSE_MS) {
    if (age >= RENEW_AFTER_MS && !hit.renewing) {
      hit.renewing = true;
      const began = now();
      sessionUser(headers).then(
        (user) => keep(cookies, user, began, now),
        () => kept.delete(cookies),
      );
    }
    return hit.user;
  }
  const began = now();
  const user = await sessionUser(headers);
  keep(cookies, user, began, now);
  return user;
}

/** Forget every remembered check (tests). */
export function forgetRecentSessions(): void {
  kept.clear();
}
