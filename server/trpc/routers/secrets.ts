// Settings → Secrets, and the secret pickers: admins manage secrets; everyone else sees names and descriptions.
// No procedure here returns a value: values go in (create, rotate) and only ever reach a tool.
import { z } from "zod";
import { getDb } from "@/server/db";
import { env } from "@/server/env";
import { secretReferenceSources } from "@/server/agents/references";
import { checkBinding } from "@/server/calls";
import { DESCRIPTION_MAX, NAME_MAX, VALUE_MAX } from "@/server/secrets/names";
import { createSecret, deleteSecret, listSecrets, rotateSecret, secretNames } from "@/server/secrets/store";
import { adminProcedure, builderProcedure, router } from "../init";
import { text } from "../text";

// Shape only; the store's own checks give the sentences (names.ts), so a form shows the same words either way.
const name = text().max(NAME_MAX + 1);
const value = text().max(VALUE_MAX + 1);
const description = text().max(DESCRIPTION_MAX + 1);

export const secretsRouter = router({
  list: adminProcedure.query(async () => listSecrets(await getDb(), secretReferenceSources)),

  names: builderProcedure.query(async () => secretNames(await getDb())),

  create: adminProcedure
    .input(z.object({ name, value, description: description.optional() }))
    .mutation(async ({ input, ctx }) => createSecret(await getDb(), ctx.user.id, input)),

  rotate: adminProcedure
    .input(z.object({ name, value, description: description.optional() }))
    .mutation(async ({ input, ctx }) => rotateSecret(await getDb(), ctx.user.id, input)),

  remove: adminProcedure
    .input(z.object({ name }))
    .mutation(async ({ input, ctx }) => deleteSecret(await getDb(), ctx.user.id, input.name, secretReferenceSources)),

  /**
   * The file's check_secret on the named secret, for the sentence beside a picker; the value never leaves.
   * Builders bind secrets on the agent page, so they may ask too. A mutation, though it changes nothing the caller
   * sees: it runs the file's code on a secret and audits the use, which no GET may do (R-req-acting-post).
   */
  checkBinding: builderProcedure
    .input(z.object({ path: text().min(1).max(200), field: text().min(1).max(200), name }))
    .mutation(async ({ input, ctx }) => checkBinding(await getDb(), env().toolsDir, input, ctx.user.id)),
});
