// read_file and list_directory. read_file answers numbered lines (`     7\ttext`, as `cat -n` prints them) so the
// model can ask for a window by line and quote the text edit_file needs; the numbers are not part of the file.
import type { Dirent } from "node:fs";
import fs, { type FileHandle } from "node:fs/promises";
import { count, Failure, handler, integer, limit, Refusal, text } from "../handler";
import { at, entriesOf, holding, NO_FOLLOW } from "./beneath";
import { confine, type Confined, missingAs, openUnder, withRoot } from "./confine";

export const DEFAULT_MAX_READ_BYTES = 1_000_000;
export const DEFAULT_MAX_DIRECTORY_ENTRIES = 1_000;

/** Whether these bytes are text: no NUL in the first 8 KB, and valid UTF-8 throughout. */
export function decodeText(bytes: Buffer): string | null {
  if (bytes.subarray(0, 8192).includes(0)) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** The folder that holds `target`'s last part, open; a missing folder on the way answers `missing`. Caller closes. */
export function openParent(root: FileHandle, target: Confined, missing: string, create = false): Promise<FileHandle> {
  return missingAs(openUnder(root, target, target.parts.length - 1, create), () => new Failure(missing));
}

export const noFile = (rel: string) => `There is no file ${rel}; find it with list_directory or glob.`;

/** The regular text file `name` in `dir`, opened without following a link; refused when binary or over `maxBytes`. */
export async function readText(dir: FileHandle, name: string, rel: string, maxBytes: number): Promise<{ content: string; mode: number }> {
  let file;
  try {
    file = await fs.open(at(dir, name), fs.constants.O_RDONLY | NO_FOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new Failure(noFile(rel));
    if (code === "ELOOP") throw new Refusal(`${rel} is a symbolic link, which is not followed; give the path of the real file.`);
    throw error;
  }
  try {
    const stat = await file.stat();
    if (stat.isDirectory()) throw new Refusal(`${rel} is a folder; list it with list_directory.`);
    if (!stat.isFile()) throw new Refusal(`${rel} is not a regular file, so it is not read.`);
    if (stat.size > maxBytes) {
      throw new Refusal(`${rel} is ${count(stat.size)} bytes, over the ${count(maxBytes)} bytes this agent may read at once; search it with grep instead.`);
    }
    const content = decodeText(await file.readFile());
    if (content === null) throw new Refusal(`${rel} looks binary (not UTF-8 text), so it is not read.`);
    return { content, mode: stat.mode & 0o7777 };
  } finally {
    await file.close();
  }
}

/** The file's lines without the empty one a final newline leaves. */
export function linesOf(content: string): string[] {
  if (content === "") return [];
  const lines = content.split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

export const readFile = handler(async (args, ctx) => {
  const target = confine(text(args, "path"));
  const { rel } = target;
  if (rel === ".") throw new Refusal("The root is a folder; list it with list_directory.");
  const max = limit(ctx.settings, "max_read_bytes", DEFAULT_MAX_READ_BYTES);
  const { content } = await withRoot(ctx, (root) => holding(openParent(root, target, noFile(rel)), (dir) => readText(dir, target.parts.at(-1)!, rel, max)));
  const lines = linesOf(content);
  if (lines.length === 0) return `${rel} is empty.`;
  const start = integer(args, "start_line", 1);
  if (start > lines.length) throw new Refusal(`${rel} has ${count(lines.length)} lines; start_line ${start} is past its end.`);
  const end = args.max_lines === undefined ? lines.length : Math.min(lines.length, start - 1 + integer(args, "max_lines", lines.length));
  const width = Math.max(6, String(end).length);
  const shown = lines.slice(start - 1, end).map((line, i) => `${String(start + i).padStart(width)}\t${line}`);
  if (start > 1 || end < lines.length) {
    const more = end < lines.length ? `; call again with start_line=${end + 1} for more` : "";
    shown.push(`(lines ${start}–${end} of ${count(lines.length)}${more})`);
  }
  return shown.join("\n");
});

function entryLine(entry: Dirent): string {
  if (entry.isDirectory()) return `${entry.name}/`;
  if (entry.isSymbolicLink()) return `${entry.name}@ (a symbolic link, not followed)`;
  return entry.name;
}

export const listDirectory = handler(async (args, ctx) => {
  const target = confine(text(args, "path", "."));
  const { rel } = target;
  const missing = (code: string) =>
    code === "ENOTDIR" ? new Refusal(`${rel} is a file, not a folder; read it with read_file.`) : new Failure(`There is no folder ${rel}; list its parent to see what is there.`);
  const entries = await withRoot(ctx, (root) => holding(missingAs(openUnder(root, target), missing), entriesOf));
  if (entries.length === 0) return `${rel} is empty.`;
  const byName = (a: Dirent, b: Dirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const sorted = [...entries.filter((e) => e.isDirectory()).sort(byName), ...entries.filter((e) => !e.isDirectory()).sort(byName)];
  const max = limit(ctx.settings, "max_directory_entries", DEFAULT_MAX_DIRECTORY_ENTRIES);
  const lines = sorted.slice(0, max).map(entryLine);
  if (sorted.length > max) lines.push(`(${count(sorted.length - max)} more entries not shown; list a subfolder, or find files by name with glob)`);
  return lines.join("\n");
});
