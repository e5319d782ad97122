// The tool tree, as the /tools pages read it: the overview, one file, and the live preview.
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { treeOverview } from "@/server/catalog/tree-overview";
import { getDb } from "@/server/db";
import { env } from "@/server/env";
import { hostFor } from "@/server/host";
import { timed } from "@/server/http/server-timing";
import { getDraft } from "@/server/tree/drafts";
import { readFile, treePath } from "@/server/tree/files";
import { builderProcedure, developerProcedure, router } from "../init";
import { text } from "../text";
import { toolFilesRouter } from "./tool-files";
import { toolHistoryRouter } from "./tool-history";
import { toolProjectRouter } from "./tool-project";
import { toolTryRouter } from "./tool-try";

const filePath = text().min(1).max(200);

export const toolsRouter = router({
  files: builderProcedure.query(() => treeOverview(env().toolsDir)),

  read: builderProcedure.input(z.object({ path: filePath })).query(async ({ input, ctx }) => {
    const file = await readFile(env().toolsDir, input.path);
    const draft = await getDraft(await getDb(), ctx.user.id, input.path);
    return { file, draft };
  }),

  /** What the model would be offered from an unsaved buffer; the tree on disk is untouched. */
  preview: developerProcedure
    .input(z.object({ path: filePath, source: text().max(1_000_000) }))
    .mutation(({ input, ctx, signal }) => {
      treePath(env().toolsDir, input.path);
      // The editor derived again before this request got here and cancelled it: its answer could never be shown, and
      // the host's time goes to the newer one (R-preview-cancelled-skipped).
      if (signal?.aborted) throw new TRPCError({ code: "CLIENT_CLOSED_REQUEST", message: "The editor cancelled this preview for a newer one." });
      // Timed for the answer's Server-Timing, beside the session check (R-preview-server-timing).
      return timed(ctx.headers, "derive", () => hostFor(env().toolsDir).preview(input.path, input.source));
    }),

  file: toolFilesRouter,
  history: toolHistoryRouter,
  project: toolProjectRouter,
  try: toolTryRouter,
});
