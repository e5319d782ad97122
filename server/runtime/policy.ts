// The agent's policy applied to one call (docs/rules.md, Timeouts and The loop around a call): the bound (the
// operation's own timeout wins over the policy's default, a module's ARG_TIMEOUT follows the call's argument, an
// interactive wait has none, nothing above 600 s), whether a transient failure is retried (safe and idempotent
// operations only), the dedupe key, and the output cap with its note (R-result-output-cap). Pure but for keeping a cut result.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { AgentDeclaration } from "@/server/agents/declaration";
import { MAX_TIMEOUT_S } from "@/server/host";
import type { RunOperation } from "./catalog";

export type Policy = AgentDeclaration["policy"];

function seconds(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value > 0;
}

/** Seconds the call may take once it starts (never counting a wait for approval); null: no bound. */
export function boundOf(op: RunOperation, policy: Policy, args: Record<string, unknown>): number | null {
  if (op.interactive) return null;
  if (op.arg_timeout && seconds(args.timeout)) return Math.min(args.timeout, op.max_timeout, MAX_TIMEOUT_S);
  if (seconds(op.timeout)) return Math.min(op.timeout, MAX_TIMEOUT_S);
  return Math.min(policy.timeout_s, MAX_TIMEOUT_S);
}

/** R-loop-retry: only a safe or idempotent operation is called again after a transient failure. */
export function mayRetry(op: RunOperation): boolean {
  return op.replay === "safe" || op.replay === "idempotent";
}

function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.keys(value as object).sort().map((k) => [k, stable((value as Record<string, unknown>)[k])]));
  }
  return value;
}

/** Two calls are identical when they name the same operation with the same arguments, in any key order. */
export function dedupeKey(operation: string, args: Record<string, unknown>): string {
  return `${operation} ${JSON.stringify(stable(args))}`;
}

/** The note between the head and the tail of a cut result, as the tool host writes it (R-result-cut). */
export function cutNote(left: number, total: number, where: string): string {
  return (
    `\n\n[... ${left.toLocaleString("en-US")} characters left out here: the result was ${total.toLocaleString("en-US")} characters long. ` +
    `The whole of it is in ${where}; read that file for the part in between ...]\n\n`
  );
}

/** Where cut results are kept, inside the agent's working folder, so its file tools can read them. */
export const KEPT_FOLDER = path.join(".quiver", "results");

/**
 * Text over the cap, kept whole in a file of the agent's working folder and cut to its head and tail with the
 * note between: at the default cap of 20,000, the first 4,000 and the last 1,000 characters (R-result-cut), and in
 * that proportion for another cap. `kept` is the file's path relative to that folder, as the note names it.
 */
export function capOutput(text: string, cap: number, folder: string): { text: string; kept: string | null } {
  if (text.length <= cap) return { text, kept: null };
  const head = Math.floor(cap / 5);
  const tail = Math.floor(cap / 20);
  const kept = path.join(KEPT_FOLDER, `tool-${crypto.randomUUID()}.txt`);
  fs.mkdirSync(path.join(folder, KEPT_FOLDER), { recursive: true });
  fs.writeFileSync(path.join(folder, kept), text, "utf8");
  return { text: text.slice(0, head) + cutNote(text.length - head - tail, text.length, `${kept} (in the agent's working folder)`) + text.slice(-tail), kept };
}
