// The call hook at run time (R-perm-hook): before a call runs, hooks/tools.py beside the tree sees it by
// name with its arguments and may allow it, refuse it with a sentence, or ask for approval. The tree's tool host
// runs the hook; the studio reads the file and hands its text to the host (by its sha256, the text itself only
// when the host lacks it: host/client.ts), so what a tool can write never decides for it.
//
// How it combines with the agent's permissions (permissions.ts):
//   - a DENY is never lifted: the hook is not asked;
//   - the hook's refusal refuses, whatever the permission;
//   - the hook's ask asks every time: it looked at these arguments, so an earlier "Always in this run" does not
//     answer for it, and its card offers no "Always";
//   - the hook's allow runs the call without asking, except where the builder set this operation to Ask me;
//   - no opinion (None) leaves the permission as it is.
import { HOOK_PATH, hookSource } from "@/server/agents/hook";
import type { HookDecision } from "@/server/host";
import type { PreparedCall, Run } from "./run";

export type HookVerdict = HookDecision & { failed: boolean };

/** What the hook decides on this call, or null when the tree has no hook. */
export async function consultHook(run: Run, p: PreparedCall): Promise<HookVerdict | null> {
  const op = p.op!;
  let source: string | null;
  try {
    source = await hookSource(run.deps.tree);
  } catch (err) {
    return { decision: "refuse", reason: `${HOOK_PATH} could not be read: ${(err as Error).message}`, failed: true };
  }
  if (source === null) return null;
  try {
    const decided = await run.host.hook(source, { name: op.name, arguments: p.args ?? {}, source: op.source, agent: run.agent.id, run: run.id });
    return { ...decided, failed: decided.error === true };
  } catch (err) {
    // A hook nobody could ask must not let the call through.
    return { decision: "refuse", reason: `${HOOK_PATH} could not be asked: ${(err as Error).message}`, failed: true };
  }
}

/** What the model reads when the hook refuses. */
export function hookRefusal(name: string, verdict: HookVerdict): string {
  if (verdict.failed) return `${name} did not run: the call hook (${HOOK_PATH}) could not decide on it (${verdict.reason}). Tell the person; a developer must fix the hook.`;
  return `${name} was refused by the call hook (${HOOK_PATH}) and did not run${verdict.reason ? `: ${verdict.reason}` : "."}`;
}
