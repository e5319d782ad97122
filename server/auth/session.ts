// Who is asking: the signed-in person behind a request's session cookie, with their role.
import { parseCookies } from "better-auth/cookies/utils";
import type { Role } from "@/db/schema";
import { COOKIE_PREFIX } from "./cookie-prefix";

export type SessionUser = { id: string; email: string; name: string; role: Role };

/**
 * Whether the request carries a session token under any name better-auth reads one from (its `getSessionCookie`, whose
 * module would bring its JWT code and jose into every page): `quiver.session_token`, with or without `__Secure-`.
 */
export function hasSessionCookie(headers: Headers): boolean {
  const cookie = headers.get("cookie");
  if (!cookie) return false;
  const cookies = parseCookies(cookie);
  return [`${COOKIE_PREFIX}.session_token`, `${COOKIE_PREFIX}-session_token`].some((name) => Boolean(cookies.get(`__Secure-${name}`) ?? cookies.get(name)));
}

/**
 * A request without a session cookie is nobody's, as better-auth would answer, without loading or building it: a first
 * page, a sign-in page and every anonymous request pay nothing for it (R-auth-anonymous-light).
 */
export async function sessionUser(headers: Headers): Promise<SessionUser | null> {
  if (!hasSessionCookie(headers)) return null;
  const auth = await (await import("./auth")).getAuth();
  const session = await auth.api.getSession({ headers });
  if (!session) return null;
  const user = session.user as typeof session.user & { role: Role; disabled: boolean };
  if (user.disabled) return null;
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}
