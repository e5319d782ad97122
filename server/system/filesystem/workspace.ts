// The studio's workspace: the one folder agents' roots live in (`<dataDir>/workspace`). A Root setting is a
// relative path inside it; the runtime resolves it there, and refuses symlinks that leave it (R-root-workspace).
import fs from "node:fs";
import path from "node:path";
import { env } from "@/server/env";

export function workspaceDir(dataDir: string = env().dataDir): string {
  return path.join(dataDir, "workspace");
}

/** Why `value` cannot be a root, or null: relative, inside the workspace, no .., no symlink leading out. */
export function rootProblem(value: unknown, workspace: string): string | null {
  const example = "a folder of the workspace such as inbox or reports/2024";
  if (typeof value !== "string" || value.trim() === "") return `Choose ${example}.`;
  if (value.includes("\0")) return "A folder's name cannot hold a NUL character.";
  if (value.includes("\\")) return `Write the folder with forward slashes, like reports/2024.`;
  if (path.isAbsolute(value) || /^[A-Za-z]:/.test(value)) return `“${value}” is an absolute path; roots are folders of the studio's workspace, so write ${example}.`;
  if (value.split("/").includes("..")) return `“${value}” climbs out of the workspace with ..; write ${example}.`;
  const resolved = path.resolve(workspace, value);
  try {
    const real = fs.realpathSync(resolved);
    const base = fs.realpathSync(workspace);
    if (real !== base && !real.startsWith(base + path.sep)) return `“${value}” is a link that leads out of the workspace; choose a real folder inside it.`;
  } catch {
    // Not there yet: the run creates it, inside the workspace by construction.
  }
  return null;
}
