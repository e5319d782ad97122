// The agent page's "Use from code": the studio's configured address (the page falls back to its own) and the API
// keys that can reach the agent, by name and prefix, never a hash or a value (R-use-from-code-keys). Any builder
// may read it; only an admin may make a key, so the answer says whether this person can.
import { z } from "zod";
import { hasRole } from "@/server/auth/roles";
import { getDb } from "@/server/db";
import { env } from "@/server/env";
import { keysReaching } from "@/server/keys/reach";
import { builderProcedure, router } from "../init";
import { text } from "../text";

export const useFromCodeRouter = router({
  get: builderProcedure.input(z.object({ id: text().uuid() })).query(async ({ input, ctx }) => ({
    baseUrl: env().baseUrl ?? null,
    keys: await keysReaching(await getDb(), input.id),
    canManageKeys: hasRole(ctx.user, "admin"),
  })),
});
