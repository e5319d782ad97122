// `quiver deps`: install a tree's dependencies (requirements.txt, pyproject.toml, setup.sh) the way the studio does.
// Edit when the deps summary gains something worth printing.
import { installDeps } from "../host";

export async function depsCommand(tree: string, sandbox: boolean, pipArgs: string[]): Promise<number> {
  const summary = await installDeps(tree, { sandbox, pipArgs });
  process.stdout.write(`log: ${summary.log}\nstatus: ${summary.status} (${summary.seconds.toFixed(1)} s)\n`);
  if (summary.error) process.stdout.write(`error: ${summary.error}\n`);
  return summary.status === "failed" ? 1 : 0;
}
