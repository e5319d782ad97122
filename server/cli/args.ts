// The `quiver` command line: its usage text, the options each subcommand takes, and the one-sentence usage error.
// Edit when a subcommand gains an option (and say so in USAGE).
import { parseArgs, type ParseArgsConfig } from "node:util";

export const USAGE = `Usage: quiver <command> [options]

Commands:
  catalog [DIR] [--json]                          the tree's files, their tools and errors (DIR defaults to ./tools)
  call DIR NAME [--args JSON] [--settings JSON]   run one tool and print what the model would read
        [--timeout S]                             exit status 1 when the tool answers an error
  mcp [DIR]                                       serve the tree over MCP on stdio, for any MCP client
  deps [DIR] [--pip-arg ARG]...                   install the tree's dependencies; prints the log's path

Options for every command:
  --sandbox   run the tool host inside bubblewrap (default: unsandboxed)
  --help      print this text
`;

/** Bad input: printed as one sentence, exit status 2. */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig["options"]>;

const common: Options = { sandbox: { type: "boolean" }, help: { type: "boolean", short: "h" } };

export const COMMAND_OPTIONS: Record<string, Options> = {
  catalog: { ...common, json: { type: "boolean" } },
  call: { ...common, args: { type: "string" }, settings: { type: "string" }, timeout: { type: "string" } },
  mcp: common,
  deps: { ...common, "pip-arg": { type: "string", multiple: true } },
};

export type Parsed = { values: Record<string, string | boolean | string[] | undefined>; positionals: string[] };

export function parseCommand(command: string, argv: string[]): Parsed {
  const options = COMMAND_OPTIONS[command];
  if (!options) throw new UsageError(`Unknown command "${command}"; the commands are catalog, call, mcp and deps (quiver --help).`);
  try {
    const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
    return { values: values as Parsed["values"], positionals };
  } catch (error) {
    const known = Object.keys(options).map((name) => `--${name}`).join(", ");
    const option = /'(-[^']*)'/.exec((error as Error).message)?.[1];
    const what = option ? `"${option}" is not an option of quiver ${command} or lacks its value` : (error as Error).message;
    throw new UsageError(`${what}; it takes ${known}.`);
  }
}

/** A JSON object given on the command line, or a usage error naming the option. */
export function jsonObject(text: string | undefined, option: string): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError(`${option} must be a JSON object such as '{"subject": "todo"}', and ${JSON.stringify(text)} is not JSON.`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UsageError(`${option} must be a JSON object such as '{"subject": "todo"}', not ${JSON.stringify(text)}.`);
  }
  return value as Record<string, unknown>;
}

export function atMost(positionals: string[], count: number, command: string) {
  if (positionals.length > count) {
    throw new UsageError(`quiver ${command} takes at most ${count} folder or name, and got ${positionals.length}: ${positionals.join(" ")}.`);
  }
}
