// /setup: a new studio's first visitor creates the owner account. Gone once any account exists.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { OwnerForm } from "@/components/account/owner-form";
import { userCount } from "@/server/auth/user-count";
import { getDb } from "@/server/db";

export const metadata: Metadata = { title: "Set up" };
export const dynamic = "force-dynamic";

export default async function SetupPage() {
  if ((await userCount(await getDb())) > 0) redirect("/sign-in");
  return (
    <div className="mx-auto mt-24 w-96">
      <h1 className="mb-1 text-xl font-semibold tracking-tight">Set up this studio</h1>
      <p className="mb-6 text-sm text-zinc-600 dark:text-zinc-400">
        You are the first here: create the owner account. The owner is an admin, and adds everyone else in Settings → Users.
      </p>
      <OwnerForm />
    </div>
  );
}
