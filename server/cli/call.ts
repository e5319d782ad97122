// `quiver call`: one call through the tool host, printed as the model would read it.
// Edit when what the model reads of a result changes (see resultText in server/host/protocol.ts).
import { resultText, type CallOptions, type Host } from "../host";
import { jsonObject, UsageError, type Parsed } from "./args";

export type CallInput = { args: Record<string, unknown>; options: CallOptions };

/** The call's arguments and options from the command line, checked before any host starts. */
export function callInput(values: Parsed["values"]): CallInput {
  const args = jsonObject(values.args as string | undefined, "--args");
  const settings = jsonObject(values.settings as string | undefined, "--settings");
  const timeoutS = values.timeout === undefined ? undefined : Number(values.timeout);
  if (timeoutS !== undefined && !(timeoutS > 0)) {
    throw new UsageError(`--timeout takes a number of seconds above 0, not ${JSON.stringify(values.timeout)}.`);
  }
  return { args, options: { settings, timeoutS } };
}

export async function callCommand(host: Host, name: string, { args, options }: CallInput): Promise<number> {
  const result = await host.call(name, args, {
    ...options,
    onProgress: (p) => process.stderr.write(`… ${p.message ?? `${p.progress}${p.total ? `/${p.total}` : ""}`}\n`),
  });
  process.stdout.write(resultText(result) + "\n");
  return result.isError ? 1 : 0;
}
