// Where a run keeps a result whole (R-cut-run, R-result-output-cap, R-cut-bounded): `.results/<run id>/` of the
// agent's working folder, the root its filesystem tools read, so the note's path is one read_file opens. Every
// folder from the workspace down is opened without following a link (beneath.ts), as the filesystem source does,
// because the agent's own tools can write there and could plant one.
import { createHash, randomUUID } from "node:crypto";
import { constants } from "node:fs";
import fs, { type FileHandle } from "node:fs/promises";
import path from "node:path";
import { at, entriesOf, holding, lstatAt, NO_FOLLOW, openChild, openFolder, removeTree } from "@/server/system/filesystem/beneath";
import { openRoot } from "@/server/system/filesystem/confine";

export const RESULTS_FOLDER = ".results";
/** Per run: kept files and their bytes; per working folder: the runs whose folders stay. The newest always stays. */
export const KEEP_LIMITS = { files: 50, bytes: 64 * 1024 * 1024, runs: 20 };

/** Where one run keeps its results: the agent's working folder (inside the workspace), the data folder, the run. */
export type KeepIn = { folder: string; dataDir: string; runId: string };

/** The path the note names (relative to the agent's working folder), or why nothing was kept. */
export type Kept = { kept: string } | { why: string };

const linked = (shown: string) => new Error(`${shown} is a symbolic link, which is not followed`);
const TOOL_FILE = /^tool-[0-9a-f-]{36}\.txt$/;

/** The note between the head and the tail of a cut result, as the tool host writes it (R-result-cut). */
export function cutNote(left: number, total: number, where: Kept): string {
  const rest = "kept" in where
    ? `The whole of it is in ${where.kept} (in the agent's working folder); read that file for the part in between ...]`
    : `The whole of it could not be kept where your file tools can read it (${where.why}) ...]`;
  return `\n\n[... ${left.toLocaleString("en-US")} characters left out here: the result was ${total.toLocaleString("en-US")} characters long. ${rest}\n\n`;
}

function why(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\.$/, "");
}

/** `text` in a new file of the run's results folder, the oldest files past the bounds dropped. */
export async function keepInRun(where: KeepIn, text: string): Promise<Kept> {
  const name = `tool-${randomUUID()}.txt`;
  try {
    await holding(openRoot({ root: where.folder }, where.dataDir), (root) =>
      holding(openFolder(root, [RESULTS_FOLDER, where.runId], (i) => linked(i === 0 ? RESULTS_FOLDER : `${RESULTS_FOLDER}/${where.runId}`), true), async (dir) => {
        const file = await fs.open(at(dir, name), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW, 0o644);
        await holding(file, (f) => f.writeFile(text, "utf8"));
        await pruneFiles(dir, name);
        await holding(openChild(root, RESULTS_FOLDER, () => linked(RESULTS_FOLDER)), (results) => pruneRuns(results, where.runId));
      }),
    );
  } catch (error) {
    return { why: why(error) };
  }
  return { kept: `${RESULTS_FOLDER}/${where.runId}/${name}` };
}

type Aged = { name: string; mtimeMs: number; size: number };

/** Newest first, `first` ahead of all: the one just made is never the one dropped. */
function newestFirst(items: Aged[], first: string): Aged[] {
  return items.sort((a, b) => Number(b.name === first) - Number(a.name === first) || b.mtimeMs - a.mtimeMs);
}

async function pruneFiles(dir: FileHandle, newest: string): Promise<void> {
  const files: Aged[] = [];
  for (const entry of await entriesOf(dir)) {
    const stat = TOOL_FILE.test(entry.name) ? await lstatAt(dir, entry.name) : null;
    if (stat?.isFile()) files.push({ name: entry.name, mtimeMs: stat.mtimeMs, size: stat.size });
  }
  let bytes = 0;
  for (const [index, file] of newestFirst(files, newest).entries()) {
    bytes += file.size;
    if (index === 0 || (index < KEEP_LIMITS.files && bytes <= KEEP_LIMITS.bytes)) continue;
    await fs.unlink(at(dir, file.name)).catch(() => undefined);
  }
}

