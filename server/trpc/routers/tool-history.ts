// Publish and History: commit the checked tree as a version, list a file's versions, compare two of them, both read
// from the versions in the database. Mounted as tools.history; the work is in server/tree/publish.ts and history.ts.
import { z } from "zod";
import { getDb } from "@/server/db";
import { env } from "@/server/env";
import { COMMIT, WORKING, compareVersions, listVersions } from "@/server/tree/history";
import { publish } from "@/server/tree/publish";
import { builderProcedure, developerProcedure, router } from "../init";
import { text } from "../text";

const filePath = text().min(1).max(200);
const version = z.union([z.literal(WORKING), text().regex(COMMIT, "A version is a commit hash or “working”.")]);

export const toolHistoryRouter = router({
  publish: developerProcedure
    .input(z.object({ message: text().trim().min(1, "Say in a few words what changed.").max(5_000) }))
    .mutation(async ({ input, ctx }) =>
      publish({
        tree: env().toolsDir,
        dataDir: env().dataDir,
        message: input.message,
        db: await getDb(),
        identity: { name: ctx.user.name, email: ctx.user.email },
      }),
    ),

  versions: builderProcedure
    .input(z.object({ path: filePath }))
    .query(async ({ input }) => listVersions({ db: await getDb(), tree: env().toolsDir, path: input.path })),

  compare: developerProcedure
    .input(z.object({ path: filePath, from: version, to: version }))
    .query(async ({ input }) => compareVersions({ db: await getDb(), tree: env().toolsDir, ...input })),
});
