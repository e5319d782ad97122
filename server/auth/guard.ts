// Pages ask here who is signed in: nobody goes to the sign-in page (or to set-up when the studio has no
// account yet); the page itself shows what a role may not do. The server refuses it anyway.
import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getDb } from "@/server/db";
import { sessionUser, type SessionUser } from "./session";
import { userCount } from "./user-count";

export async function pageUser(from: string): Promise<SessionUser> {
  const user = await sessionUser(await headers());
  if (user) return user;
  if ((await userCount(await getDb())) === 0) redirect("/setup");
  redirect(`/sign-in?next=${encodeURIComponent(from)}`);
}
