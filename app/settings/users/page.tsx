// Settings → Users (admins).
import type { Metadata } from "next";
import { Forbidden } from "@/components/frame/forbidden";
import { PageHeader } from "@/components/frame/page-header";
import { UsersTable } from "@/components/users/users-table";
import { pageUser } from "@/server/auth/guard";
import { hasRole } from "@/server/auth/roles";

export const metadata: Metadata = { title: "Users" };
export const dynamic = "force-dynamic";

export default async function UsersPage() {
  const user = await pageUser("/settings/users");
  return (
    <>
      <PageHeader title="Users" lede="Who may sign in to this studio, and what each may do: builders compose and run agents, developers also edit tools, admins also keep users and secrets." />
      {hasRole(user, "admin") ? <UsersTable me={user.id} /> : <Forbidden needs="admin" what="Managing users" />}
    </>
  );
}
