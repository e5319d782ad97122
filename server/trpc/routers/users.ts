// Settings → Users: admins add people, set their role, disable and enable them.
import { z } from "zod";
import { roles } from "@/db/schema";
import { createUser, listUsers, setDisabled, setRole } from "@/server/auth/users";
import { getDb } from "@/server/db";
import { adminProcedure, router } from "../init";
import { text } from "../text";

export const usersRouter = router({
  list: adminProcedure.query(async () => listUsers(await getDb())),

  create: adminProcedure
    .input(
      z.object({
        name: text().trim().min(1).max(100),
        email: text().trim().email(),
        password: text().min(12, "A password needs at least 12 characters.").max(256),
        role: z.enum(roles),
      }),
    )
    .mutation(async ({ input, ctx }) => createUser(await getDb(), input, ctx.user.id)),

  setRole: adminProcedure
    .input(z.object({ id: text().min(1), role: z.enum(roles) }))
    .mutation(async ({ input, ctx }) => setRole(await getDb(), input.id, input.role, ctx.user.id)),

  setDisabled: adminProcedure
    .input(z.object({ id: text().min(1), disabled: z.boolean() }))
    .mutation(async ({ input, ctx }) => setDisabled(await getDb(), input.id, input.disabled, ctx.user.id)),
});
