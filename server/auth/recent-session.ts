// The live preview's session check, reused for a moment: a person typing sends one preview per pause, a few a
// second, and each read the session and its user from the database. Only the preview route asks here; every other
// request checks the session each time (R-preview-session-reuse).
import { sessionUser, type SessionUser } from "./session";

/** How long a check of the same cookies stands: a sign-out, a disabled account or a lost role reaches it this late. */
export const PREVIEW_SESSION_REUSE_MS = 2_000;
/** Cookies of this many signed-in people at most are remembered; past that the oldest are let go. */
const MAX_KEPT = 100;

type Checked = { user: SessionUser; at: number };

const kept = new Map<string, Checked>();

/** The signed-in person of these headers, from a check of the same cookies under PREVIEW_SESSION_REUSE_MS old. */
export async function recentSessionUser(headers: Headers, now = () => performance.now()): Promise<SessionUser | null> {
  const cookies = headers.get("cookie");
  if (!cookies) return null;
  const hit = kept.get(cookies);
  if (hit && now() - hit.at < PREVIEW_SESSION_REUSE_MS) return hit.user;
  kept.delete(cookies);
  const user = await sessionUser(headers);
  // Only a person is remembered: a request without a session finds out anew each time, as it would anywhere else.
  if (user) {
    kept.set(cookies, { user, at: now() });
    for (const [key, checked] of kept) {
      if (kept.size <= MAX_KEPT && now() - checked.at < PREVIEW_SESSION_REUSE_MS) break;
      kept.delete(key);
    }
  }
  return user;
}

/** Forget every remembered check (tests). */
export function forgetRecentSessions(): void {
  kept.clear();
}
