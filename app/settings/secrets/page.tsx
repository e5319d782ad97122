// Settings → Secrets (admins): names, where each is used, and create, rotate, delete. Values go in, never out.
import type { Metadata } from "next";
import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import { Forbidden } from "@/components/frame/forbidden";
import { PageHeader } from "@/components/frame/page-header";
import { SecretsTable } from "@/components/secrets/secrets-table";
import { pageUser } from "@/server/auth/guard";
import { hasRole } from "@/server/auth/roles";
import { getQueryClient, trpc } from "@/server/trpc/rsc";

export const metadata: Metadata = { title: "Secrets" };
export const dynamic = "force-dynamic";

export default async function SecretsPage() {
  const user = await pageUser("/settings/secrets");
  const admin = hasRole(user, "admin");
  const queryClient = getQueryClient();
  if (admin) await queryClient.prefetchQuery(trpc.secrets.list.queryOptions());
  return (
    <>
      <PageHeader
        title="Secrets"
        lede="Tokens, passwords and keys that tools need, kept encrypted. Builders pick them by name; the value reaches the tool when it runs and is never shown again — not to the model, not in this page."
      />
      {admin ? (
        <HydrationBoundary state={dehydrate(queryClient)}>
          <SecretsTable />
        </HydrationBoundary>
      ) : (
        <Forbidden needs="admin" what="Managing secrets" />
      )}
    </>
  );
}
