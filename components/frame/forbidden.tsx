// What a page shows to a role that may not use it: which role it needs and whom to ask.
import { ShieldX } from "lucide-react";
import type { Role } from "@/db/schema";
import { roleNames } from "@/server/auth/roles";

export function Forbidden({ needs, what }: { needs: Role; what: string }) {
  return (
    <div role="alert" className="mx-8 my-10 max-w-xl rounded-lg border border-zinc-200 p-8 dark:border-zinc-800">
      <ShieldX aria-hidden className="mb-3 h-6 w-6 text-zinc-400" />
      <p className="font-medium">{what} needs the {roleNames[needs]} role.</p>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">Ask an admin of this studio to give it to you in Settings → Users.</p>
    </div>
  );
}
