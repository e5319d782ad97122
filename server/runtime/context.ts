// What a built-in's handler is given for one call (server/system/types.ts): its entry's settings (defaults filled,
// secrets resolved, the root an absolute folder of the workspace), the run's plan, a way to ask the person, the
// run's folders and the tree it may import. Built at dispatch, so settings and secrets exist nowhere earlier.
import fs from "node:fs";
import path from "node:path";
import { parseEntry } from "@/server/agents/entries";
import { workspaceDir } from "@/server/system/filesystem/workspace";
import { outputDirFor, systemSettings, systemSource, type SystemContext } from "@/server/system";
import type { RunOperation } from "./catalog";
import type { Run, WaitAnswer } from "./run";

/** The folder of the workspace an agent works in: its filesystem root when it has one, else the workspace. */
export function workFolder(run: Run): string {
  const workspace = workspaceDir(run.deps.dataDir);
  const files = run.declaration.tools.find((t) => t.entry.trim().split("#")[0]!.trim() === "system:filesystem");
  const root = files?.settings.root;
  return typeof root === "string" && root.trim() !== "" ? path.resolve(workspace, root) : workspace;
}

/** Creates the roots the agent's built-ins are confined to (validated inside the workspace when saved). */
export function prepareRoots(run: Run): void {
  const workspace = workspaceDir(run.deps.dataDir);
  fs.mkdirSync(workspace, { recursive: true });
  for (const tool of run.declaration.tools) {
    const parsed = parseEntry(tool.entry);
    if (!parsed.ok || parsed.entry.kind !== "system") continue;
    const source = systemSource(parsed.entry.source.slice("system:".length));
    const properties = (source?.settings_schema?.properties ?? {}) as Record<string, { "x-quiver-kind"?: string; default?: unknown }>;
    for (const [key, property] of Object.entries(properties)) {
      const value = tool.settings[key] ?? property.default;
      if (property["x-quiver-kind"] === "root" && typeof value === "string") fs.mkdirSync(path.resolve(workspace, value), { recursive: true });
    }
  }
}

/** The tree files this agent was given, by file name, with their narrowed operations (null: all of them). */
function treeFiles(run: Run): Record<string, string[] | null> {
  const files: Record<string, string[] | null> = {};
  for (const tool of run.declaration.tools) {
    const parsed = parseEntry(tool.entry);
    if (parsed.ok && parsed.entry.kind === "tree") files[parsed.entry.source.slice("tools/".length)] = parsed.entry.operations;
  }
  return files;
}

/**
 * Put a question to the person on a call's card and wait for the reply (no time limit unless `withinMs` sets one:
 * R-loop-ctx-ask, R-ask-hour); null when nobody can answer, they would rather not, or nobody answered in time.
 * `alreadyAsked`: after a restart the question is in front of the person already, so it is not asked again, and its
 * bound counts from when it was put.
 */
export async function askThePerson(run: Run, callId: string, question: string, choices: string[], alreadyAsked: boolean, withinMs?: number): Promise<string | null> {
  if (!run.deps.settings.canAsk) return null;
  if (!alreadyAsked) await run.emit("question_asked", { callId, question, choices });
  const left = alreadyAsked && withinMs !== undefined ? await leftOf(run, callId, withinMs) : withinMs;
  const reply = await waitWithin(run, callId, left);
  if (!("answer" in reply)) return null;
  await run.emit("question_answered", { callId, answer: reply.answer, by: reply.by, ...(reply === EXPIRED ? { expired: true as const } : {}) });
  return reply.answer;
}

/** What is left of a question's bound, counted from when its question_asked event was stored. */
async function leftOf(run: Run, callId: string, withinMs: number): Promise<number> {
  const events = await run.deps.log.stored(run.id, 0, ["question_asked"]).catch(() => []);
  const asked = events.find((e) => e.data.callId === callId);
  return asked ? Math.max(0, withinMs - (Date.now() - Date.parse(asked.at))) : withinMs;
}

/** What a question left unanswered past its bound settles as: nobody's answer (R-ask-hour). */
const EXPIRED: WaitAnswer = { answer: null, by: { id: "", name: null } };

/** The person's reply, or EXPIRED once `withinMs` passes with the card still open (its wait then closes). */
async function waitWithin(run: Run, callId: string, withinMs: number | undefined): Promise<WaitAnswer> {
  const waiting = run.wait(callId, "question");
  if (withinMs === undefined) return waiting;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<void>((resolve) => (timer = setTimeout(resolve, withinMs)));
  try {
    await Promise.race([waiting.then(() => undefined), expired]);
  } finally {
    clearTimeout(timer);
  }
  try {
    run.settle(callId, "question", EXPIRED);
  } catch {
    // Answered (or the run stopped) as the bound passed: that answer stands.
  }
  return waiting;
}

export function systemContext(
  run: Run,
  op: RunOperation,
  call: { callId: string; settings: Record<string, unknown>; signal: AbortSignal; resumed: boolean; progress: (text: string) => void },
): SystemContext {
  const source = systemSource(op.source.slice("system:".length))!;
  let asked = call.resumed;
  return {
    settings: systemSettings(source, call.settings, workspaceDir(run.deps.dataDir)),
    agentId: run.agent.id,
    runId: run.id,
    signal: call.signal,
    progress: call.progress,
    ask: async (question, choices, withinMs) => {
      const bound = withinMs === undefined ? undefined : (run.deps.settings.askUserMs ?? withinMs);
      const reply = await askThePerson(run, call.callId, question, choices, asked, bound);
      asked = false;
      return reply;
    },
    todos: {
      get: async () => run.todos.map((t) => ({ ...t })),
      set: async (todos) => {
        run.todos = todos.map((t) => ({ ...t }));
        await run.emit("todos", { todos: run.todos });
      },
    },
    db: run.deps.db,
    dataDir: run.deps.dataDir,
    workDir: workFolder(run),
    outputDir: outputDirFor(run.deps.dataDir, run.id),
    tree: { dir: run.deps.tree, files: treeFiles(run) },
  };
}
