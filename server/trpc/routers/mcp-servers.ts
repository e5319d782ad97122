// Settings → MCP servers: admins register, change, import, test, restart and delete servers; builders see their
// names and read their tools. The registry's own checks give the sentences, each at its field (R-mcp-register), so
// a server is taken here as one JSON value, every string in it checked as text (R-input-text).
import { z } from "zod";
import { tryMcpTool } from "@/server/calls";
import { getDb } from "@/server/db";
import { env } from "@/server/env";
import { callbackUrl, disconnect, startConnect } from "@/server/mcp/oauth";
import { rowsWithSignIn } from "@/server/mcp/oauth-status";
import { mcpPool } from "@/server/mcp/pool";
import { agentsUsing, createServer, deleteServer, getServer, importMcpJson, listServers, updateServer } from "@/server/mcp/registry";
import { adminProcedure, builderProcedure, router } from "../init";
import { json, text } from "../text";
import { tryArgs } from "./tool-try";

const id = text().min(1).max(100);
const server = json(z.record(z.string(), z.unknown()));
/** An mcp.json is a few kilobytes; a megabyte is more than any client writes. */
const MCP_JSON_MAX = 1_000_000;

export const mcpServersRouter = router({
  /** Every row with where it stands and the agents that name it, so the page can say what a deletion would break. */
  list: adminProcedure.query(async () => {
    const db = await getDb();
    const pool = mcpPool();
    const rows = await rowsWithSignIn(db, await listServers(db), (id) => pool.status(id));
    return Promise.all(rows.map(async (row) => ({ ...row, agents: await agentsUsing(db, row.id) })));
  }),

  get: adminProcedure.input(z.object({ id })).query(async ({ input }) => {
    const db = await getDb();
    const pool = mcpPool();
    const [row] = await rowsWithSignIn(db, [await getServer(db, input.id)], (id) => pool.status(id));
    return { ...row!, agents: await agentsUsing(db, row!.id) };
  }),

  /** What a builder may know of the servers: enough to pick one as a source. */
  names: builderProcedure.query(async () => {
    const pool = mcpPool();
    const db = await getDb();
    // The same state the admins' rows show, so a server nobody signed in to reads "needs sign-in" here too.
    const rows = await rowsWithSignIn(db, await listServers(db), (serverId) => pool.status(serverId));
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      description: row.description,
      transport: row.transport.type,
      state: row.status.state,
    }));
  }),

  /** The server's tools, starting it if it is not running: a mutation, since that runs its program (R-req-acting-post). */
  tools: builderProcedure
    .input(z.object({ id, refresh: z.boolean().optional() }))
    .mutation(async ({ input }) => mcpPool().listTools(await getDb(), input.id, { refresh: input.refresh })),

  create: adminProcedure.input(z.object({ server })).mutation(async ({ input, ctx }) => createServer(await getDb(), ctx.user.id, input.server)),

  update: adminProcedure.input(z.object({ id, server })).mutation(async ({ input, ctx }) => {
    const row = await updateServer(await getDb(), ctx.user.id, input.id, input.server);
    await mcpPool().forget(input.id);
    return row;
  }),

  remove: adminProcedure.input(z.object({ id })).mutation(async ({ input, ctx }) => {
    const removed = await deleteServer(await getDb(), ctx.user.id, input.id);
    await mcpPool().forget(input.id);
    return removed;
  }),

  import: adminProcedure
    .input(z.object({ text: text().max(MCP_JSON_MAX, `An mcp.json has at most ${MCP_JSON_MAX} characters.`) }))
    .mutation(async ({ input, ctx }) => importMcpJson(await getDb(), ctx.user.id, input.text)),

  test: adminProcedure.input(z.object({ id })).mutation(async ({ input }) => mcpPool().testConnection(await getDb(), input.id)),

  restart: adminProcedure.input(z.object({ id })).mutation(async ({ input }) => mcpPool().restart(await getDb(), input.id)),

  /** The server's consent page for this admin's browser; the callback route finishes the sign-in (R-mcp-oauth-connect). */
  connect: adminProcedure
    .input(z.object({ id }))
    .mutation(async ({ input, ctx }) => startConnect(await getDb(), { id: input.id, actor: ctx.user.id, redirectUrl: callbackUrl(env().baseUrl, ctx.headers) })),

  /** Forgets the sign-in's tokens; agents lose the server's tools until an admin connects again (R-mcp-oauth-disconnect). */
  disconnect: adminProcedure.input(z.object({ id })).mutation(async ({ input, ctx }) => {
    const db = await getDb();
    await disconnect(db, { id: input.id, actor: ctx.user.id }, mcpPool());
    return { id: input.id };
  }),

  /** A tool called by hand from the server's row, its answer streamed like Try it's (R-mcp-try, R-req-acting-post). */
  try: adminProcedure
    .input(z.object({ id, tool: text().min(1).max(200), args: tryArgs, confirmed: z.boolean().optional() }))
    .mutation(async function* ({ input, ctx, signal }) {
      yield* tryMcpTool({ db: await getDb(), pool: mcpPool(), actor: ctx.user.id, server: input.id, tool: input.tool, args: input.args, confirmed: input.confirmed, signal });
    }),
});
