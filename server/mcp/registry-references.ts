// Where MCP servers use a secret: their env, headers, arguments, URL and OAuth client secret hold ${NAME}. One of the reference sources
// (server/agents/references.ts lists them all), so the Secrets table names the server and a secret a server uses
// is not deleted from under it.
import { or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { mcpServers } from "@/db/schema";
import { likeReference, referencedNames } from "@/server/secrets/names";
import type { FoundReference, ReferenceSource } from "@/server/secrets/references";

export const mcpServerReferences: ReferenceSource = async (db: Db, name: string | null): Promise<FoundReference[]> => {
  const pattern = likeReference(name);
  const rows = await db
    .select({ id: mcpServers.id, name: mcpServers.name, args: mcpServers.args, env: mcpServers.env, headers: mcpServers.headers, url: mcpServers.url, auth: mcpServers.auth })
    .from(mcpServers)
    .where(
      or(
        sql`${mcpServers.env}::text like ${pattern}`,
        sql`${mcpServers.headers}::text like ${pattern}`,
        sql`${mcpServers.args}::text like ${pattern}`,
        sql`coalesce(${mcpServers.url}, '') like ${pattern}`,
        sql`coalesce(${mcpServers.auth}::text, '') like ${pattern}`,
      ),
    );
  return rows.flatMap((row) =>
    [...referencedNames([row.args, row.env, row.headers, row.url, row.auth?.clientSecret ?? null])]
      .filter((found) => name === null || found === name)
      .map((found) => ({
        name: found,
        reference: { kind: "mcp-server" as const, id: row.id, label: `the MCP server “${row.name}”`, href: `/settings/mcp#${row.id}` },
      })),
  );
};
