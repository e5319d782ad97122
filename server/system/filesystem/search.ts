// glob and grep: walks under the root that never follow a link, bounded in results, in entries looked at and in time,
// and that say so when a bound stopped them. A glob without a slash in grep's filter matches the file's name alone.
import fs from "node:fs/promises";
import path from "node:path";
import { count, Failure, handler, integer, limit, Refusal, text } from "../handler";
import type { SystemContext } from "../types";
import { confine, NO_FOLLOW, pathParts, rootFolder } from "./confine";
import { globShape, globToRegExp } from "./glob-pattern";
import { DEFAULT_MAX_DIRECTORY_ENTRIES, DEFAULT_MAX_READ_BYTES, decodeText, linesOf } from "./read";

/** How long one search may look, and how many entries, before it answers what it found so far. */
export const SEARCH_SECONDS = 10;
export const MAX_VISITED = 100_000;
/** grep's max_matches is the model's; this is the most it may ask for. */
export const MAX_MATCHES = 1_000;
const LINE_SHOWN = 300;

type Walk = { stopped: string | null };

/** The files under `abs` (paths relative to it), sorted folder by folder, to at most `depth` names deep. */
async function* files(abs: string, depth: number, signal: AbortSignal, walk: Walk): AsyncGenerator<string> {
  const deadline = Date.now() + SEARCH_SECONDS * 1000;
  const stack: { rel: string; level: number }[] = [{ rel: "", level: 0 }];
  let visited = 0;
  // Checked before each folder and each file, so a grep over one large folder stops in time too.
  const halted = () => (walk.stopped = signal.aborted ? "the call was cancelled" : Date.now() > deadline ? `it searched for ${SEARCH_SECONDS} s` : null);
  while (stack.length > 0) {
    if (halted()) return;
    const { rel, level } = stack.pop()!;
    const entries = await fs.readdir(path.join(abs, rel), { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
    const folders: { rel: string; level: number }[] = [];
    const here: string[] = [];
    for (const entry of entries) {
      if (++visited > MAX_VISITED) {
        walk.stopped = `it looked at ${count(MAX_VISITED)} entries`;
        return;
      }
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory() && level + 1 < depth) folders.push({ rel: child, level: level + 1 });
      else if (entry.isFile() && level < depth) here.push(child);
    }
    for (const file of here.reverse()) {
      if (halted()) return;
      yield file;
    }
    stack.push(...folders);
  }
}

async function searchBase(args: Record<string, unknown>, ctx: SystemContext) {
  const root = await rootFolder(ctx.settings, ctx.dataDir);
  const base = await confine(text(args, "path", "."), root);
  const stat = await fs.lstat(base.abs).catch(() => null);
  if (!stat) throw new Failure(`There is no ${base.rel}; list its parent folder to see what is there.`);
  return { root, base, isFile: stat.isFile() };
}

const under = (folder: string, rel: string) => (folder === "." ? rel : `${folder}/${rel}`);
const stoppedNote = (walk: Walk, what: string) => (walk.stopped ? `\n(stopped early because ${walk.stopped}; ${what})` : "");

export const glob = handler(async (args, ctx) => {
  const pattern = text(args, "pattern").trim();
  const { root, base, isFile } = await searchBase(args, ctx);
  if (isFile) throw new Refusal(`${base.rel} is a file; give the folder to search in.`);
  pathParts(pattern.replace(/[*?[\]{}]/g, "x")); // refuses an absolute pattern or one that climbs out with ..
  const matcher = globToRegExp(pattern);
  const { prefix, depth } = globShape(pattern);
  const start = await confine(under(base.rel, prefix.join("/")), root);
  const max = limit(ctx.settings, "max_directory_entries", DEFAULT_MAX_DIRECTORY_ENTRIES);
  const walk: Walk = { stopped: null };
  const found: string[] = [];
  const startRel = prefix.join("/");
  for await (const file of files(start.abs, depth, ctx.signal, walk)) {
    const relToBase = startRel ? `${startRel}/${file}` : file;
    if (!matcher.test(relToBase)) continue;
    if (found.length === max) {
      walk.stopped = `it found ${count(max)} files, the most one search answers`;
      break;
    }
    found.push(under(base.rel, relToBase));
  }
  if (found.length === 0) return `No files under ${base.rel} match ${pattern}.${stoppedNote(walk, "narrow the path")}`;
  return found.join("\n") + stoppedNote(walk, "narrow the pattern or the path");
});

/** The regular expression the model wrote, or a refusal that says what is wrong with it. */
function compile(pattern: string): RegExp {
  try {
    return new RegExp(pattern);
  } catch (error) {
    throw new Refusal(`The pattern is not a valid regular expression (${(error as Error).message}); escape characters such as ( [ or + with a backslash to match them literally.`);
  }
}

async function textOf(abs: string, maxBytes: number): Promise<string | null> {
  const file = await fs.open(abs, fs.constants.O_RDONLY | NO_FOLLOW).catch(() => null);
  if (!file) return null;
  try {
    const stat = await file.stat();
    if (!stat.isFile() || stat.size > maxBytes) return null;
    return decodeText(await file.readFile());
  } finally {
    await file.close();
  }
}

export const grep = handler(async (args, ctx) => {
  const regex = compile(text(args, "pattern"));
  const { base, isFile } = await searchBase(args, ctx);
  const only = typeof args.glob === "string" && args.glob.trim() ? args.glob.trim() : null;
  const filter = only ? globToRegExp(only) : null;
  const matchesFilter = (rel: string) => !filter || filter.test(only!.includes("/") ? rel : path.posix.basename(rel));
  const max = integer(args, "max_matches", 100, 1, MAX_MATCHES);
  const maxBytes = limit(ctx.settings, "max_read_bytes", DEFAULT_MAX_READ_BYTES);
  const walk: Walk = { stopped: null };
  const found: string[] = [];
  const candidates = isFile ? (async function* () { yield ""; })() : files(base.abs, Infinity, ctx.signal, walk);
  search: for await (const file of candidates) {
    if (!isFile && !matchesFilter(file)) continue;
    const shown = file ? under(base.rel, file) : base.rel;
    const content = await textOf(file ? path.join(base.abs, file) : base.abs, maxBytes);
    if (content === null) continue;
    const lines = linesOf(content);
    for (let i = 0; i < lines.length; i++) {
      if (!regex.test(lines[i]!)) continue;
      if (found.length === max) {
        walk.stopped = `it found ${count(max)} matches, the most asked for`;
        break search;
      }
      const line = lines[i]!.length > LINE_SHOWN ? `${lines[i]!.slice(0, LINE_SHOWN)}…` : lines[i]!;
      found.push(`${shown}:${i + 1}: ${line}`);
    }
  }
  if (found.length === 0) return `No matches for ${regex.source} under ${base.rel}.${stoppedNote(walk, "narrow the path")}`;
  return found.join("\n") + stoppedNote(walk, "narrow the pattern, the path or the glob");
});
