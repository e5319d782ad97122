// Settings → API keys: admins make, list and revoke the keys programs use (R-key-create). The value comes back
// from create only, once; list and revoke never carry it.
import { z } from "zod";
import { keyScopes } from "@/db/schema";
import { getDb } from "@/server/db";
import { createKey, KEY_NAME_MAX, listKeys, revokeKey } from "@/server/keys/store";
import { adminProcedure, router } from "../init";
import { text } from "../text";

// Shape only: the store's checks give the sentences at each field, so the dialog shows the same words either way.
const agentIds = z.array(text().max(40)).max(1_000);

export const apiKeysRouter = router({
  list: adminProcedure.query(async () => listKeys(await getDb())),

  create: adminProcedure
    .input(
      z.object({
        name: text().max(KEY_NAME_MAX * 4),
        agents: z.union([z.literal("all"), agentIds]),
        scopes: z.array(z.enum(keyScopes)).max(keyScopes.length * 2),
        waitLimitS: z.number().optional(),
        ratePerMinute: z.number().optional(),
        expiresAt: text().max(40).nullish(),
      }),
    )
    .mutation(async ({ input, ctx }) => createKey(await getDb(), ctx.user.id, input)),

  revoke: adminProcedure.input(z.object({ id: text().uuid() })).mutation(async ({ input, ctx }) => revokeKey(await getDb(), ctx.user.id, input.id)),
});
