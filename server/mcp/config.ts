// What an MCP server's row may hold, checked without the database: the shape of a server as a form or an mcp.json
// sends it, each fault a sentence at its field (R-mcp-register). What needs the studio (a secret that exists, a
// command on PATH, a name nobody has) is registry.ts's; credentials written out are config-literals.ts's.
import path from "node:path";
import { textFault } from "@/db/storable";
import { REFERENCE } from "@/server/secrets/names";
import { parseOAuth, type OAuthSettings } from "./oauth-config";

export const NAME_MAX = 80;
export const DESCRIPTION_MAX = 500;
export const IDLE_STOP_DEFAULT_S = 600;
export const IDLE_STOP_MAX_S = 86_400;
const VALUE_MAX = 8_192;
const ARGS_MAX = 200;
const ENTRIES_MAX = 200;

export type StdioTransport = { type: "stdio"; command: string; args: string[]; cwd: string | null; env: Record<string, string> };
/** `auth`, when there, has an admin sign in with OAuth (R-mcp-oauth-connect); without it only the headers are sent. */
export type HttpTransport = { type: "http"; url: string; headers: Record<string, string>; auth?: OAuthSettings };
export type McpTransport = StdioTransport | HttpTransport;

/** A server as it is stored: every value as written, ${NAME} references unresolved. */
export type McpServerConfig = { name: string; description: string; idleStopS: number; transport: McpTransport };

/** One fault, at the field it is about ("transport.env.API_KEY"). */
export type Problem = { path: string; message: string };

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** RFC 9110's token: what a header's name may be made of. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Where a stored text goes wrong: a character PostgreSQL cannot keep, or a `${` that is not a secret's reference. */
export function valueProblem(value: string): string | null {
  const fault = textFault(value);
  if (fault) return `${fault.what}; ${fault.fix}`;
  if (value.length > VALUE_MAX) return `is ${value.length} characters long; a value has at most ${VALUE_MAX}`;
  const rest = value.replace(REFERENCE, "");
  if (!rest.includes("${")) return null;
  if (/\$\{(input|env|workspaceFolder|userHome)[:}]/.test(rest)) {
    return "uses an editor's variable (${input:…}, ${env:…}), which the studio does not fill in: create a secret and write ${NAME} instead";
  }
  return "has a ${…} that is not a secret's reference: write ${NAME}, the secret's name in capitals, digits and underscores, starting with a letter";
}

class Checker {
  readonly problems: Problem[] = [];

  add(at: string, message: string) {
    this.problems.push({ path: at, message });
  }

  text(value: unknown, at: string, what: string, { max = VALUE_MAX, required = true } = {}): string | null {
    if (value === undefined || value === null) {
      if (required) this.add(at, `Give the ${what}.`);
      return required ? null : "";
    }
    if (typeof value !== "string") {
      this.add(at, `The ${what} must be text, not ${Array.isArray(value) ? "a list" : typeof value}.`);
      return null;
    }
    const problem = valueProblem(value);
    if (problem) this.add(at, `The ${what} ${problem}.`);
    else if (value.length > max) this.add(at, `The ${what} has at most ${max} characters; this one has ${value.length}.`);
    else if (required && value.trim() === "") this.add(at, `Give the ${what}.`);
    else return value;
    return null;
  }

  map(value: unknown, at: string, what: string, keyPattern: RegExp, keyHelp: string): Record<string, string> {
    if (value === undefined || value === null) return {};
    if (!isRecord(value)) {
      this.add(at, `The ${what} must be an object of names and text values, like {"NAME": "value"}.`);
      return {};
    }
    const entries = Object.entries(value);
    if (entries.length > ENTRIES_MAX) this.add(at, `The ${what} hold at most ${ENTRIES_MAX} entries; these hold ${entries.length}.`);
    const out: Record<string, string> = {};
    for (const [key, item] of entries.slice(0, ENTRIES_MAX)) {
      const itemAt = `${at}.${key}`;
      if (!keyPattern.test(key) || textFault(key)) this.add(itemAt, `“${key.slice(0, 60)}” is not a name the ${what} can hold: ${keyHelp}.`);
      else if (typeof item !== "string") this.add(itemAt, `${key} must be text; write numbers and flags in quotes, like "1".`);
      else {
        const problem = valueProblem(item);
        if (problem) this.add(itemAt, `${key} ${problem}.`);
        else out[key] = item;
      }
    }
    return out;
  }
}

