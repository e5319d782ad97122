// A Tool class's own word on each call of a turn (R-tool-class-per-call): asked of the tool host before the turn is
// scheduled, so whether a call runs beside the others and whether it asks first follow these very arguments, not
// only what its operation declares. A host that cannot answer leaves the declared behaviour in place.
import type { CallBehaviour } from "@/server/host/call-behaviour";
import type { PreparedCall, Run } from "./run";

const answers = new WeakMap<PreparedCall, CallBehaviour>();

/** The host's question as the loop needs it; a stand-in host in a test may not answer it. */
type Asks = { callBehaviour?: (name: string, args: Record<string, unknown>) => Promise<CallBehaviour> };

/** Ask the host about every call of the turn that names a Tool class's operation, all at once. */
export async function askPerCall(run: Run, prepared: PreparedCall[]): Promise<void> {
  await Promise.all(
    prepared.map(async (p) => {
      if (!p.op?.per_call || p.early || !p.args || p.resumed?.result || answers.has(p)) return;
      const answer = await (run.host as Asks).callBehaviour?.(p.op.name, p.args).catch(() => undefined);
      if (answer) answers.set(p, answer);
    }),
  );
}

/** Whether the call may run beside the others of its turn (R-loop-concurrency), by its own answer where it gives one. */
export function concurrentNow(p: PreparedCall): boolean {
  return answers.get(p)?.concurrent ?? p.op?.concurrent ?? false;
}

/**
 * Whether the call is destructive in the sense that asks the person first unless the builder chose otherwise: an MCP
 * tool its server marks so (R-mcp-behaviour), a Tool class's call it says is (R-tool-class-per-call).
 */
export function destructiveNow(p: PreparedCall): boolean {
  if (!p.op) return false;
  if (p.op.kind === "mcp") return p.op.destructive === true;
  return p.op.per_call === true && (answers.get(p)?.destructive ?? p.op.destructive === true);
}
