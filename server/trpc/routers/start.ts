// A guided start (home's checklist and "New agent"'s gallery): thin procedures over server/start and server/templates.
// Any signed-in person may read the checklist (each sees their own steps) and make an agent from a template.
import { z } from "zod";
import { getDb } from "@/server/db";
import { env } from "@/server/env";
import { checklist } from "@/server/start/checklist";
import { createFromTemplate } from "@/server/templates/create";
import { templateGallery } from "@/server/templates/gallery";
import { TEMPLATE_ID } from "@/server/templates/templates";
import { workspaceDir } from "@/server/system/filesystem/workspace";
import { builderProcedure, router } from "../init";
import { text } from "../text";

export const startRouter = router({
  checklist: builderProcedure.query(async ({ ctx }) => checklist(await getDb(), ctx.user)),

  templates: builderProcedure.query(() => templateGallery(env().toolsDir)),

  /** A new agent from a template, or a blank one (`template: null`); it opens on its page for the builder to adjust. */
  createAgent: builderProcedure
    .input(z.object({ template: text().regex(TEMPLATE_ID, "Name a template the gallery lists, e.g. inbox-triage.").nullable() }))
    .mutation(async ({ input, ctx }) =>
      createFromTemplate(await getDb(), ctx.user.id, input.template, { tree: env().toolsDir, workspace: workspaceDir() }),
    ),
});
