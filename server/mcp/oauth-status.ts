// Where an OAuth server's row stands before its connection says (R-mcp-oauth-needs-sign-in): a server nobody signed
// in to, or whose grant was refused, reads "needs sign-in" even when the studio has not tried to reach it yet.
import type { Db } from "@/db/client";
import type { McpStatus } from "./connection";
import { neverSignedIn } from "./oauth-provider";
import { signIns, type SignIn } from "./oauth-store";
import type { McpServerRow } from "./registry";

export type { SignIn };

/** Each row's status as the page shows it, and its sign-in (null for a row without OAuth); never a token. */
export async function rowsWithSignIn<R extends McpServerRow>(
  db: Db,
  rows: readonly R[],
  status: (id: string) => McpStatus,
): Promise<Array<R & { status: McpStatus; signIn: SignIn | null }>> {
  const found = await signIns(db, rows);
  return rows.map((row) => {
    const signIn = found.get(row.id) ?? null;
    const now = status(row.id);
    if (!signIn || signIn.signedIn || now.state !== "stopped") return { ...row, status: now, signIn };
    const sentence = signIn.outcome && !signIn.outcomeOk ? signIn.outcome : neverSignedIn(row.name).message;
    return { ...row, status: { ...now, state: "needs-sign-in", sentence }, signIn };
  });
}
