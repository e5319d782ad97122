// /runs/<id>: one run's read-only trace. Its stored steps are read on the server, so the page opens whole; an id
// that names no run is a 404.
import type { Metadata } from "next";
import Link from "next/link";
import { foundOr404, idOr404 } from "@/app/or-404";
import { PageHeader } from "@/components/frame/page-header";
import { RunTrace } from "@/components/runs/run-trace";
import { Button } from "@/components/ui/button";
import { formatDate } from "@/components/ui/dates";
import { pageUser } from "@/server/auth/guard";
import { getQueryClient, trpc } from "@/server/trpc/rsc";

export const metadata: Metadata = { title: "Run" };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

export default async function RunPage({ params }: Props) {
  const id = idOr404((await params).id);
  await pageUser(`/runs/${id}`);
  const { run, events } = await foundOr404(getQueryClient().fetchQuery(trpc.runs.get.queryOptions({ runId: id })));
  const name = run.agentName || "Untitled agent";
  return (
    <div className="flex h-screen min-h-0 flex-col">
      <PageHeader
        title={`${name}, ${formatDate(run.startedAt)}`}
        lede={
          <>
            A run of version {run.agentVersion}, on {run.treeVersion === null ? "the working tree" : `published version ${run.treeVersion} of the tree`}, read
            back step by step.{" "}
            {run.parentRunId ? (
              <>
                Another agent asked for it as its specialist:{" "}
                <Link href={`/runs/${run.parentRunId}`} className="text-accent underline underline-offset-2 dark:text-indigo-400">
                  the run that asked
                </Link>
                .{" "}
              </>
            ) : null}
            <Link href="/runs" className="text-accent underline underline-offset-2 dark:text-indigo-400">
              All runs
            </Link>
          </>
        }
        action={
          <Button asChild>
            <Link href={`/agents/${run.agentId}/run?run=${run.id}`}>Open in the playground</Link>
          </Button>
        }
      />
      <RunTrace runId={run.id} events={events} startedBy={run.startedByName ?? "someone since removed"} price={run.price} />
    </div>
  );
}
