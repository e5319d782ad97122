// /agents/<id>: the agent builder. The agent and the sources it can use are read on the server first, so the
// page opens whole; an id that names no agent is a 404.
import type { Metadata } from "next";
import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import { foundOr404, idOr404 } from "@/app/or-404";
import { AgentEditor } from "@/components/agents/agent-editor";
import { pageUser } from "@/server/auth/guard";
import { getQueryClient, trpc } from "@/server/trpc/rsc";

export const metadata: Metadata = { title: "Agent" };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

export default async function AgentPage({ params }: Props) {
  const id = idOr404((await params).id);
  await pageUser(`/agents/${id}`);
  const queryClient = getQueryClient();
  await foundOr404(Promise.all([queryClient.fetchQuery(trpc.agents.get.queryOptions({ id })), queryClient.prefetchQuery(trpc.agents.sources.queryOptions())]));
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <AgentEditor id={id} />
    </HydrationBoundary>
  );
}
