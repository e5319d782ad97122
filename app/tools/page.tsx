// /tools: the files of the tool tree, prefetched on the server and listed by a client table.
import type { Metadata } from "next";
import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import { PageHeader } from "@/components/frame/page-header";
import { TreeTable } from "@/components/tools/tree-table";
import { pageUser } from "@/server/auth/guard";
import { hasRole } from "@/server/auth/roles";
import { getQueryClient, trpc } from "@/server/trpc/rsc";

export const metadata: Metadata = { title: "Tools" };
export const dynamic = "force-dynamic";

export default async function ToolsPage() {
  const user = await pageUser("/tools");
  const queryClient = getQueryClient();
  await queryClient.prefetchQuery(trpc.tools.files.queryOptions());
  return (
    <>
      <PageHeader
        title="Tools"
        lede="Each Python file of the tool tree is a group of tools; its functions are the operations a model can be offered. Files starting with an underscore are helpers the others import."
      />
      <HydrationBoundary state={dehydrate(queryClient)}>
        <TreeTable canEdit={hasRole(user, "developer")} />
      </HydrationBoundary>
    </>
  );
}
