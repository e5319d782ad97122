// write_file, edit_file, delete and generate_file: the operations that change files, one at a time (R-sys-filesystem-concurrency).
// Every write publishes atomically: a temporary file in the same folder, then a rename (or a link, to never replace).
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import fs, { type FileHandle } from "node:fs/promises";
import path from "node:path";
import { count, Failure, flag, handler, limit, Refusal, text } from "../handler";
import { at, entriesOf, holding, lstatAt, NO_FOLLOW, openChild, removeTree } from "./beneath";
import { confine, linkRefusal, withRoot } from "./confine";
import { DEFAULT_MAX_READ_BYTES, noFile, openParent, readText } from "./read";

/** The folder a run's downloads go to: the studio's own, inside its data folder, never under an agent's root. */
export function outputDirFor(dataDir: string, runId: string): string {
  return path.join(dataDir, "runs", runId, "output");
}

/** `content` in a new temporary file in `dir` beside `name` (same folder, so a rename is atomic); removed if the write fails. */
async function writeTemp(dir: FileHandle, name: string, content: string, mode: number | undefined): Promise<string> {
  const temp = `.${name}.${randomBytes(6).toString("hex")}.tmp`;
  const file = await fs.open(at(dir, temp), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW, 0o666);
  try {
    if (mode !== undefined) await file.chmod(mode);
    await file.writeFile(content, "utf8");
    await file.sync();
  } catch (error) {
    await file.close();
    await fs.rm(at(dir, temp), { force: true });
    throw error;
  }
  await file.close();
  return temp;
}

/** Replace (or create) `name` in `dir` whole: readers see the old content or the new, never a part of either. */
async function writeAtomically(dir: FileHandle, name: string, content: string, mode?: number): Promise<void> {
  const temp = await writeTemp(dir, name, content, mode);
  try {
    await fs.rename(at(dir, temp), at(dir, name));
  } catch (error) {
    await fs.rm(at(dir, temp), { force: true });
    throw error;
  }
}

/** Create `name` in `dir` with `content`, atomically, or refuse if it exists: link() never replaces a file. */
async function createAtomically(dir: FileHandle, name: string, content: string): Promise<boolean> {
  const temp = await writeTemp(dir, name, content, undefined);
  try {
    await fs.link(at(dir, temp), at(dir, name));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await fs.rm(at(dir, temp), { force: true });
  }
}

const bytes = (content: string) => Buffer.byteLength(content, "utf8");

export const writeFile = handler(async (args, ctx) => {
  const target = confine(text(args, "path"));
  const { rel } = target;
  const name = target.parts.at(-1)!;
  const content = text(args, "content");
  if (rel === ".") throw new Refusal("The root is a folder; give the path of a file inside it, such as notes/today.md.");
  const aboveIsFile = `A part of ${rel} above the file is a file, not a folder; choose another path.`;
  const existing = await withRoot(ctx, (root) => holding(openParent(root, target, aboveIsFile, true), async (dir) => {
    const existing = await lstatAt(dir, name);
    if (existing?.isSymbolicLink()) throw linkRefusal(target, target.parts.length - 1);
    if (existing?.isDirectory()) throw new Refusal(`${rel} is a folder; give the path of a file.`);
    if (existing && !existing.isFile()) throw new Refusal(`${rel} is not a regular file, so it is not replaced.`);
    if (existing && !flag(args, "overwrite")) {
      throw new Refusal(`${rel} already exists; pass overwrite: true to replace it whole, or change part of it with edit_file.`);
    }
    await writeAtomically(dir, name, content, existing ? existing.mode & 0o7777 : undefined);
    return existing;
  }));
  return `${existing ? "Replaced" : "Wrote"} ${rel} (${count(bytes(content))} bytes).`;
});

/** Where `needle` starts in `haystack`, every non-overlapping time. */
function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) found.push(at);
  return found;
}

