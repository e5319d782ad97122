// Try it: call a saved file's operation by hand, streaming its progress, and keep calls as examples.
import { z } from "zod";
import { getDb } from "@/server/db";
import { env } from "@/server/env";
import { tryCall } from "@/server/calls";
import { megabytes } from "@/server/http/body";
import { deleteExample, listExamples, saveExample } from "@/server/tree/examples";
import { developerProcedure, router } from "../init";
import { text, json } from "../text";

const filePath = text().min(1).max(200);
const toolName = text().regex(/^[a-zA-Z0-9_-]{1,128}$/);
const record = json(z.record(text(), z.unknown()));
/** The most JSON a call by hand sends as its arguments: a whole file's worth, and a sentence beyond it. */
export const TRY_ARGS_LIMIT_BYTES = 1024 * 1024;
export const tryArgs = record.superRefine((args, ctx) => {
  const bytes = Buffer.byteLength(JSON.stringify(args), "utf8");
  if (bytes > TRY_ARGS_LIMIT_BYTES) {
    ctx.addIssue({ code: "custom", message: `The arguments are ${megabytes(bytes)} of JSON, over Try it's limit of ${megabytes(TRY_ARGS_LIMIT_BYTES)}: send less.` });
  }
});

export const toolTryRouter = router({
  /** A call acts, so it is a mutation: sent as a POST (never by a link another site shows) and streamed back (R-req-acting-post). */
  run: developerProcedure
    .input(z.object({ name: toolName, args: tryArgs, settings: record }))
    .mutation(async function* ({ input, ctx, signal }) {
      yield* tryCall({ tree: env().toolsDir, db: await getDb(), actor: ctx.user.id, name: input.name, args: input.args, settings: input.settings, signal });
    }),

  examples: developerProcedure
    .input(z.object({ path: filePath }))
    .query(async ({ input }) => listExamples(await getDb(), input.path)),

  saveExample: developerProcedure
    .input(z.object({ path: filePath, tool: toolName, title: text().trim().min(1).max(120), args: record, settings: record }))
    .mutation(async ({ input, ctx }) => saveExample(await getDb(), ctx.user.id, input)),

  deleteExample: developerProcedure
    .input(z.object({ path: filePath, id: text().uuid() }))
    .mutation(async ({ input }) => {
      await deleteExample(await getDb(), input.path, input.id);
      return { id: input.id };
    }),
});
