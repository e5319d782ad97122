// The agent builder's API (/agents pages): thin procedures over server/agents and server/catalog. Any signed-in
// person composes agents; the domain functions validate every write and name every problem.
import { z } from "zod";
import { CAPABILITIES } from "@/server/operations/capabilities";
import { searchSources } from "@/server/catalog/search";
import { listSources } from "@/server/catalog/sources";
import { getDb } from "@/server/db";
import { env } from "@/server/env";
import { POLICY_DEFAULTS } from "@/server/agents/declaration";
import { hookInfo } from "@/server/agents/hook";
import { modelView } from "@/server/agents/model-view";
import { agentHistory, checked, createAgent, deleteAgent, duplicateAgent, getAgent, listAgents, saveAgent, type Place } from "@/server/agents/store";
import { exportAgent, importAgent } from "@/server/agents/transfer";
import { DomainError } from "@/server/errors";
import { workspaceDir } from "@/server/system/filesystem/workspace";
import { builderProcedure, router } from "../init";
import { text, json, jsonText } from "../text";

const place = (): Place => ({ tree: env().toolsDir, workspace: workspaceDir() });
const id = z.object({ id: text().uuid() });
const declaration = json(z.unknown().refine((value) => value !== undefined, "Send the agent's declaration."));

export const agentsRouter = router({
  list: builderProcedure.query(async () => listAgents(await getDb())),

  get: builderProcedure.input(id).query(async ({ input }) => getAgent(await getDb(), input.id, place())),

  versions: builderProcedure.input(id).query(async ({ input }) => agentHistory(await getDb(), input.id)),

  create: builderProcedure
    .input(z.object({ declaration }))
    .mutation(async ({ input, ctx }) => createAgent(await getDb(), ctx.user.id, input.declaration, place())),

  save: builderProcedure
    .input(z.object({ id: text().uuid(), baseVersion: z.number().int().min(1), declaration }))
    .mutation(async ({ input, ctx }) => saveAgent(await getDb(), ctx.user.id, input, place())),

  duplicate: builderProcedure.input(id).mutation(async ({ input, ctx }) => duplicateAgent(await getDb(), ctx.user.id, input.id, place())),

  remove: builderProcedure.input(id).mutation(async ({ input, ctx }) => deleteAgent(await getDb(), ctx.user.id, input.id)),

  export: builderProcedure.input(id).query(async ({ input }) => exportAgent(await getDb(), input.id, place())),

  import: builderProcedure
    .input(z.object({ json: jsonText().max(1_000_000) }))
    .mutation(async ({ input, ctx }) => importAgent(await getDb(), ctx.user.id, input.json, place())),

  /** Everything the palette and the cards need: sources, the capability vocabulary, the call hook, the defaults. */
  sources: builderProcedure.query(async () => {
    const { sources, treeError } = await listSources(env().toolsDir);
    const hook = await hookInfo(env().toolsDir, sources.flatMap((s) => s.operations.map((op) => op.name)));
    return { sources, treeError, capabilities: CAPABILITIES, hook, policyDefaults: POLICY_DEFAULTS };
  }),

  search: builderProcedure.input(z.object({ query: text().max(200) })).query(async ({ input }) => {
    const { sources } = await listSources(env().toolsDir);
    return searchSources(sources, input.query);
  }),

  /** What the model sees for these entries (unsaved ones too): settings are not even an input. */
  modelView: builderProcedure.input(z.object({ entries: z.array(text().max(4_000)).max(100) })).query(async ({ input }) => {
    const { sources } = await listSources(env().toolsDir);
    return modelView(input.entries, sources);
  }),

  /** Every problem a save would name, without saving; `id` is the agent being edited (its own name is no clash). */
  validate: builderProcedure
    .input(z.object({ declaration, id: text().uuid().optional() }))
    .query(async ({ input }) => {
      try {
        const { declaration: canonical } = await checked(await getDb(), input.declaration, place(), { except: input.id });
        return { problems: [], declaration: canonical };
      } catch (err) {
        if (err instanceof DomainError && err.reason === "INVALID_AGENT") {
          return { problems: (err.details?.problems ?? []) as { path: string; message: string }[], declaration: null };
        }
        throw err;
      }
    }),
});
