// Settings → Models (admins): the model connections builders pick for their agents, each testable from its row,
// and the agents that still carry their own model settings.
import type { Metadata } from "next";
import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import { Forbidden } from "@/components/frame/forbidden";
import { PageHeader } from "@/components/frame/page-header";
import { ConnectionsTable } from "@/components/models/connections-table";
import { pageUser } from "@/server/auth/guard";
import { hasRole } from "@/server/auth/roles";
import { getQueryClient, trpc } from "@/server/trpc/rsc";

export const metadata: Metadata = { title: "Models" };
export const dynamic = "force-dynamic";

export default async function ModelsPage() {
  const user = await pageUser("/settings/models");
  const admin = hasRole(user, "admin");
  const queryClient = getQueryClient();
  if (admin) await Promise.all([queryClient.prefetchQuery(trpc.models.list.queryOptions()), queryClient.prefetchQuery(trpc.models.inline.queryOptions())]);
  return (
    <>
      <PageHeader
        title="Models"
        lede="The model providers agents talk to. Connect one once, with its key kept as a secret; builders pick it by name, and a new key or address reaches every agent that uses it on its next run."
      />
      {admin ? (
        <HydrationBoundary state={dehydrate(queryClient)}>
          <ConnectionsTable />
        </HydrationBoundary>
      ) : (
        <Forbidden needs="admin" what="Managing model connections" />
      )}
    </>
  );
}
