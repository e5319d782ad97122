// /agents/<id>/run: the playground. The agent is read on the server for its name (an unknown id is a 404);
// ?run=<id> re-opens a run of it.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { TRPCError } from "@trpc/server";
import { Playground } from "@/components/runs/playground";
import { pageUser } from "@/server/auth/guard";
import { getQueryClient, trpc } from "@/server/trpc/rsc";

export const metadata: Metadata = { title: "Run" };
export const dynamic = "force-dynamic";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Props = { params: Promise<{ id: string }>; searchParams: Promise<{ run?: string | string[] }> };

export default async function RunAgentPage({ params, searchParams }: Props) {
  const { id } = await params;
  const { run } = await searchParams;
  if (!UUID.test(id)) notFound();
  await pageUser(`/agents/${id}/run`);
  let name: string;
  try {
    name = (await getQueryClient().fetchQuery(trpc.agents.get.queryOptions({ id }))).declaration.name;
  } catch (err) {
    if (err instanceof TRPCError && err.code === "NOT_FOUND") notFound();
    throw err;
  }
  const runId = typeof run === "string" && UUID.test(run) ? run : null;
  return <Playground agentId={id} agentName={name} initialRunId={runId} />;
}
