// `quiver mcp`: the tree served over MCP on this process's own stdio, for any MCP client (Claude Desktop, the SDK).
// The Python host speaks MCP itself, so this only starts it, passes signals on and returns its exit status.
import { spawn } from "node:child_process";
import { constants } from "node:os";
import { hostCommand } from "../host/command";

const FORWARDED: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

export async function mcpCommand(tree: string, sandbox: boolean): Promise<number> {
  const command = await hostCommand(tree, { sandbox });
  if (!command.sandboxed && sandbox) process.stderr.write(`quiver: ${command.reason}\n`);
  const child = spawn(command.command, command.args, { cwd: command.cwd, env: command.env as NodeJS.ProcessEnv, stdio: "inherit" });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of FORWARDED) process.on(signal, forward);
  return new Promise((resolve) => {
    child.once("error", (error) => {
      process.stderr.write(`quiver: the tool host did not start: ${error.message}\n`);
      resolve(1);
    });
    child.once("exit", (code, signal) => {
      for (const s of FORWARDED) process.off(s, forward);
      resolve(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0));
    });
  });
}
