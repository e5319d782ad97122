// /agents: every agent, prefetched on the server and listed by a client table.
import type { Metadata } from "next";
import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import { AgentsTable } from "@/components/agents/agents-table";
import { PageHeader } from "@/components/frame/page-header";
import { pageUser } from "@/server/auth/guard";
import { getQueryClient, trpc } from "@/server/trpc/rsc";

export const metadata: Metadata = { title: "Agents" };
export const dynamic = "force-dynamic";

export default async function AgentsPage() {
  await pageUser("/agents");
  const queryClient = getQueryClient();
  // The sources only put titles on what each agent can use: they stream in after the list.
  void queryClient.prefetchQuery(trpc.agents.sources.queryOptions());
  await queryClient.prefetchQuery(trpc.agents.list.queryOptions());
  return (
    <>
      <PageHeader
        title="Agents"
        lede="An agent is a model, its instructions, and the tools it may use: which operations, with which settings, and which ones ask you first."
      />
      <HydrationBoundary state={dehydrate(queryClient)}>
        <AgentsTable />
      </HydrationBoundary>
    </>
  );
}
