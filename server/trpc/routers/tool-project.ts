// The project files beside the tree (R-deps-edit): requirements.txt, pyproject.toml, setup.sh and hooks/tools.py,
// listed, read and saved by the rules tool files follow (developers edit; the version a save started from; a
// conflict when the file changed underneath; drafts kept), and the dependency status with its log (R-deps-status).
import { z } from "zod";
import { getDb } from "@/server/db";
import { env } from "@/server/env";
import { depsStatus, startInstall } from "@/server/tree/deps-status";
import { dropSavedDraft, getDraft } from "@/server/tree/drafts";
import { listProjectFiles, readProjectFile, saveProjectFile } from "@/server/tree/project-files";
import { isDependencyFile, PROJECT_FILES } from "@/server/tree/project-names";
import { builderProcedure, developerProcedure, router } from "../init";
import { text } from "../text";

// A name the list does not hold is refused here with the names it may be, and again below by server/tree.
const name = z.enum(PROJECT_FILES, { message: `path must name one of the project files: ${PROJECT_FILES.join(", ")}.` });
const source = text().max(1_000_000);
const hash = text().regex(/^[0-9a-f]{64}$/);

export const toolProjectRouter = router({
  list: builderProcedure.query(() => listProjectFiles(env().toolsDir)),

  read: developerProcedure.input(z.object({ path: name })).query(async ({ input, ctx }) => {
    const file = await readProjectFile(env().toolsDir, input.path);
    const draft = await getDraft(await getDb(), ctx.user.id, input.path);
    return { file, draft };
  }),

  /** Saves over the version it started from; a saved dependency file starts an install in the background. */
  save: developerProcedure.input(z.object({ path: name, source, baseHash: hash })).mutation(async ({ input, ctx }) => {
    const db = await getDb();
    const draft = await getDraft(db, ctx.user.id, input.path);
    const saved = await saveProjectFile(env().toolsDir, input.path, input.source, input.baseHash);
    await dropSavedDraft(db, ctx.user.id, input.path, draft, input.source);
    const installing = isDependencyFile(input.path);
    if (installing) startInstall(env().toolsDir);
    return { ...saved, installing };
  }),

  /** How the last install ended (or that one runs), without the log: the /tools page shows it to everyone. */
  status: builderProcedure.query(async () => {
    const { log, ...status } = await depsStatus(env().toolsDir);
    return { ...status, logPath: log.path };
  }),

  /** The status with the log's end: the last install's transcript and a line per run. */
  log: developerProcedure.query(() => depsStatus(env().toolsDir)),

  install: developerProcedure.mutation(async () => {
    startInstall(env().toolsDir);
    const { log, ...status } = await depsStatus(env().toolsDir);
    return { ...status, logPath: log.path };
  }),
});