/** `content` with `oldText` replaced, and how many times; a refusal when it is missing, or ambiguous without `all`. */
function replaced(content: string, oldText: string, newText: string, all: boolean, rel: string): { edited: string; times: number } {
  const found = occurrences(content, oldText);
  if (found.length === 0) {
    throw new Refusal(`old_text was not found in ${rel}; read the file and copy the exact text, spaces and line breaks included.`);
  }
  if (found.length > 1 && !all) {
    throw new Refusal(`old_text appears ${found.length} times in ${rel}; include more of the text around the one you mean so it is unique, or pass replace_all: true to replace every one.`);
  }
  const edited = all ? content.split(oldText).join(newText) : content.slice(0, found[0]) + newText + content.slice(found[0]! + oldText.length);
  return { edited, times: found.length };
}

export const editFile = handler(async (args, ctx) => {
  const target = confine(text(args, "path"));
  const { rel } = target;
  const oldText = text(args, "old_text");
  const newText = text(args, "new_text");
  if (rel === ".") throw new Refusal("The root is a folder; give the path of a file inside it.");
  if (oldText === "") throw new Refusal("old_text is empty; give the exact text to replace, or write a new file with write_file.");
  if (oldText === newText) throw new Refusal("old_text and new_text are the same, so there is nothing to change.");
  const max = limit(ctx.settings, "max_read_bytes", DEFAULT_MAX_READ_BYTES);
  const name = target.parts.at(-1)!;
  // Read and replaced through one open folder, so the edit lands in the folder the file was read from.
  const times = await withRoot(ctx, (root) => holding(openParent(root, target, noFile(rel)), async (dir) => {
    const { content, mode } = await readText(dir, name, rel, max);
    const { edited, times } = replaced(content, oldText, newText, flag(args, "replace_all"), rel);
    await writeAtomically(dir, name, edited, mode);
    return times;
  }));
  return `Replaced ${times === 1 ? "1 occurrence" : `${times} occurrences`} in ${rel}.`;
});

export const deletePath = handler(async (args, ctx) => {
  const target = confine(text(args, "path"));
  const { rel } = target;
  const name = target.parts.at(-1)!;
  if (rel === ".") throw new Refusal("The root folder itself is never deleted; delete the files and folders inside it by name.");
  const missing = `There is no ${rel} to delete; list its folder to see what is there.`;
  return withRoot(ctx, (root) => holding(openParent(root, target, missing), async (dir) => {
    const stat = await lstatAt(dir, name);
    if (!stat) throw new Failure(missing);
    if (stat.isSymbolicLink()) throw linkRefusal(target, target.parts.length - 1);
    if (!stat.isDirectory()) {
      // unlink() never follows a link: if the file was swapped for one meanwhile, the link goes, not what it points to.
      await fs.unlink(at(dir, name));
      return `Deleted ${rel}.`;
    }
    const folder = await openChild(dir, name, () => linkRefusal(target, target.parts.length - 1));
    const entries = await holding(folder, async (open) => {
      const entries = await entriesOf(open);
      if (entries.length > 0 && !flag(args, "recursive")) {
        throw new Refusal(`${rel} is a folder holding ${count(entries.length)} entries; pass recursive: true to delete it with everything in it.`);
      }
      await removeTree(open);
      return entries;
    });
    await fs.rmdir(at(dir, name));
    return entries.length > 0 ? `Deleted the folder ${rel} and everything in it.` : `Deleted the empty folder ${rel}.`;
  }));
});

export const generateFile = handler(async (args, ctx) => {
  const name = text(args, "filename");
  const content = text(args, "content");
  if (!/^[^/\\\0]{1,200}$/.test(name) || name.startsWith(".")) {
    throw new Refusal(`“${name}” is not a plain file name; give a name without a folder that does not start with a dot, such as report.md.`);
  }
  await fs.mkdir(ctx.outputDir, { recursive: true, mode: 0o700 });
  const output = await fs.open(ctx.outputDir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  if (!(await holding(output, (dir) => createAtomically(dir, name, content)))) {
    const dot = name.lastIndexOf(".");
    const other = dot > 0 ? `${name.slice(0, dot)}-2${name.slice(dot)}` : `${name}-2`;
    throw new Refusal(`A file named ${name} was already made in this run and is never replaced; choose another name, such as ${other}.`);
  }
  return `Made ${name} (${count(bytes(content))} bytes) for the person to download.`;
});
