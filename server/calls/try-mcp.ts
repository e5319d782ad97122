// An MCP server's tool called by hand from its row in Settings → MCP servers (R-mcp-try): on the server's one
// connection, through the one call pipeline as a run calls it, its progress lines streamed, the answer as the model
// would read it. A tool its server marks destructive runs only once the person confirmed; one that is not
// read-only leaves an audit row, as in a run, saying it was tried by hand.
import type { Db } from "@/db/client";
import { recordAudit } from "@/server/audit/record";
import { DomainError } from "@/server/errors";
import type { McpPool } from "@/server/mcp/pool";
import { getServer } from "@/server/mcp/registry";
import { makeMasker } from "@/server/secrets/mask";
import { mcpTarget } from "./sources/mcp";
import { tryTarget, type TryEvent } from "./try-it";

export type McpTryRequest = {
  db: Db;
  pool: McpPool;
  /** Who makes the call: the actor of its audit row. */
  actor: string;
  /** The server's row id. */
  server: string;
  /** The server's own name for the tool. */
  tool: string;
  args: Record<string, unknown>;
  /** The person confirmed running a tool its server marks destructive. */
  confirmed?: boolean;
  signal?: AbortSignal;
};

/** The call's events; a tool the server does not list, or a destructive one unconfirmed, is refused before it runs. */
export async function* tryMcpTool(request: McpTryRequest): AsyncGenerator<TryEvent> {
  const { db, pool } = request;
  const row = await getServer(db, request.server);
  const { tools } = await pool.listTools(db, row.id);
  const tool = tools.find((t) => t.name === request.tool);
  if (!tool) {
    throw new DomainError("NOT_FOUND", "NO_SUCH_TOOL", `${row.name} does not list a tool ${request.tool} now; read its tools again and pick one it lists.`, { tool: request.tool });
  }
  // The hints read as a run reads them (R-mcp-behaviour): destructive only when not also read-only.
  const readOnly = tool.annotations?.readOnlyHint === true;
  if (!readOnly && tool.annotations?.destructiveHint === true && request.confirmed !== true) {
    throw new DomainError(
      "PRECONDITION_FAILED",
      "CONFIRM_DESTRUCTIVE",
      `${row.name} marks ${tool.name} as destructive: confirm that you want to run it, since what it changes may not be restorable.`,
      { tool: tool.name },
    );
  }
  let outcome: string | null = null;
  const target = mcpTarget(pool, db, row.id, tool.name, tool.name);
  for await (const event of tryTarget(target, { db, actor: request.actor, args: request.args, settings: {}, signal: request.signal })) {
    if (event.type === "result") outcome = event.result.outcome;
    yield event;
  }
  // Nothing ran on a refusal, and a read changes nothing: neither is an action to audit (R-loop-audit).
  if (readOnly || outcome === null || outcome === "refused") return;
  await recordAudit(
    db,
    {
      actor: request.actor,
      action: outcome === "ok" ? "tool.executed" : "tool.executed:failed",
      target: tool.name,
      detail: { via: "try-it", source: row.id, server: row.name, outcome },
    },
    { mask: makeMasker(pool.resolvedValues(row.id)) },
  );
}
