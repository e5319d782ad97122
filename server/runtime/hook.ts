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
import { watch, type FSWatcher } from "node:fs";
import path from "node:path";
import { HOOK_PATH, hookFile, hookSource } from "@/server/agents/hook";
import type { HookDecision } from "@/server/host";
import type { PreparedCall, Run } from "./run";

export type HookVerdict = HookDecision & { failed: boolean };

/** How long a text read under an unbroken watch stands before the file is looked at anyway (R-perm-hook-watched). */
export const HOOK_RECHECK_MS = 1_000;
/** Trees whose hook is watched at once; the one read longest ago stops being watched first. */
const WATCHED_TREES = 32;

/** A tree's hook as last read, and the watch that says when it may have changed since. */
type Watched = { text: Promise<string | null>; at: number; changed: boolean; watchers: FSWatcher[] | null };
const watched = new Map<string, Watched>();

function unwatch(entry: Watched): void {
  for (const watcher of entry.watchers ?? []) watcher.close();
  entry.watchers = null;
}

/**
 * Watches on the hook's folder (the file written, replaced, removed) and on the folder above it (hooks/ made or
 * removed): any event marks the text as changed. Null where they cannot be opened: then every call looks.
 */
function watchHook(tree: string, entry: Watched): FSWatcher[] | null {
  const folder = path.dirname(hookFile(tree));
  const changed = () => {
    entry.changed = true;
  };
  const watchers: FSWatcher[] = [];
  for (const where of [path.dirname(folder), folder]) {
    try {
      const watcher = watch(where, { persistent: false }, changed);
      watcher.on("error", () => {
        entry.changed = true;
        unwatch(entry);
      });
      watchers.push(watcher);
    } catch {
      // hooks/ itself may not exist yet: the watch above it sees it made. Without that one, nothing is watched.
      if (watchers.length === 0) return null;
    }
  }
  return watchers;
}

/**
 * The hook's text as it stands now, or null when the tree has none (R-perm-hook-watched): read afresh (a stat, and
 * a read when it changed) when a watch saw a change, when nothing watches it, or HOOK_RECHECK_MS after the last
 * look; else the text last read, with no system call on the call's path.
 */
export function currentHook(tree: string): Promise<string | null> {
  const now = performance.now();
  const known = watched.get(tree);
  if (known && !known.changed && known.watchers && now - known.at < HOOK_RECHECK_MS) return known.text;
  const entry: Watched = known ?? { text: Promise.resolve(null), at: 0, changed: true, watchers: null };
  if (known) unwatch(known);
  watched.delete(tree);
  watched.set(tree, entry);
  if (watched.size > WATCHED_TREES) {
    const [oldest, stale] = watched.entries().next().value!;
    unwatch(stale);
    watched.delete(oldest);
  }
  // Watched before the look, so an edit during the look marks it changed: the next call looks again.
  entry.changed = false;
  entry.at = now;
  entry.watchers = watchHook(tree, entry);
  entry.text = hookSource(tree);
  entry.text.catch(() => {
    entry.changed = true;
  });
  return entry.text;
}

/** What the hook decides on this call, or null when the tree has no hook. */
export async function consultHook(run: Run, p: PreparedCall): Promise<HookVerdict | null> {
  const op = p.op!;
  let source: string | null;
  try {
    source = await currentHook(run.deps.tree);
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
