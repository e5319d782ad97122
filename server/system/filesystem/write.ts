// write_file, edit_file, delete and generate_file: the operations that change files, one at a time (R-sys-filesystem-concurrency).
// Every write publishes atomically: a temporary file in the same folder, then a rename (or a link, to never replace).
import { randomBytes } from "node:crypto";
import type { Stats } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { count, Failure, flag, handler, limit, Refusal, text } from "../handler";
import { confine, NO_FOLLOW, rootFolder } from "./confine";
import { DEFAULT_MAX_READ_BYTES, readText } from "./read";

/** The folder a run's downloads go to: the studio's own, inside its data folder, never under an agent's root. */
export function outputDirFor(dataDir: string, runId: string): string {
  return path.join(dataDir, "runs", runId, "output");
}

/** `content` in a new temporary file beside `target` (same folder, so a rename is atomic); removed if the write fails. */
async function writeTemp(target: string, content: string, mode: number | undefined): Promise<string> {
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
  const file = await fs.open(temp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | NO_FOLLOW, 0o666);
  try {
    if (mode !== undefined) await file.chmod(mode);
    await file.writeFile(content, "utf8");
    await file.sync();
  } catch (error) {
    await file.close();
    await fs.rm(temp, { force: true });
    throw error;
  }
  await file.close();
  return temp;
}

/** Replace (or create) `target` whole: readers see the old content or the new, never a part of either. */
export async function writeAtomically(target: string, content: string, mode?: number): Promise<void> {
  const temp = await writeTemp(target, content, mode);
  try {
    await fs.rename(temp, target);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}

/** Create `target` with `content`, atomically, or refuse if it exists: link() never replaces a file. */
async function createAtomically(target: string, content: string): Promise<boolean> {
  const temp = await writeTemp(target, content, undefined);
  try {
    await fs.link(temp, target);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await fs.rm(temp, { force: true });
  }
}

async function lstatOrNull(abs: string): Promise<Stats | null> {
  try {
    return await fs.lstat(abs);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw error;
  }
}

/** Create the folders above `abs`; a file where a folder should be is a failure that says which. */
async function makeParents(abs: string, rel: string): Promise<void> {
  try {
    await fs.mkdir(path.dirname(abs), { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOTDIR" || code === "EEXIST") throw new Failure(`A part of ${rel} above the file is a file, not a folder; choose another path.`);
    throw error;
  }
}

const bytes = (content: string) => Buffer.byteLength(content, "utf8");

export const writeFile = handler(async (args, ctx) => {
  const root = await rootFolder(ctx.settings, ctx.dataDir);
  const { abs, rel } = await confine(text(args, "path"), root);
  const content = text(args, "content");
  if (rel === ".") throw new Refusal("The root is a folder; give the path of a file inside it, such as notes/today.md.");
  const existing = await lstatOrNull(abs);
  if (existing?.isDirectory()) throw new Refusal(`${rel} is a folder; give the path of a file.`);
  if (existing && !existing.isFile()) throw new Refusal(`${rel} is not a regular file, so it is not replaced.`);
  if (existing && !flag(args, "overwrite")) {
    throw new Refusal(`${rel} already exists; pass overwrite: true to replace it whole, or change part of it with edit_file.`);
  }
  await makeParents(abs, rel);
  await writeAtomically(abs, content, existing ? existing.mode & 0o7777 : undefined);
  return `${existing ? "Replaced" : "Wrote"} ${rel} (${count(bytes(content))} bytes).`;
});

/** Where `needle` starts in `haystack`, every non-overlapping time. */
function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) found.push(at);
  return found;
}

export const editFile = handler(async (args, ctx) => {
  const root = await rootFolder(ctx.settings, ctx.dataDir);
  const { abs, rel } = await confine(text(args, "path"), root);
  const oldText = text(args, "old_text");
  const newText = text(args, "new_text");
  if (rel === ".") throw new Refusal("The root is a folder; give the path of a file inside it.");
  if (oldText === "") throw new Refusal("old_text is empty; give the exact text to replace, or write a new file with write_file.");
  if (oldText === newText) throw new Refusal("old_text and new_text are the same, so there is nothing to change.");
  const { content, mode } = await readText(abs, rel, limit(ctx.settings, "max_read_bytes", DEFAULT_MAX_READ_BYTES));
  const found = occurrences(content, oldText);
  if (found.length === 0) {
    throw new Refusal(`old_text was not found in ${rel}; read the file and copy the exact text, spaces and line breaks included.`);
  }
  const all = flag(args, "replace_all");
  if (found.length > 1 && !all) {
    throw new Refusal(`old_text appears ${found.length} times in ${rel}; include more of the text around the one you mean so it is unique, or pass replace_all: true to replace every one.`);
  }
  const edited = all ? content.split(oldText).join(newText) : content.slice(0, found[0]) + newText + content.slice(found[0]! + oldText.length);
  await writeAtomically(abs, edited, mode);
  return `Replaced ${found.length === 1 ? "1 occurrence" : `${found.length} occurrences`} in ${rel}.`;
});

export const deletePath = handler(async (args, ctx) => {
  const root = await rootFolder(ctx.settings, ctx.dataDir);
  const { abs, rel } = await confine(text(args, "path"), root);
  if (rel === ".") throw new Refusal("The root folder itself is never deleted; delete the files and folders inside it by name.");
  const stat = await lstatOrNull(abs);
  if (!stat) throw new Failure(`There is no ${rel} to delete; list its folder to see what is there.`);
  if (stat.isDirectory()) {
    const entries = await fs.readdir(abs);
    if (entries.length > 0 && !flag(args, "recursive")) {
      throw new Refusal(`${rel} is a folder holding ${count(entries.length)} entries; pass recursive: true to delete it with everything in it.`);
    }
    await fs.rm(abs, { recursive: true });
    return entries.length > 0 ? `Deleted the folder ${rel} and everything in it.` : `Deleted the empty folder ${rel}.`;
  }
  await fs.unlink(abs);
  return `Deleted ${rel}.`;
});

export const generateFile = handler(async (args, ctx) => {
  const name = text(args, "filename");
  const content = text(args, "content");
  if (!/^[^/\\\0]{1,200}$/.test(name) || name.startsWith(".")) {
    throw new Refusal(`“${name}” is not a plain file name; give a name without a folder that does not start with a dot, such as report.md.`);
  }
  await fs.mkdir(ctx.outputDir, { recursive: true, mode: 0o700 });
  if (!(await createAtomically(path.join(ctx.outputDir, name), content))) {
    const dot = name.lastIndexOf(".");
    const other = dot > 0 ? `${name.slice(0, dot)}-2${name.slice(dot)}` : `${name}-2`;
    throw new Refusal(`A file named ${name} was already made in this run and is never replaced; choose another name, such as ${other}.`);
  }
  return `Made ${name} (${count(bytes(content))} bytes) for the person to download.`;
});
