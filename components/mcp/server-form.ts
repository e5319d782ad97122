// The New/Edit server form as plain data: what the fields hold, the server value the API takes, and where each of
// the registry's problems belongs. Pure, so the placement of every sentence is tested without a browser.
import type { ServerRow } from "./types";

export type Pair = { key: string; value: string };

export type ServerForm = {
  name: string;
  description: string;
  transport: "stdio" | "http";
  command: string;
  /** One argument per line. */
  args: string;
  cwd: string;
  env: Pair[];
  url: string;
  headers: Pair[];
  /** http: an admin signs in with OAuth (Connect); the client id, its secret's reference and the scopes may stay empty. */
  oauth: boolean;
  clientId: string;
  clientSecret: string;
  /** Scopes separated by spaces. */
  scopes: string;
  /** Minutes without use before a stdio server is stopped; 0 never stops it. */
  idleMinutes: string;
};

/** The form's fields a problem can sit at; a key of env or headers is its own place ("env:TOKEN"). */
export type Place =
  | "name"
  | "description"
  | "idle"
  | "transport"
  | "command"
  | "args"
  | "cwd"
  | "env"
  | "url"
  | "headers"
  | "auth"
  | "clientId"
  | "clientSecret"
  | "scopes"
  | "other";

export const DEFAULT_IDLE_MINUTES = "10";

export function emptyForm(): ServerForm {
  return {
    name: "",
    description: "",
    transport: "stdio",
    command: "",
    args: "",
    cwd: "",
    env: [],
    url: "",
    headers: [],
    oauth: false,
    clientId: "",
    clientSecret: "",
    scopes: "",
    idleMinutes: DEFAULT_IDLE_MINUTES,
  };
}

const pairsOf = (record: Record<string, string>): Pair[] => Object.entries(record).map(([key, value]) => ({ key, value }));

/** The form filled from a saved row, for Edit. */
export function formOf(row: Pick<ServerRow, "name" | "description" | "idleStopS" | "transport">): ServerForm {
  const base = { ...emptyForm(), name: row.name, description: row.description, idleMinutes: String(Math.round((row.idleStopS / 60) * 100) / 100) };
  const t = row.transport;
  if (t.type === "stdio") return { ...base, transport: "stdio", command: t.command, args: t.args.join("\n"), cwd: t.cwd ?? "", env: pairsOf(t.env) };
  const auth = t.auth ? { oauth: true, clientId: t.auth.clientId ?? "", clientSecret: t.auth.clientSecret ?? "", scopes: t.auth.scopes.join(" ") } : {};
  return { ...base, transport: "http", url: t.url, headers: pairsOf(t.headers), ...auth };
}

/** Rows with neither a key nor a value are the editor's spare rows, not entries. */
const filled = (pairs: Pair[]) => pairs.filter((pair) => pair.key.trim() !== "" || pair.value !== "");

/** What the form can tell before asking the studio: a key given twice, a value without a key, an idle time that is no number. */
export function localProblems(form: ServerForm): Array<{ path: string; message: string }> {
  const problems: Array<{ path: string; message: string }> = [];
  const minutes = Number(form.idleMinutes.trim());
  if (form.idleMinutes.trim() === "" || !Number.isFinite(minutes) || minutes < 0) {
    problems.push({ path: "idleStopS", message: "Give the idle time in minutes: 0 never stops the server, 10 is the default." });
  }
  const pairs = form.transport === "stdio" ? { at: "transport.env", what: "variable", rows: form.env } : { at: "transport.headers", what: "header", rows: form.headers };
  const seen = new Set<string>();
  for (const pair of filled(pairs.rows)) {
    const key = pair.key.trim();
    if (key === "") problems.push({ path: pairs.at, message: `A value has no ${pairs.what} name; name it, or clear the row.` });
    else if (seen.has(key)) problems.push({ path: `${pairs.at}.${key}`, message: `${key} is given twice; keep one row for it.` });
    seen.add(key);
  }
  return problems;
}

/** The sign-in as the API takes it: empty fields are left for the studio (registration, the server's own scopes). */
function authOf(form: ServerForm) {
  const given = (value: string) => (value.trim() === "" ? null : value.trim());
  return { type: "oauth", clientId: given(form.clientId), clientSecret: given(form.clientSecret), scopes: form.scopes.split(/\s+/).filter(Boolean) };
}

/** The server as the API takes it (create, update). */
export function configOf(form: ServerForm): Record<string, unknown> {
  const record = (pairs: Pair[]) => Object.fromEntries(filled(pairs).map((pair) => [pair.key.trim(), pair.value]));
  const transport =
    form.transport === "stdio"
      ? {
          type: "stdio",
          command: form.command.trim(),
          // Blank lines are spacing, not empty arguments: a form cannot show the difference.
          args: form.args.split("\n").map((line) => line.replace(/\r$/, "")).filter((line) => line.trim() !== ""),
          cwd: form.cwd.trim() === "" ? null : form.cwd.trim(),
          env: record(form.env),
        }
      : { type: "http", url: form.url.trim(), headers: record(form.headers), ...(form.oauth ? { auth: authOf(form) } : {}) };
  return { name: form.name, description: form.description, idleStopS: Math.round(Number(form.idleMinutes.trim()) * 60), transport };
}

/**
 * The form's place for a problem's path, as the registry writes it ("transport.args[2]", "transport.env.TOKEN") or
 * as input validation does ("server.transport.env.TOKEN"). A key's own place comes back as "env:TOKEN".
 */
export function placeOf(path: string): Place | `env:${string}` | `headers:${string}` {
  const at = path.replace(/^server(\.|$)/, "");
  const keyed = /^transport\.(env|headers)\.(.+)$/.exec(at);
  if (keyed) return `${keyed[1] as "env" | "headers"}:${keyed[2]!}`;
  if (at === "name") return "name";
  if (at === "description") return "description";
  if (at === "idleStopS") return "idle";
  if (at === "transport" || at === "transport.type") return "transport";
  const auth = /^transport\.auth(?:\.(clientId|clientSecret|scopes))?\b/.exec(at);
  if (auth) return (auth[1] as Place | undefined) ?? "auth";
  const field = /^transport\.(command|args|cwd|env|url|headers)\b/.exec(at);
  return field ? (field[1] as Place) : "other";
}

/** Problems grouped by their place, each place's sentences in order; an argument's sentence keeps its number. */
export function placeProblems(problems: Array<{ path: string; message: string }>): Map<string, string[]> {
  const placed = new Map<string, string[]>();
  for (const problem of problems) {
    const place = placeOf(problem.path);
    placed.set(place, [...(placed.get(place) ?? []), problem.message]);
  }
  return placed;
}
