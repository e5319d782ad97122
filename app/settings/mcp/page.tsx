// Settings → MCP servers (admins): the servers agents may use as sources, each with where it stands, its tools and
// the agents that use it; registered one by one or imported from an mcp.json.
import type { Metadata } from "next";
import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import { Forbidden } from "@/components/frame/forbidden";
import { PageHeader } from "@/components/frame/page-header";
import { ServersTable } from "@/components/mcp/servers-table";
import { pageUser } from "@/server/auth/guard";
import { hasRole } from "@/server/auth/roles";
import { getQueryClient, trpc } from "@/server/trpc/rsc";

export const metadata: Metadata = { title: "MCP servers" };
export const dynamic = "force-dynamic";

export default async function McpServersPage() {
  const user = await pageUser("/settings/mcp");
  const admin = hasRole(user, "admin");
  const queryClient = getQueryClient();
  if (admin) await queryClient.prefetchQuery(trpc.mcpServers.list.queryOptions());
  return (
    <>
      <PageHeader
        title="MCP servers"
        lede="Programs and services that speak the Model Context Protocol, offering tools agents can use. The studio starts a stdio server when first needed and stops it after its idle time; secrets reach a server only as it starts."
      />
      {admin ? (
        <HydrationBoundary state={dehydrate(queryClient)}>
          <ServersTable />
        </HydrationBoundary>
      ) : (
        <Forbidden needs="admin" what="Managing MCP servers" />
      )}
    </>
  );
}