function stdio(raw: Record<string, unknown>, c: Checker): StdioTransport | null {
  const command = c.text(raw.command, "transport.command", "command to start", { max: 1024 });
  if (command?.includes("${")) c.add("transport.command", "The command cannot hold a secret: name the program, and pass secrets in env or args.");
  let args: string[] = [];
  if (raw.args !== undefined && raw.args !== null) {
    if (!Array.isArray(raw.args)) c.add("transport.args", `The arguments must be a list of texts, like ["--port", "8080"].`);
    else if (raw.args.length > ARGS_MAX) c.add("transport.args", `A command takes at most ${ARGS_MAX} arguments; this one has ${raw.args.length}.`);
    else args = raw.args.map((arg, i) => c.text(arg, `transport.args[${i}]`, `argument ${i + 1}`, { required: false }) ?? "");
  }
  let cwd: string | null = null;
  if (raw.cwd !== undefined && raw.cwd !== null && raw.cwd !== "") {
    cwd = c.text(raw.cwd, "transport.cwd", "working folder", { max: 4096 });
    if (cwd?.includes("${")) {
      c.add("transport.cwd", "The working folder cannot hold a secret: write the folder's path.");
      cwd = null;
    } else if (cwd !== null && !path.isAbsolute(cwd)) {
      c.add("transport.cwd", "The working folder must be an absolute path, like /srv/mcp/tickets.");
      cwd = null;
    }
  }
  const env = c.map(raw.env, "transport.env", "environment", ENV_NAME, "use letters, digits and underscores, not starting with a digit");
  return command === null ? null : { type: "stdio", command, args, cwd, env };
}

function http(raw: Record<string, unknown>, c: Checker): HttpTransport | null {
  const url = c.text(raw.url, "transport.url", "server's URL", { max: 2048 });
  const headers = c.map(raw.headers, "transport.headers", "headers", HEADER_NAME, "a header's name is letters, digits and - (like X-Api-Key)");
  for (const [name, value] of Object.entries(headers)) {
    if (/[\r\n]/.test(value)) c.add(`transport.headers.${name}`, `${name} cannot hold a line break.`);
  }
  const auth = parseOAuth(raw.auth, headers, (at, message) => c.add(at, message));
  if (url === null) return null;
  // The sign-in names the server by its URL to the admin's browser, so the URL cannot carry a secret.
  if (auth && url.includes("${")) c.add("transport.url", "A server signed in with OAuth is named by its URL on the consent page the browser opens: write the URL without a secret.");
  let parsed: URL | null = null;
  try {
    parsed = new URL(url.replace(REFERENCE, "x"));
  } catch {
    // said below
  }
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
    c.add("transport.url", "The URL must be a whole http:// or https:// address, like https://mcp.example.com/mcp.");
    return null;
  }
  return auth ? { type: "http", url, headers, auth } : { type: "http", url, headers };
}

/** A server's config from what a form or an import sent, or every fault in it. */
export function parseServerConfig(input: unknown): { config: McpServerConfig | null; problems: Problem[] } {
  const c = new Checker();
  if (!isRecord(input)) return { config: null, problems: [{ path: "", message: "Send the server as an object with a name and a transport." }] };
  const rawName = c.text(input.name, "name", "server's name", { max: NAME_MAX });
  const name = rawName?.trim() ?? null;
  const description = c.text(input.description, "description", "description", { max: DESCRIPTION_MAX, required: false })?.trim() ?? "";
  let idleStopS = IDLE_STOP_DEFAULT_S;
  if (input.idleStopS !== undefined && input.idleStopS !== null) {
    const idle = input.idleStopS;
    if (typeof idle !== "number" || !Number.isInteger(idle) || idle < 0 || idle > IDLE_STOP_MAX_S) {
      c.add("idleStopS", `The idle time is a whole number of seconds from 0 (never stop) to ${IDLE_STOP_MAX_S}; the default is ${IDLE_STOP_DEFAULT_S}.`);
    } else idleStopS = idle;
  }
  const raw = input.transport;
  let transport: McpTransport | null = null;
  if (!isRecord(raw)) c.add("transport", "Say how to reach the server: a stdio command, or an http URL.");
  else if (raw.type === "stdio") transport = stdio(raw, c);
  else if (raw.type === "http") transport = http(raw, c);
  else c.add("transport.type", `The transport is "stdio" (a command the studio starts) or "http" (a URL it connects to).`);
  if (c.problems.length > 0 || name === null || transport === null) return { config: null, problems: c.problems };
  return { config: { name, description, idleStopS, transport }, problems: [] };
}

/** Every text of a transport that may hold a ${NAME} reference, with its field. */
export function referenceFields(transport: McpTransport): Array<{ path: string; value: string }> {
  if (transport.type === "http") {
    const secret = transport.auth?.clientSecret ? [{ path: "transport.auth.clientSecret", value: transport.auth.clientSecret }] : [];
    return [{ path: "transport.url", value: transport.url }, ...Object.entries(transport.headers).map(([k, v]) => ({ path: `transport.headers.${k}`, value: v })), ...secret];
  }
  return [
    ...transport.args.map((value, i) => ({ path: `transport.args[${i}]`, value })),
    ...Object.entries(transport.env).map(([k, v]) => ({ path: `transport.env.${k}`, value: v })),
  ];
}
