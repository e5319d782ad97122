// `quiver deps`: install a tree's dependencies (requirements.txt, pyproject.toml, setup.sh at the checkout's root,
// beside the tree folder: R-deps-root) the way the studio does.
// Edit when the deps summary gains something worth printing.
import { installDeps } from "../host";

export async function depsCommand(tree: string, sandbox: boolean, pipArgs: string[]): Promise<number> {
  const summary = await installDeps(tree, { sandbox, pipArgs });
  const files = summary.files.length > 0 ? summary.files.join(", ") : "no dependency files";
  process.stdout.write(`root: ${summary.root} (${files})\nlog: ${summary.log}\nstatus: ${summary.status} (${summary.seconds.toFixed(1)} s)\n`);
  if (summary.note) process.stdout.write(`note: ${summary.note}\n`);
  if (summary.error) process.stdout.write(`error: ${summary.error}\n`);
  return summary.status === "failed" ? 1 : 0;
}
