// /sign-in: email and password. A studio with no account yet sends its first visitor to /setup.
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/account/sign-in-form";
import { userCount } from "@/server/auth/user-count";
import { getDb } from "@/server/db";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  if ((await userCount(await getDb())) === 0) redirect("/setup");
  const { next } = await searchParams;
  return (
    <div className="mx-auto mt-24 w-80">
      <h1 className="mb-1 text-xl font-semibold tracking-tight">Sign in to Quiver</h1>
      <p className="mb-6 text-sm text-zinc-600 dark:text-zinc-400">Accounts are made by an admin of this studio.</p>
      <SignInForm next={next ?? null} />
    </div>
  );
}
