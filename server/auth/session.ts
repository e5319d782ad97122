// Who is asking: the signed-in person behind a request's session cookie, with their role.
import type { Role } from "@/db/schema";
import { getAuth } from "./auth";

export type SessionUser = { id: string; email: string; name: string; role: Role };

export async function sessionUser(headers: Headers): Promise<SessionUser | null> {
  const auth = await getAuth();
  const session = await auth.api.getSession({ headers });
  if (!session) return null;
  const user = session.user as typeof session.user & { role: Role; disabled: boolean };
  if (user.disabled) return null;
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}
