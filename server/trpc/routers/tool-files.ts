// Changing the tree's files from the editor: save (against the version it started from), drafts,
// new, rename and delete. Every change goes through server/tree, which writes atomically.
import { z } from "zod";
import { recordAudit } from "@/server/audit/record";
import { getDb } from "@/server/db";
import { env } from "@/server/env";
import { dropDraft, dropSavedDraft, getDraft, moveDrafts, putDraft } from "@/server/tree/drafts";
import { moveExamples } from "@/server/tree/examples";
import { createFile, deleteFile, renameFile, saveFile, starterSource } from "@/server/tree/files";
import { developerProcedure, router } from "../init";
import { text } from "../text";

const filePath = text().min(1).max(200);
const source = text().max(1_000_000);
const hash = text().regex(/^[0-9a-f]{64}$/);

export const toolFilesRouter = router({
  save: developerProcedure
    .input(z.object({ path: filePath, source, baseHash: hash }))
    .mutation(async ({ input, ctx }) => {
      const db = await getDb();
      const draft = await getDraft(db, ctx.user.id, input.path);
      const saved = await saveFile(env().toolsDir, input.path, input.source, input.baseHash);
      await dropSavedDraft(db, ctx.user.id, input.path, draft, input.source);
      // Who changed the tree, and home's "Write your first tool" (R-start-steps) reads it.
      await recordAudit(db, { actor: ctx.user.id, action: "tool_file.saved", target: input.path });
      return saved;
    }),

  create: developerProcedure
    .input(z.object({ path: filePath, source: source.optional() }))
    .mutation(async ({ input, ctx }) => {
      const created = await createFile(env().toolsDir, input.path, input.source ?? starterSource(input.path));
      await recordAudit(await getDb(), { actor: ctx.user.id, action: "tool_file.created", target: input.path });
      return created;
    }),

  rename: developerProcedure.input(z.object({ from: filePath, to: filePath })).mutation(async ({ input }) => {
    const db = await getDb();
    // The drafts and examples move in one transaction while the file is under both names, so a failure leaves
    // the file, its drafts and its examples where they were.
    await renameFile(env().toolsDir, input.from, input.to, () =>
      db.transaction(async (tx) => {
        await moveDrafts(tx, input.from, input.to);
        await moveExamples(tx, input.from, input.to);
      }),
    );
    return { path: input.to };
  }),

  remove: developerProcedure.input(z.object({ path: filePath })).mutation(async ({ input }) => {
    await deleteFile(env().toolsDir, input.path);
    const db = await getDb();
    await moveDrafts(db, input.path, null);
    await moveExamples(db, input.path, null);
    return { path: input.path };
  }),

  putDraft: developerProcedure
    .input(z.object({ path: filePath, source, baseHash: hash }))
    .mutation(async ({ input, ctx }) => {
      await putDraft(await getDb(), ctx.user.id, input.path, input.source, input.baseHash);
      return { savedAt: new Date() };
    }),

  dropDraft: developerProcedure.input(z.object({ path: filePath })).mutation(async ({ input, ctx }) => {
    await dropDraft(await getDb(), ctx.user.id, input.path);
    return { path: input.path };
  }),
});
