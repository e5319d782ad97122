// /runs: every run of every agent, prefetched on the server and listed by a client table.
import type { Metadata } from "next";
import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import { PageHeader } from "@/components/frame/page-header";
import { RunsTable } from "@/components/runs/runs-table";
import { pageUser } from "@/server/auth/guard";
import { getQueryClient, trpc } from "@/server/trpc/rsc";

export const metadata: Metadata = { title: "Runs" };
export const dynamic = "force-dynamic";

export default async function RunsPage() {
  await pageUser("/runs");
  const queryClient = getQueryClient();
  await queryClient.prefetchQuery(trpc.runs.list.queryOptions({}));
  return (
    <>
      <PageHeader title="Runs" lede="Every conversation with an agent, newest first; open one to read it step by step, as the model saw it." />
      <HydrationBoundary state={dehydrate(queryClient)}>
        <RunsTable />
      </HydrationBoundary>
    </>
  );
}
