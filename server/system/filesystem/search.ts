// glob and grep: walks under the root that never follow a link, bounded in results, in entries looked at and in time,
// and that say so when a bound stopped them. A glob without a slash in grep's filter matches the file's name alone.
// Each folder is opened through the open folder it was listed in (beneath.ts), so the walk never leaves the root.
import fs, { type FileHandle } from "node:fs/promises";
import path from "node:path";
import { count, Failure, handler, integer, limit, Refusal, text } from "../handler";
import { at, entriesOf, holding, lstatAt, NO_FOLLOW, openChild } from "./beneath";
import { confine, type Confined, linkRefusal, missingAs, openUnder, pathParts, withRoot } from "./confine";
import { globShape, globToRegExp } from "./glob-pattern";
import { DEFAULT_MAX_DIRECTORY_ENTRIES, DEFAULT_MAX_READ_BYTES, decodeText, linesOf } from "./read";

/** How long one search may look, and how many entries, before it answers what it found so far. */
export const SEARCH_SECONDS = 10;
export const MAX_VISITED = 100_000;
/** grep's max_matches is the model's; this is the most it may ask for. */
export const MAX_MATCHES = 1_000;
const LINE_SHOWN = 300;

type Walk = { stopped: string | null };
/** A file the walk found: its folder, open while the file is being looked at, its name there, its path from the start. */
type Found = { dir: FileHandle; name: string; rel: string };
/** An open folder, kept open while folders listed in it wait on the stack to be opened through it. */
type Held = { handle: FileHandle; users: number };

const notALink = () => new Error("a link");

/** The files under the open folder `start`, sorted folder by folder, to at most `depth` names deep. */
async function* files(start: FileHandle, depth: number, signal: AbortSignal, walk: Walk): AsyncGenerator<Found> {
  const deadline = Date.now() + SEARCH_SECONDS * 1000;
  const stack: { parent: Held | null; name: string; rel: string; level: number }[] = [{ parent: null, name: ".", rel: "", level: 0 }];
  const open = new Set<FileHandle>();
  const release = async (held: Held) => {
    if (--held.users > 0) return;
    open.delete(held.handle);
    await held.handle.close();
  };
  let visited = 0;
  // Checked before each folder and each file, so a grep over one large folder stops in time too.
  const halted = () => (walk.stopped = signal.aborted ? "the call was cancelled" : Date.now() > deadline ? `it searched for ${SEARCH_SECONDS} s` : null);
  try {
    while (stack.length > 0) {
      if (halted()) return;
      const { parent, name, rel, level } = stack.pop()!;
      // A folder swapped for a link since it was listed is skipped, like one that is gone.
      const handle = await openChild(parent?.handle ?? start, name, notALink).catch(() => null);
      if (parent) await release(parent);
      if (!handle) continue;
      open.add(handle);
      const held: Held = { handle, users: 1 };
      const entries = await entriesOf(handle).catch(() => []);
      entries.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
      const folders: typeof stack = [];
      const here: string[] = [];
      for (const entry of entries) {
        if (++visited > MAX_VISITED) {
          walk.stopped = `it looked at ${count(MAX_VISITED)} entries`;
          return;
        }
        const child = rel ? `${rel}/${entry.name}` : entry.name;
        if (entry.isDirectory() && level + 1 < depth) folders.push({ parent: held, name: entry.name, rel: child, level: level + 1 });
        else if (entry.isFile() && level < depth) here.push(entry.name);
      }
      for (const file of here.reverse()) {
        if (halted()) return;
        yield { dir: handle, name: file, rel: rel ? `${rel}/${file}` : file };
      }
      held.users += folders.length;
      stack.push(...folders);
      await release(held);
    }
  } finally {
    for (const handle of open) await handle.close().catch(() => undefined);
  }
}

/** What a search starts from: the open folder, or for a file the open folder holding it and its name. */
type Base = { target: Confined; folder: FileHandle; file: string | null };

