// Settings → API keys (admins): the keys programs outside the studio use to reach agents; made, listed and revoked.
import type { Metadata } from "next";
import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import { Forbidden } from "@/components/frame/forbidden";
import { PageHeader } from "@/components/frame/page-header";
import { KeysTable } from "@/components/keys/keys-table";
import { pageUser } from "@/server/auth/guard";
import { hasRole } from "@/server/auth/roles";
import { getQueryClient, trpc } from "@/server/trpc/rsc";

export const metadata: Metadata = { title: "API keys" };
export const dynamic = "force-dynamic";

export default async function ApiKeysPage() {
  const user = await pageUser("/settings/api-keys");
  const admin = hasRole(user, "admin");
  const queryClient = getQueryClient();
  if (admin) await queryClient.prefetchQuery(trpc.apiKeys.list.queryOptions());
  return (
    <>
      <PageHeader
        title="API keys"
        lede="Keys let programs use agents from outside the studio, each limited to the agents and actions you choose and to 60 requests a minute unless you set another rate. A key's value is shown once; the studio keeps only a hash of it, and a revoked key is refused from its next request."
      />
      {admin ? (
        <HydrationBoundary state={dehydrate(queryClient)}>
          <KeysTable />
        </HydrationBoundary>
      ) : (
        <Forbidden needs="admin" what="Managing API keys" />
      )}
    </>
  );
}
