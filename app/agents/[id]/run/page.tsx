// /agents/<id>/run: the playground. The agent is read on the server for its name (an unknown id is a 404);
// ?run=<id> re-opens a run of it.
import type { Metadata } from "next";
import { foundOr404, idOr404, isId } from "@/app/or-404";
import { Playground } from "@/components/runs/playground";
import { pageUser } from "@/server/auth/guard";
import { getQueryClient, trpc } from "@/server/trpc/rsc";

export const metadata: Metadata = { title: "Run" };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<{ run?: string | string[] }> };

export default async function RunAgentPage({ params, searchParams }: Props) {
  const id = idOr404((await params).id);
  const { run } = await searchParams;
  await pageUser(`/agents/${id}/run`);
  const { declaration } = await foundOr404(getQueryClient().fetchQuery(trpc.agents.get.queryOptions({ id })));
  const runId = isId(run) ? run : null;
  return <Playground agentId={id} agentName={declaration.name} initialRunId={runId} />;
}
