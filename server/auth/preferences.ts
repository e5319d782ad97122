// What each person chose for the studio's look (R-theme-per-user): one row per user, read when a page is
// rendered so it paints in that theme from the start, written from the account menu.
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { userPreferences } from "@/db/schema";

export const themes = ["system", "light", "dark"] as const;
export type Theme = (typeof themes)[number];

const isTheme = (value: unknown): value is Theme => themes.includes(value as Theme);

/** The person's theme; "system" (follow the device) until they choose, or for a value no longer known. */
export async function themeOf(db: Db, userId: string): Promise<Theme> {
  const [row] = await db.select({ theme: userPreferences.theme }).from(userPreferences).where(eq(userPreferences.userId, userId));
  return isTheme(row?.theme) ? row.theme : "system";
}

export async function setTheme(db: Db, userId: string, theme: Theme): Promise<Theme> {
  await db
    .insert(userPreferences)
    .values({ userId, theme })
    .onConflictDoUpdate({ target: userPreferences.userId, set: { theme, updatedAt: new Date() } });
  return theme;
}
