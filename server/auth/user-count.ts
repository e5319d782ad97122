// How many accounts the studio has: what every page's guard, /setup and /sign-in ask first. Apart from users.ts,
// whose account writing needs better-auth, so a page that only asks this loads none of it (R-auth-anonymous-light).
import { count } from "drizzle-orm";
import type { Db } from "@/db/client";
import { user } from "@/db/schema";

export async function userCount(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(user);
  return row?.n ?? 0;
}
