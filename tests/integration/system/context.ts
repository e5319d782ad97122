// What the built-in sources' tests share: a throwaway data folder with a workspace and a root in it, and the context
// a handler is given, with a plan and a person to ask kept in memory. Edit when SystemContext gains a field.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type { Db } from "@/db/client";
import { systemHandler } from "@/server/system";
import type { SystemContext, SystemResult, Todo } from "@/server/system/types";

export type Place = { dir: string; dataDir: string; workspace: string; root: string; tree: string; cleanup(): void };

export function place(name: string): Place {
  const dir = mkdtempSync(path.join(tmpdir(), `quiver-system-${name}-`));
  const dataDir = path.join(dir, "data");
  const workspace = path.join(dataDir, "workspace");
  const root = path.join(workspace, "root");
  const tree = path.join(dir, "tools");
  for (const folder of [root, tree]) mkdirSync(folder, { recursive: true });
  return { dir, dataDir, workspace, root, tree, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const noDb = new Proxy({}, { get: () => { throw new Error("this test has no database"); } }) as Db;

export type FakeContext = SystemContext & { questions: { question: string; choices: string[] }[]; plan: Todo[] };

export function context(p: Place, overrides: Partial<SystemContext> & { answer?: string | null } = {}): FakeContext {
  const { answer = null, ...rest } = overrides;
  const ctx: FakeContext = {
    settings: { root: p.root, max_read_bytes: 1_000_000, max_directory_entries: 1_000 },
    agentId: randomUUID(),
    runId: randomUUID(),
    signal: new AbortController().signal,
    progress: () => undefined,
    questions: [],
    plan: [],
    ask: async (question, choices) => {
      ctx.questions.push({ question, choices });
      return answer;
    },
    todos: {
      get: async () => ctx.plan,
      set: async (todos) => void (ctx.plan = todos),
    },
    db: noDb,
    dataDir: p.dataDir,
    workDir: p.root,
    outputDir: path.join(p.dataDir, "runs", "r1", "output"),
    tree: { dir: p.tree, files: {} },
    ...rest,
  };
  return ctx;
}

/** Call one built-in operation as the runtime does. */
export function call(source: string, operation: string, args: Record<string, unknown>, ctx: SystemContext): Promise<SystemResult> {
  const handler = systemHandler(source, operation);
  if (!handler) throw new Error(`system:${source} has no handler for ${operation}`);
  return handler(args, ctx);
}
