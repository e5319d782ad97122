// The signed-in person, and the studio's first account.
import { z } from "zod";
import { setTheme, themeOf, themes } from "@/server/auth/preferences";
import { userCount } from "@/server/auth/user-count";
import { createOwner } from "@/server/auth/users";
import { getDb } from "@/server/db";
import { builderProcedure, publicProcedure, router } from "../init";
import { text } from "../text";

export const accountRouter = router({
  /** Who is signed in (or nobody), and whether the studio still needs its owner. */
  me: publicProcedure.query(async ({ ctx }) => ({
    user: ctx.user,
    needsOwner: (await userCount(await getDb())) === 0,
  })),

  /** The first visitor makes the owner account; refused once any account exists. */
  createOwner: publicProcedure
    .input(z.object({ name: text().trim().min(1).max(100), email: text().trim().email(), password: text().min(12).max(256) }))
    .mutation(async ({ input }) => {
      const owner = await createOwner(await getDb(), input);
      return { id: owner.id, email: owner.email };
    }),

  /** The signed-in person's own choices: the theme (R-theme-per-user). */
  preferences: builderProcedure.query(async ({ ctx }) => ({ theme: await themeOf(await getDb(), ctx.user.id) })),

  /** Keeps the person's theme for every browser they sign in from (R-theme-per-user). */
  setTheme: builderProcedure
    .input(z.object({ theme: z.enum(themes) }))
    .mutation(async ({ ctx, input }) => ({ theme: await setTheme(await getDb(), ctx.user.id, input.theme) })),
});
