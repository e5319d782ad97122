// Settings → Audit (admins).
import type { Metadata } from "next";
import { AuditTable } from "@/components/audit/audit-table";
import { Forbidden } from "@/components/frame/forbidden";
import { PageHeader } from "@/components/frame/page-header";
import { pageUser } from "@/server/auth/guard";
import { hasRole } from "@/server/auth/roles";

export const metadata: Metadata = { title: "Audit" };
export const dynamic = "force-dynamic";

export default async function AuditPage() {
  const user = await pageUser("/settings/audit");
  return (
    <>
      <PageHeader title="Audit" lede="Who did what, when: sign-ins, user and role changes, secrets created, rotated, deleted and used, and tool actions." />
      {hasRole(user, "admin") ? <AuditTable /> : <Forbidden needs="admin" what="Reading the audit log" />}
    </>
  );
}
