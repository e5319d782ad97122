"use client";
// Which API keys can reach this agent, as "Use from code" lists them: name, prefix, what each may do, when it
// expires. The server sends no hash or value to list (R-use-from-code-keys). With none, it says so, and points an
// admin to Settings → API keys and anyone else to an admin.
import Link from "next/link";
import { scopeWords } from "@/components/keys/words";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import type { KeyScope } from "@/db/schema";

export type ReachingKeyRow = { id: string; name: string; prefix: string; scopes: KeyScope[]; reach: "all" | "listed"; expiresAt: string | Date | null };

function Settings({ canManageKeys }: { canManageKeys: boolean }) {
  return canManageKeys ? (
    <Link href="/settings/api-keys" className="text-accent dark:text-indigo-400 underline-offset-2 hover:underline">
      Settings → API keys
    </Link>
  ) : (
    <>Settings → API keys</>
  );
}

export function KeysReaching({ keys, canManageKeys }: { keys: readonly ReachingKeyRow[]; canManageKeys: boolean }) {
  const whoMakes = canManageKeys ? "make one in" : "ask an admin to make one in";
  if (keys.length === 0) {
    return (
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        No API key can reach this agent yet: {whoMakes} <Settings canManageKeys={canManageKeys} />, for all agents or for this one, that may run
        agents.
      </p>
    );
  }
  const runners = keys.filter((key) => key.scopes.includes("run")).length;
  return (
    <>
      <Table density="compact" aria-label="Keys that can reach this agent">
        <TableHeader>
          <TableRow>
            <TableHead>Name</TableHead>
            <TableHead>Prefix</TableHead>
            <TableHead>May</TableHead>
            <TableHead>Reaches</TableHead>
            <TableHead>Expires</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {keys.map((key) => (
            <TableRow key={key.id}>
              <TableCell className="font-medium">{key.name}</TableCell>
              <TableCell className="whitespace-nowrap font-mono">{key.prefix}…</TableCell>
              <TableCell>{scopeWords(key.scopes)}</TableCell>
              <TableCell>{key.reach === "all" ? "All agents" : "Agents it lists, this one included"}</TableCell>
              <TableCell className="whitespace-nowrap">{key.expiresAt ? <Time at={key.expiresAt} format="date" /> : "Never"}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <p className="mt-2 text-xs text-zinc-500 dark:text-zinc-400">
        {runners === 0 ? (
          <>
            None of these may run agents, which chat completions and MCP need: {whoMakes} <Settings canManageKeys={canManageKeys} />.{" "}
          </>
        ) : null}
        A key&apos;s value was shown once, when it was made; whoever holds it puts it where the snippets say {"<YOUR_API_KEY>"}.
      </p>
    </>
  );
}
