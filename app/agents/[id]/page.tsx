// /agents/<id>: the agent builder. The agent and the sources it can use are read on the server first, so the
// page opens whole; an id that names no agent is a 404.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import { TRPCError } from "@trpc/server";
import { AgentEditor } from "@/components/agents/agent-editor";
import { pageUser } from "@/server/auth/guard";
import { getQueryClient, trpc } from "@/server/trpc/rsc";

export const metadata: Metadata = { title: "Agent" };
export const dynamic = "force-dynamic";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Props = { params: Promise<{ id: string }> };

export default async function AgentPage({ params }: Props) {
  const { id } = await params;
  if (!UUID.test(id)) notFound();
  await pageUser(`/agents/${id}`);
  const queryClient = getQueryClient();
  try {
    await Promise.all([queryClient.fetchQuery(trpc.agents.get.queryOptions({ id })), queryClient.prefetchQuery(trpc.agents.sources.queryOptions())]);
  } catch (err) {
    if (err instanceof TRPCError && err.code === "NOT_FOUND") notFound();
    throw err;
  }
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <AgentEditor id={id} />
    </HydrationBoundary>
  );
}