async function searchBase(args: Record<string, unknown>, root: FileHandle): Promise<Base> {
  const target = confine(text(args, "path", "."));
  const missing = () => new Failure(`There is no ${target.rel}; list its parent folder to see what is there.`);
  if (target.parts.length === 0) return { target, folder: await openUnder(root, target), file: null };
  const parent = await missingAs(openUnder(root, target, target.parts.length - 1), missing);
  const name = target.parts.at(-1)!;
  try {
    const stat = await lstatAt(parent, name);
    if (!stat) throw missing();
    if (stat.isSymbolicLink()) throw linkRefusal(target, target.parts.length - 1);
    if (!stat.isDirectory()) return { target, folder: parent, file: name };
    const folder = await missingAs(openChild(parent, name, () => linkRefusal(target, target.parts.length - 1)), missing);
    await parent.close();
    return { target, folder, file: null };
  } catch (error) {
    await parent.close();
    throw error;
  }
}

const under = (folder: string, rel: string) => (folder === "." ? rel : `${folder}/${rel}`);
const stoppedNote = (walk: Walk, what: string) => (walk.stopped ? `\n(stopped early because ${walk.stopped}; ${what})` : "");

export const glob = handler(async (args, ctx) => {
  const pattern = text(args, "pattern").trim();
  pathParts(pattern.replace(/[*?[\]{}]/g, "x")); // refuses an absolute pattern or one that climbs out with ..
  const matcher = globToRegExp(pattern);
  const { prefix, depth } = globShape(pattern);
  const max = limit(ctx.settings, "max_directory_entries", DEFAULT_MAX_DIRECTORY_ENTRIES);
  const walk: Walk = { stopped: null };
  const found: string[] = [];
  const startRel = prefix.join("/");
  const base = await withRoot(ctx, async (root) => {
    const { target, folder, file } = await searchBase(args, root);
    await folder.close();
    if (file !== null) throw new Refusal(`${target.rel} is a file; give the folder to search in.`);
    // A start folder that is not there has no files to match.
    const start = await openUnder(root, confine(under(target.rel, startRel))).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT" || error.code === "ENOTDIR") return null;
      throw error;
    });
    if (start) {
      await holding(start, async (open) => {
        for await (const { rel } of files(open, depth, ctx.signal, walk)) {
          const relToBase = startRel ? `${startRel}/${rel}` : rel;
          if (!matcher.test(relToBase)) continue;
          if (found.length === max) {
            walk.stopped = `it found ${count(max)} files, the most one search answers`;
            break;
          }
          found.push(under(target.rel, relToBase));
        }
      });
    }
    return target;
  });
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

/** The text of the file `name` in the open folder `dir`, or null when it is not a regular text file within `maxBytes`. */
async function textOf(dir: FileHandle, name: string, maxBytes: number): Promise<string | null> {
  const file = await fs.open(at(dir, name), fs.constants.O_RDONLY | NO_FOLLOW).catch(() => null);
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
  const only = typeof args.glob === "string" && args.glob.trim() ? args.glob.trim() : null;
  const filter = only ? globToRegExp(only) : null;
  const matchesFilter = (rel: string) => !filter || filter.test(only!.includes("/") ? rel : path.posix.basename(rel));
  const max = integer(args, "max_matches", 100, 1, MAX_MATCHES);
  const maxBytes = limit(ctx.settings, "max_read_bytes", DEFAULT_MAX_READ_BYTES);
  const walk: Walk = { stopped: null };
  const found: string[] = [];
  const base = await withRoot(ctx, async (root) => {
    const { target, folder, file } = await searchBase(args, root);
    const candidates = file !== null ? (async function* () { yield { dir: folder, name: file, rel: "" }; })() : files(folder, Infinity, ctx.signal, walk);
    await holding(folder, async () => {
      search: for await (const { dir, name, rel } of candidates) {
        if (file === null && !matchesFilter(rel)) continue;
        const shown = rel ? under(target.rel, rel) : target.rel;
        const content = await textOf(dir, name, maxBytes);
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
    });
    return target;
  });
  if (found.length === 0) return `No matches for ${regex.source} under ${base.rel}.${stoppedNote(walk, "narrow the path")}`;
  return found.join("\n") + stoppedNote(walk, "narrow the pattern, the path or the glob");
});
