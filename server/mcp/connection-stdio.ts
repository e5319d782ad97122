// Starting a stdio MCP server: the command its row names, with only the environment the row gives (resolved) plus
// PATH and HOME (R-mcp-stdio-env), under the tool host's resource limits, inside bubblewrap where it works the way
// the host is (R-mcp-stdio-sandbox). Its stderr's last 200 lines are kept; how it ended is recorded.
import { existsSync, mkdirSync, statSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { confine, type Limits, type SpawnSpec } from "@/server/host/command";
import { findOnPath } from "@/server/host/sandbox";
import { describeExit, HostTransport } from "@/server/host/transport";
import type { StdioTransport } from "./config";
import { locateCommand, serverPathVar } from "./config-command";
import { CLIENT_INFO, lastLine, StartFailure, tapProgress, type Link, type LinkEvents } from "./connection-link";

export type StdioOptions = {
  /** The studio's data folder: hidden inside the sandbox; each server's own work folder is under it. */
  dataDir: string;
  sandbox: boolean;
  limits: Limits;
  connectTimeoutMs: number;
};

/** `<dataDir>/mcp/<id>`: the server's HOME and, unless its row names one, its working folder. */
export function serverWorkDir(dataDir: string, id: string): string {
  return path.join(dataDir, "mcp", id);
}

/**
 * prlimit's arguments for the host's limits, or null where prlimit is missing. The address-space cap is the
 * host's too: a Node server (the usual kind) starts and serves well inside 2 GB.
 */
function limitArgs(limits: Limits, pathVar: string): string[] | null {
  const prlimit = findOnPath("prlimit", pathVar) ?? findOnPath("prlimit", "/usr/bin:/bin");
  if (!prlimit) return null;
  return [
    prlimit,
    `--as=${limits.addressSpaceMb * 1024 * 1024}`,
    `--cpu=${limits.cpuSeconds}`,
    `--nofile=${limits.openFiles}`,
    `--nproc=${limits.processes}`,
    "--",
  ];
}

/**
 * The folders a server's program needs to see inside the sandbox, whose private /tmp would otherwise hide a
 * package installed under /tmp: for the command and each absolute path among its arguments, the nearest folder
 * above it that holds a node_modules (the package it belongs to, and what it imports), else its own folder.
 * The sandbox keeps the data folder hidden even when one of these holds it (R-mcp-stdio-sandbox).
 */
export function programDirs(paths: string[]): string[] {
  const found = new Set<string>();
  for (const given of paths) {
    if (!path.isAbsolute(given) || !existsSync(given)) continue;
    const start = statSync(given).isDirectory() ? given : path.dirname(given);
    let dir = start;
    while (dir !== path.dirname(dir) && !existsSync(path.join(dir, "node_modules"))) dir = path.dirname(dir);
    found.add(dir === path.dirname(dir) ? start : dir);
  }
  return [...found].filter((dir) => dir !== "/");
}

/** What to spawn for a server whose values are resolved: the scrubbed env, the limits, the sandbox around both. */
export async function stdioSpec(id: string, transport: StdioTransport, options: StdioOptions) {
  const home = serverWorkDir(options.dataDir, id);
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const cwd = transport.cwd ?? home;
  // Only the row's variables, PATH and HOME: StdioClientTransport would add HOME, USER, SHELL, TERM and more of the
  // studio's own, and the studio's key or DATABASE_URL must never reach a server (R-mcp-stdio-env).
  const env: Record<string, string> = { PATH: serverPathVar(transport.env), HOME: home, ...transport.env };
  const found = locateCommand(transport.command, transport.cwd, env.PATH!);
  if ("problem" in found) throw new StartFailure(found.problem);
  const limit = limitArgs(options.limits, env.PATH!);
  const [command, ...prefix] = limit ?? [found.file];
  const args = limit ? [...prefix, found.file, ...transport.args] : transport.args;
  const base: SpawnSpec = { command: command!, args, cwd, env };
  const programs = programDirs([found.file, ...transport.args]);
  const confined = await confine(base, { treeDir: home, workDir: cwd, dataDir: options.dataDir, programDirs: programs }, options.sandbox);
  const unlimited = limit ? null : "prlimit is not installed, so the server runs without the host's resource limits: install util-linux";
  const confinement = [confined.reason, unlimited].filter(Boolean).join("; ") || null;
  return { spec: confined.spec, sandboxed: confined.sandboxed, confinement };
}

/** Why a server that was started did not become an MCP session, from how it ended and what it said last. */
function startSentence(transport: HostTransport, error: unknown, timeoutMs: number): string {
  const said = lastLine(transport.stderrTail());
  const tail = said ? `: ${said}` : ".";
  const exit = transport.exit;
  if (exit && (exit.code !== null || exit.signal !== null)) {
    const how = exit.signal && exit.code === null ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    return `The command ${how}${tail}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  if ((error as NodeJS.ErrnoException).code === "ENOENT") return `The command could not be started (${message}).`;
  if (/timed? ?out/i.test(message)) return `The command started but did not answer MCP's initialize within ${Math.round(timeoutMs / 1000)} s${tail}`;
  return `The command started but did not speak MCP (${message.slice(0, 200)})${tail}`;
}

/** Start the server and open its MCP session; a StartFailure says why it did not come up. */
export async function openStdio(id: string, transport: StdioTransport, options: StdioOptions, events: LinkEvents): Promise<Link> {
  const { spec, sandboxed, confinement } = await stdioSpec(id, transport, options);
  const wire = new HostTransport(spec);
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  client.onerror = () => {}; // a stray line on stdout: the request that suffers answers for it
  try {
    await client.connect(wire, { timeout: options.connectTimeoutMs });
  } catch (error) {
    await wire.close();
    throw new StartFailure(startSentence(wire, error, options.connectTimeoutMs));
  }
  const progress = new Map();
  tapProgress(wire, progress);
  client.setNotificationHandler("notifications/tools/list_changed", () => events.onToolsChanged());
  client.onclose = () => events.onClose(wire.closedByUs);
  return {
    client,
    kind: "stdio",
    pid: wire.pid,
    sandboxed,
    confinement,
    progress,
    stderrTail: () => wire.stderrTail(),
    exited: () => (wire.exit ? describeExit(wire.exit) : null),
    close: () => client.close(),
  };
}
