// The `quiver` command's entry (bin/quiver.mjs runs it through tsx): picks the subcommand, maps errors to exit status
// (1: the tool or host failed, 2: bad input, said in one sentence). Edit when a subcommand is added.
import { closeAll, hostFor, type Host } from "../host";
import { resolveTree } from "../host/command";
import { atMost, parseCommand, UsageError, USAGE } from "./args";
import { callCommand, callInput } from "./call";
import { catalogTable } from "./catalog";
import { depsCommand } from "./deps";
import { mcpCommand } from "./mcp";

function treeOf(dir: string): string {
  try {
    return resolveTree(dir);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

async function startedHost(tree: string, sandbox: boolean): Promise<Host> {
  const host = hostFor(tree, { sandbox });
  const status = await host.ready();
  if (sandbox && !status.sandboxed) process.stderr.write(`quiver: ${status.reason}\n`);
  return host;
}

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    (command === undefined ? process.stderr : process.stdout).write(USAGE);
    return command === undefined ? 2 : 0;
  }
  const { values, positionals } = parseCommand(command, rest);
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const sandbox = values.sandbox === true;
  switch (command) {
    case "catalog": {
      atMost(positionals, 1, command);
      const host = await startedHost(treeOf(positionals[0] ?? "tools"), sandbox);
      const catalog = await host.catalog();
      process.stdout.write((values.json ? JSON.stringify(catalog) : catalogTable(catalog)) + "\n");
      return 0;
    }
    case "call": {
      if (positionals.length !== 2) {
        throw new UsageError(`quiver call takes a folder and a tool name, as in quiver call tools notes__read --args '{"subject": "todo"}'.`);
      }
      const [dir, name] = positionals as [string, string];
      const input = callInput(values);
      return callCommand(await startedHost(treeOf(dir), sandbox), name, input);
    }
    case "mcp":
      atMost(positionals, 1, command);
      return mcpCommand(treeOf(positionals[0] ?? "tools"), sandbox);
    default:
      atMost(positionals, 1, command);
      return depsCommand(treeOf(positionals[0] ?? "tools"), sandbox, (values["pip-arg"] as string[] | undefined) ?? []);
  }
}

/** Run the command line; resolves to the exit status. */
export async function main(argv: string[]): Promise<number> {
  try {
    return await run(argv);
  } catch (error) {
    process.stderr.write(`quiver: ${(error as Error).message}\n`);
    return error instanceof UsageError ? 2 : 1;
  } finally {
    await closeAll();
  }
}
