// `quiver call` without the studio's TypeScript (R-cli-call-fast): plain ESM on Node's own modules, which starts the
// Python tool host with the command server/host/command.ts builds (the same run.py arguments, limits, work folder
// and scrubbed environment: a test holds the two equal), speaks newline JSON-RPC to it and prints the result as
// server/cli/call.ts does. Anything but a plain unsandboxed call (--sandbox, --help, bad input, a host that does
// not start) answers null before any tool runs, and bin/quiver.mjs hands it to server/cli/main.ts, which owns every
// sentence those cases print.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, realpathSync, statSync } from "node:fs";
import { constants } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";

// As in server/host/command.ts (DEFAULT_LIMITS), client.ts (CLIENT_WAIT_S) and supervisor.ts (AFTER).
const LIMITS = { as: 2048, cpu: 3600, nofile: 1024, nproc: 4096, soft: 512 };
const CLIENT_WAIT_S = 605;
const AFTER = "it has been restarted — check whether the call took effect before trying again";
const OPTIONS = { sandbox: { type: "boolean" }, help: { type: "boolean", short: "h" }, args: { type: "string" }, settings: { type: "string" }, timeout: { type: "string" } };

/** The spawn spec of an unsandboxed host for `tree` (absolute, symlink-free), as hostCommand() builds it. */
export function spawnSpec(tree, { dataDir, python }) {
  const workDir = path.join(dataDir, "work", createHash("sha256").update(tree).digest("hex").slice(0, 16));
  mkdirSync(workDir, { recursive: true, mode: 0o700 });
  const siteDir = path.join(workDir, "site");
  const args = [path.resolve(import.meta.dirname, "..", "toolhost", "run.py"), "serve", "--tree", tree,
    "--limit-as", String(LIMITS.as), "--limit-cpu", String(LIMITS.cpu), "--limit-nofile", String(LIMITS.nofile),
    "--limit-nproc", String(LIMITS.nproc), "--memory-soft", String(LIMITS.soft)];
  if (existsSync(siteDir)) args.push("--site", siteDir);
  const env = {};
  for (const name of ["PATH", "LANG", "LC_ALL", "TZ"]) if (process.env[name]) env[name] = process.env[name];
  env.PATH ??= "/usr/local/bin:/usr/bin:/bin";
  env.LANG ??= "C.UTF-8";
  Object.assign(env, { HOME: workDir, PYTHONDONTWRITEBYTECODE: "1", PYTHONUNBUFFERED: "1" });
  return { command: python, args, cwd: workDir, env };
}

function object(text) {
  if (text === undefined) return {};
  try {
    const value = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/** The call the command line asks for, or null when it is anything but a plain, well-formed, unsandboxed call. */
export function plainCall(argv, environment = process.env, cwd = process.cwd()) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch {
    return null;
  }
  const { values, positionals } = parsed;
  if (values.help || values.sandbox || positionals.length !== 2) return null;
  const args = object(values.args);
  const settings = object(values.settings);
  const timeoutS = values.timeout === undefined ? undefined : Number(values.timeout);
  if (!args || !settings || (timeoutS !== undefined && !(timeoutS > 0))) return null;
  if (environment.QUIVER_DATA_DIR === "" || environment.QUIVER_PYTHON === "") return null;
  let tree;
  try {
    tree = realpathSync(path.resolve(cwd, positionals[0]));
    if (!statSync(tree).isDirectory()) return null;
  } catch {
    return null;
  }
  const dataDir = path.resolve(cwd, environment.QUIVER_DATA_DIR ?? ".quiver");
  return { tree, name: positionals[1], args, settings, timeoutS, dataDir, python: environment.QUIVER_PYTHON ?? "python3" };
}

/** "exit code 137, signal SIGKILL", as server/host/transport.ts describes an exit. */
function describeExit(code, signal) {
  const number = signal ? constants.signals[signal] : undefined;
  const shownCode = code ?? (number !== undefined ? 128 + number : null);
  const shownSignal = signal ?? (code !== null && code > 128 ? Object.keys(constants.signals).find((n) => constants.signals[n] === code - 128) : undefined);
  return [shownCode !== null ? `exit code ${shownCode}` : null, shownSignal ? `signal ${shownSignal}` : null].filter(Boolean).join(", ") || "no exit status";
}

/** The result as the model reads it (resultText in server/host/protocol.ts). */
function resultText(content) {
  return content
    .map((part) => (part.type === "text" ? part.text : part.type === "image" ? `[image: ${part.mimeType}, ${Math.round((part.data.length * 3) / 4)} bytes]` : `[${part.type} content]`))
    .join("\n");
}

/** End stdin so the host exits; SIGTERM after 2 s, SIGKILL (its whole group) after 2 s more, as transport.ts closes. */
async function close(child, exited) {
  const within = (ms) => Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), ms).unref())]);
  child.stdin.end();
  if (await within(2000)) return;
  child.kill("SIGTERM");
  if (await within(2000)) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
  await within(2000);
}

