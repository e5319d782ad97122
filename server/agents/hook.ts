// The call hook (R-perm-hook): `hooks/tools.py` beside the tree sees every call by name with its
// arguments before it runs. The builder is told it is there and which operations it governs.
//
// Which operations, by a deliberately simple reading of the file's text: every string literal that is exactly an
// operation's name governs that operation, and one ending in "__" (a file's prefix, "tickets__") governs every
// operation of that file. A hook that names no operation decides by something else (arguments, risk), so it is
// reported as governing "all". The hook itself always sees every call; this is only what the builder is told.
import { statSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { listSources } from "@/server/catalog/sources";

export type HookInfo = {
  present: boolean;
  /** Where it is, relative to the tree's parent folder. */
  path: string;
  /** The operations the hook's text names, in the order given; "all" when it names none. */
  governs: string[] | "all";
};

export const HOOK_PATH = path.join("hooks", "tools.py");

/** Where a tree's call hook lives: `hooks/tools.py` in the tree's parent folder. */
export function hookFile(tree: string): string {
  return path.join(path.dirname(path.resolve(tree)), HOOK_PATH);
}

const read = new Map<string, { mtimeMs: number; size: number; source: string }>();

/**
 * The hook's text as it stands now, or null when the tree has none: a stat per call, a read only when the file
 * changed, so an edited hook decides the very next call.
 */
export async function hookSource(tree: string): Promise<string | null> {
  const file = hookFile(tree);
  // Synchronous on purpose: a stat of a local file takes microseconds, while the promise form costs the runtime a
  // round trip through libuv's pool on every call of every run.
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) {
    read.delete(file);
    return null;
  }
  const known = read.get(file);
  if (known && known.mtimeMs === stat.mtimeMs && known.size === stat.size) return known.source;
  const source = await fs.readFile(file, "utf8");
  read.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, source });
  return source;
}

/** The string literals of a Python source, roughly: '...' and "..." on one line, triple quotes included. */
function literals(source: string): string[] {
  return [...source.matchAll(/(['"])((?:\\.|(?!\1)[^\\\n])*)\1/g)].map((m) => m[2]!);
}

export function governedBy(source: string, operations: readonly string[]): string[] | "all" {
  const found = new Set<string>();
  for (const text of literals(source)) {
    for (const name of operations) {
      if (text === name || (text.endsWith("__") && text.length > 2 && name.startsWith(text))) found.add(name);
    }
  }
  return found.size > 0 ? operations.filter((name) => found.has(name)) : "all";
}

/** Whether the tree has a call hook, and which operations it mentions by name (from the catalog when not given). */
export async function hookInfo(tree: string, operationNames?: readonly string[]): Promise<HookInfo> {
  const file = hookFile(tree);
  let source: string;
  try {
    source = await fs.readFile(file, "utf8");
  } catch {
    return { present: false, path: HOOK_PATH, governs: [] };
  }
  const names = operationNames ?? (await listSources(tree)).sources.flatMap((s) => s.operations.map((op) => op.name));
  return { present: true, path: HOOK_PATH, governs: governedBy(source, names) };
}
