// Try it: call a saved file's operation by hand, streaming its progress, and keep calls as examples.
import { z } from "zod";
import { getDb } from "@/server/db";
import { env } from "@/server/env";
import { tryCall } from "@/server/calls";
import { deleteExample, listExamples, saveExample } from "@/server/tree/examples";
import { developerProcedure, router } from "../init";

const filePath = z.string().min(1).max(200);
const toolName = z.string().regex(/^[a-zA-Z0-9_-]{1,128}$/);
const record = z.record(z.string(), z.unknown());

export const toolTryRouter = router({
  run: developerProcedure
    .input(z.object({ name: toolName, args: record, settings: record }))
    .subscription(async ({ input, ctx, signal }) =>
      tryCall({ tree: env().toolsDir, db: await getDb(), actor: ctx.user.id, name: input.name, args: input.args, settings: input.settings, signal }),
    ),

  examples: developerProcedure
    .input(z.object({ path: filePath }))
    .query(async ({ input }) => listExamples(await getDb(), input.path)),

  saveExample: developerProcedure
    .input(z.object({ path: filePath, tool: toolName, title: z.string().trim().min(1).max(120), args: record, settings: record }))
    .mutation(async ({ input, ctx }) => saveExample(await getDb(), ctx.user.id, input)),

  deleteExample: developerProcedure
    .input(z.object({ path: filePath, id: z.string().uuid() }))
    .mutation(async ({ input }) => {
      await deleteExample(await getDb(), input.path, input.id);
      return { id: input.id };
    }),
});
