// Who is asking: the signed-in person behind a request's session cookie, with their role.
import { getSessionCookie } from "better-auth/cookies";
import type { Role } from "@/db/schema";
import { COOKIE_PREFIX } from "./cookie-prefix";

export type SessionUser = { id: string; email: string; name: string; role: Role };

/**
 * A request without a session cookie is nobody's, as better-auth would answer, without loading or building it: a first
 * page, a sign-in page and every anonymous request pay nothing for it (R-auth-anonymous-light).
 */
export async function sessionUser(headers: Headers): Promise<SessionUser | null> {
  if (!getSessionCookie(headers, { cookiePrefix: COOKIE_PREFIX })) return null;
  const auth = await (await import("./auth")).getAuth();
  const session = await auth.api.getSession({ headers });
  if (!session) return null;
  const user = session.user as typeof session.user & { role: Role; disabled: boolean };
  if (user.disabled) return null;
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}
