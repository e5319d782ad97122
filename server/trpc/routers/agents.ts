// The agent builder's API (/agents pages): thin procedures over server/agents and server/catalog. Any signed-in
// person composes agents; the domain functions validate every write and name every problem.
import { z } from "zod";
import { CAPABILITIES } from "@/server/operations/capabilities";
import { searchSources } from "@/server/catalog/search";
import { listSources } from "@/server/catalog/sources";
import { getDb } from "@/server/db";
import { env } from "@/server/env";
import { acceptToolChange, agentToolChanges } from "@/server/agents/accept";
import { POLICY_DEFAULTS, PROVIDERS } from "@/server/agents/declaration";
import { mcpServersIn } from "@/server/agents/entries";
import { hookInfo } from "@/server/agents/hook";
import { withSpecialists } from "@/server/agents/specialists";
import { modelView } from "@/server/agents/model-view";
import { withBuiltIns } from "@/server/runtime/provider-tools";
import { agentHistory, checked, createAgent, deleteAgent, duplicateAgent, getAgent, listAgents, mcpListing, saveAgent, type Place } from "@/server/agents/store";
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
    const db = await getDb();
    const { sources, treeError } = await withSpecialists(db, await listSources(env().toolsDir, mcpListing(db, place())));
    const hook = await hookInfo(env().toolsDir, sources.flatMap((s) => s.operations.map((op) => op.name)));
    return { sources, treeError, capabilities: CAPABILITIES, hook, policyDefaults: POLICY_DEFAULTS };
  }),

  search: builderProcedure.input(z.object({ query: text().max(200) })).query(async ({ input }) => {
    const db = await getDb();
    const { sources } = await withSpecialists(db, await listSources(env().toolsDir, mcpListing(db, place())));
    return searchSources(sources, input.query);
  }),

  /** What the model sees for these entries (unsaved ones too): settings are not even an input. */
  modelView: builderProcedure
    .input(z.object({ entries: z.array(text().max(4_000)).max(100), provider: z.enum(PROVIDERS).optional() }))
    .query(async ({ input }) => {
      // MCP schemas are normalised for the agent's provider (R-mcp-schema-normalise), so the preview is what it sends.
      const db = await getDb();
      const listing = mcpListing(db, place(), mcpServersIn(input.entries));
      const listed = await listSources(env().toolsDir, listing && { ...listing, provider: input.provider });
      const { sources } = await withSpecialists(db, listed);
      return withBuiltIns(modelView(input.entries, sources), input.entries, listed.files, input.provider);
    }),

  /** An MCP entry's tools changed since they were pinned, each with the text accepted beside the text now. */
  toolChanges: builderProcedure
    .input(z.object({ id: text().uuid(), entry: z.number().int().min(0).max(99) }))
    .query(async ({ input }) => agentToolChanges(await getDb(), input, place())),

  /** A builder accepts what an MCP server's tools say now (R-mcp-pin-withheld); the agent page shows the change first. */
  acceptToolChange: builderProcedure
    .input(z.object({ id: text().uuid(), baseVersion: z.number().int().min(1), entry: z.number().int().min(0).max(99), tools: z.array(text().max(128)).max(500).optional() }))
    .mutation(async ({ input, ctx }) => acceptToolChange(await getDb(), ctx.user.id, input, place())),

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
