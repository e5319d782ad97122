// Try it: call a saved file's operation by hand, streaming its progress, and keep calls as examples.
import { z } from "zod";
import { getDb } from "@/server/db";
import { env } from "@/server/env";
import { tryCall } from "@/server/host";
import { deleteExample, listExamples, saveExample } from "@/server/tree/examples";
import { publicProcedure, router } from "../init";

const filePath = z.string().min(1).max(200);
const toolName = z.string().regex(/^[a-zA-Z0-9_-]{1,128}$/);
const record = z.record(z.string(), z.unknown());

export const toolTryRouter = router({
  run: publicProcedure
    .input(z.object({ name: toolName, args: record, settings: record }))
    .subscription(({ input, signal }) =>
      tryCall({ tree: env().toolsDir, name: input.name, args: input.args, settings: input.settings, signal }),
    ),

  examples: publicProcedure
    .input(z.object({ path: filePath }))
    .query(async ({ input }) => listExamples(await getDb(), input.path)),

  saveExample: publicProcedure
    .input(z.object({ path: filePath, tool: toolName, title: z.string().trim().min(1).max(120), args: record, settings: record }))
    .mutation(async ({ input, ctx }) => saveExample(await getDb(), ctx.actorId, input)),

  deleteExample: publicProcedure
    .input(z.object({ path: filePath, id: z.string().uuid() }))
    .mutation(async ({ input }) => {
      await deleteExample(await getDb(), input.path, input.id);
      return { id: input.id };
    }),
});
