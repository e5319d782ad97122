// Where INDEX.md lives (R-code-index): `.quiver/sources/` in the agent's working folder, for its file tools, written
// with every part opened under the root without following a link (R-root-confine-race), so a `.quiver` the agent
// swapped for a link is refused, never written through; and a fresh folder for one program, beside its work folder.
import { randomBytes } from "node:crypto";
import { constants, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import fs, { type FileHandle } from "node:fs/promises";
import path from "node:path";
import { at, entriesOf, holding, NO_FOLLOW, openChild, openFolder, removeTree } from "../filesystem/beneath";
import { openRoot } from "../filesystem/confine";
import { Refusal } from "../handler";
import { moduleIndex, sourcesIndex } from "./index-md";
import type { SourceModule } from "./modules";

/** The folder, relative to the agent's working folder, that its file tools read the indexes in. */
export const INDEX_FOLDER = ".quiver/sources";

/** Every file of the index: `INDEX.md` and `<module>/INDEX.md`, by path relative to the folder. */
export function indexFiles(modules: SourceModule[]): Map<string, string> {
  const files = new Map<string, string>([["INDEX.md", sourcesIndex(modules)]]);
  for (const source of modules) files.set(`${source.name}/INDEX.md`, moduleIndex(source));
  return files;
}

/** A new folder under `parent` holding the index, for one program; the caller removes it. */
export function writeProgramIndex(parent: string, modules: SourceModule[]): string {
  const dir = mkdtempSync(path.join(parent, ".sources-"));
  for (const [rel, text] of indexFiles(modules)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text, { flag: "wx" });
  }
  return dir;
}

const linked = () => new Refusal(`${INDEX_FOLDER} goes through a symbolic link, so the studio does not write the sources' INDEX.md there.`);

async function sameText(dir: FileHandle, name: string, text: string): Promise<boolean> {
  try {
    const file = await fs.open(at(dir, name), constants.O_RDONLY | NO_FOLLOW);
    return await holding(Promise.resolve(file), async (f) => (await f.readFile("utf8")) === text);
  } catch {
    return false;
  }
}

/** `name` in `dir` replaced whole (a temporary file beside it, then a rename), unless it already says `text`. */
async function publish(dir: FileHandle, name: string, text: string): Promise<void> {
  if (await sameText(dir, name, text)) return;
  const temp = `.${name}.${randomBytes(6).toString("hex")}.tmp`;
  const file = await fs.open(at(dir, temp), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW, 0o644);
  try {
    await file.writeFile(text, "utf8");
  } finally {
    await file.close();
  }
  await fs.rename(at(dir, temp), at(dir, name)).catch(async (error: unknown) => {
    await fs.rm(at(dir, temp), { force: true });
    throw error;
  });
}

/**
 * The index in `<folder>/.quiver/sources/`, rewritten only where it changed, and the folders of sources the agent
 * no longer has removed. `folder` is absolute, inside the studio's workspace.
 */
export async function writeAgentIndex(folder: string, dataDir: string, modules: SourceModule[]): Promise<void> {
  const files = indexFiles(modules);
  await holding(openRoot({ root: folder }, dataDir), (root) =>
    holding(openFolder(root, INDEX_FOLDER.split("/"), linked, true), async (dir) => {
      const wanted = new Set(modules.map((m) => m.name));
      for (const entry of await entriesOf(dir)) {
        if (!entry.isDirectory() || wanted.has(entry.name)) continue;
        const stale = await openChild(dir, entry.name, linked).catch(() => null);
        if (stale) await holding(stale, removeTree);
        await fs.rmdir(at(dir, entry.name)).catch(() => undefined);
      }
      await publish(dir, "INDEX.md", files.get("INDEX.md")!);
      for (const { name } of modules) {
        await holding(openFolder(dir, [name], linked, true), (sub) => publish(sub, "INDEX.md", files.get(`${name}/INDEX.md`)!));
      }
    }),
  );
}