/**
 * Run `quiver call` (argv after "call"); resolves to the exit status, or null, before anything ran, when the full CLI
 * should answer instead.
 */
export async function fastCall(argv) {
  const call = plainCall(argv);
  if (!call) return null;
  const spec = spawnSpec(call.tree, call);
  const child = spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, stdio: ["pipe", "pipe", "pipe"] });
  const exited = new Promise((resolve) => child.once("close", (code, signal) => resolve({ code, signal })));
  child.stderr.resume(); // the host's log: a tool's print() goes there, and a CLI call shows the result only
  child.stdin.on("error", () => {});
  const send = (message) => child.stdin.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
  let calling = false;
  let timer;
  const answer = await new Promise((resolve) => {
    let buffered = "";
    child.once("error", () => resolve(null));
    exited.then(({ code, signal }) => resolve(calling ? { stopped: describeExit(code, signal) } : null));
    timer = setTimeout(() => resolve({ silent: true }), CLIENT_WAIT_S * 1000);
    child.stdout.on("data", (chunk) => {
      buffered += chunk.toString("utf8");
      for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
        const line = buffered.slice(0, end).trim();
        buffered = buffered.slice(end + 1);
        let message;
        try {
          message = line ? JSON.parse(line) : null;
        } catch {
          continue; // a stray line: the call's own answer still comes
        }
        if (!message) continue;
        if (message.id === 1 && !calling) {
          if (message.error) return resolve(null);
          calling = true;
          send({ method: "notifications/initialized" });
          const meta = { "quiver/settings": call.settings, progressToken: "quiver-1" };
          if (call.timeoutS !== undefined) meta["quiver/timeout"] = call.timeoutS;
          send({ id: 2, method: "tools/call", params: { name: call.name, arguments: call.args, _meta: meta } });
        } else if (message.id === 2 && !message.method) {
          resolve(message);
        } else if (message.method === "notifications/progress") {
          const p = message.params ?? {};
          process.stderr.write(`… ${typeof p.message === "string" ? p.message : `${p.progress ?? 0}${p.total ? `/${p.total}` : ""}`}\n`);
        } else if (message.method && message.id !== undefined) {
          // What a call asks the studio (ctx.system, ctx.ask, ctx.io): the command line has nothing to answer it with.
          send(message.method === "ping" ? { id: message.id, result: {} } : { id: message.id, error: { code: -32600, message: `${message.method} came from a call that is no longer running` } });
        }
      }
    });
    send({ id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "quiver", version: "0.1.0" } } });
  });
  clearTimeout(timer);
  if (answer === null) {
    if (child.exitCode === null && child.signalCode === null) await close(child, exited);
    return null;
  }
  let text;
  let failed = true;
  if (answer.stopped) text = `The tool host stopped while running ${call.name} (${answer.stopped}); ${AFTER}`;
  else if (answer.silent) text = `The tool host did not answer ${call.name} within ${CLIENT_WAIT_S} s; ${AFTER}`;
  else if (answer.error) text = String(answer.error.message);
  else {
    text = resultText(answer.result?.content ?? []);
    failed = answer.result?.isError === true;
  }
  process.stdout.write(text + "\n");
  if (child.exitCode === null && child.signalCode === null) await close(child, exited);
  return failed ? 1 : 0;
}