async function pruneRuns(results: FileHandle, current: string): Promise<void> {
  const runs: Aged[] = [];
  for (const entry of await entriesOf(results)) {
    if (!entry.isDirectory()) continue;
    const stat = await lstatAt(results, entry.name);
    if (stat?.isDirectory()) runs.push({ name: entry.name, mtimeMs: stat.mtimeMs, size: 0 });
  }
  for (const old of newestFirst(runs, current).slice(KEEP_LIMITS.runs)) {
    const dir = await openChild(results, old.name, () => linked(old.name)).catch(() => null);
    if (!dir) continue;
    await holding(dir, removeTree).catch(() => undefined);
    await fs.rmdir(at(results, old.name)).catch(() => undefined);
  }
}

/**
 * Text over the cap, kept whole in the run's results folder and cut to its head and tail with the note between: at
 * the default cap of 20,000, the first 4,000 and the last 1,000 characters (R-result-cut), and in that proportion for
 * another cap. `kept` is the file's path relative to the agent's working folder, as the note names it.
 */
export async function capOutput(text: string, cap: number, where: KeepIn): Promise<{ text: string; kept: string | null }> {
  if (text.length <= cap) return { text, kept: null };
  const head = Math.floor(cap / 5);
  const tail = Math.floor(cap / 20);
  const kept = await keepInRun(where, text);
  return { text: text.slice(0, head) + cutNote(text.length - head - tail, text.length, kept) + text.slice(-tail), kept: "kept" in kept ? kept.kept : null };
}

/** The tool host's file of a cut result, if `reported` names one in the work folder of `tree`'s host; else null. */
async function hostFile(reported: string, tree: string): Promise<{ folder: string; name: string } | null> {
  const match = /^(.*)\/work\/([0-9a-f]{16})\/\.results\/([^/]+)$/.exec(reported);
  if (!match || !TOOL_FILE.test(match[3]!)) return null;
  const real = await fs.realpath(tree).catch(() => tree);
  if (createHash("sha256").update(real).digest("hex").slice(0, 16) !== match[2]) return null;
  return { folder: path.join(match[1]!, "work", match[2]!), name: match[3]! };
}

/** The host's kept text, read without following a link and removed: the run's copy replaces it. */
async function takeHostFile(file: { folder: string; name: string }): Promise<string> {
  const work = await fs.open(file.folder, constants.O_RDONLY | constants.O_DIRECTORY);
  return holding(work, (base) =>
    holding(openChild(base, RESULTS_FOLDER, () => linked(RESULTS_FOLDER)), async (dir) => {
      const text = await holding(fs.open(at(dir, file.name), constants.O_RDONLY | NO_FOLLOW), async (handle) => {
        if (!(await handle.stat()).isFile()) throw new Error(`${file.name} is not a regular file`);
        return handle.readFile("utf8");
      });
      await fs.unlink(at(dir, file.name)).catch(() => undefined);
      return text;
    }),
  );
}

/**
 * A tree tool's result the tool host cut (R-cut-run): its whole text moved from the host's working folder into the
 * run's results folder, masked as the run masks, and the host's note rewritten to name the new path, or to say why
 * the file tools cannot reach it.
 */
export async function adoptHostCut(where: KeepIn & { tree: string }, text: string, reported: string, mask: (text: string) => string): Promise<{ text: string; kept: string | null }> {
  const file = await hostFile(reported, where.tree);
  if (!file) return { text, kept: null };
  const hostWhere = `${RESULTS_FOLDER}/${file.name} (in the tool host's working folder)`;
  let kept: Kept;
  try {
    kept = await keepInRun(where, mask(await takeHostFile(file)));
  } catch (error) {
    kept = { why: `the tool host's copy could not be read: ${why(error)}` };
  }
  if ("kept" in kept) return { text: text.replace(hostWhere, `${kept.kept} (in the agent's working folder)`), kept: kept.kept };
  return { text: text.replace(`The whole of it is in ${hostWhere}; read that file for the part in between`, `The whole of it could not be kept where your file tools can read it (${kept.why})`), kept: null };
}
