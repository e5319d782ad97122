// Where a stdio server's program is: looked up on the PATH the server itself is given, without running anything,
// so registering a server never executes it (R-mcp-register) and the spawn finds what the check found.
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import { childBaseEnv } from "@/server/env";
import { findOnPath } from "@/server/host/sandbox";

/** The PATH a stdio server runs with: its row's own when it sets one, else the studio's (R-mcp-stdio-env). */
export function serverPathVar(env: Record<string, string>): string {
  return env.PATH && !env.PATH.includes("${") ? env.PATH : childBaseEnv().PATH!;
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The program's absolute path, or a sentence saying why there is none. */
export function locateCommand(command: string, cwd: string | null, pathVar: string): { file: string } | { problem: string } {
  if (!command.includes("/")) {
    const file = findOnPath(command, pathVar);
    return file && executable(file)
      ? { file }
      : { problem: `There is no program named ${command} on the server's PATH (${pathVar}); install it, give its absolute path, or set PATH in env.` };
  }
  if (!path.isAbsolute(command) && cwd === null) {
    return { problem: `${command} is a relative path, and the server has no working folder to find it from: give its absolute path.` };
  }
  const file = path.resolve(cwd ?? "/", command);
  return executable(file) ? { file } : { problem: `There is no program at ${file} that the studio may run: check the path and that the file is executable.` };
}

/** Why a working folder cannot be used, or null. */
export function folderProblem(cwd: string): string | null {
  try {
    return statSync(cwd).isDirectory() ? null : `${cwd} is not a folder; name the folder the server should run in.`;
  } catch {
    return `There is no folder ${cwd}; create it, or leave the working folder empty to use the server's own.`;
  }
}
