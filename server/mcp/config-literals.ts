// Credentials written out where a ${NAME} belongs (R-mcp-import-literals): an mcp.json copied from a desktop client
// usually carries its tokens in clear, and a row must never keep one. A value is refused when its name says it is a
// credential and it is not a plain word, a number, a URL or a path; when it has a credential's shape (sk-…, ghp_…,
// xox…-, a JWT, an AWS key id); or when it is an Authorization-style "Bearer <literal>". Sentences never repeat the
// value: they end up in logs and answers.
import type { McpTransport, Problem } from "./config";

/** A name that says its value is a credential. */
const CREDENTIAL_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|AUTH|CREDENTIAL|COOKIE)/i;
/** Names whose values are often words (AUTH_MODE=oauth, KEY_FILE=…); PASSWORD and SECRET values may be words too. */
const WORD_FRIENDLY = /(AUTH|KEY|TOKEN|COOKIE|CREDENTIAL)/i;

/** Shapes of well-known credentials, anywhere in a value. */
const CREDENTIAL_SHAPES: RegExp[] = [
  /(^|[^A-Za-z0-9])sk-(ant-|proj-|live-|test-)?[A-Za-z0-9_-]{16,}/, // OpenAI, Anthropic, Stripe
  /(^|[^A-Za-z0-9])(ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}/, // GitHub
  /(^|[^A-Za-z0-9])github_pat_[A-Za-z0-9_]{20,}/,
  /(^|[^A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{10,}/, // Slack
  /(^|[^A-Za-z0-9])glpat-[A-Za-z0-9_-]{16,}/, // GitLab
  /(^|[^A-Za-z0-9])AKIA[0-9A-Z]{16}([^0-9A-Z]|$)/, // AWS access key id
  /(^|[^A-Za-z0-9])AIza[0-9A-Za-z_-]{30,}/, // Google API key
  /(^|[^A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\./, // a JWT
];

/** "Bearer abc", "Basic abc", "token abc": an authorization scheme followed by a literal credential. */
const SCHEME_LITERAL = /^\s*(Bearer|Basic|Token|Bot|Digest)\s+(?!\$\{)\S/i;

/** Values a credential-named variable often holds that are not credentials. */
function plainValue(name: string, value: string): boolean {
  const v = value.trim();
  if (v === "" || /^(true|false|yes|no|on|off|none|null|\d{1,6})$/i.test(v)) return true;
  if (/^https?:\/\/[^@\s/]+(\/\S*)?$/.test(v) && !/[?&][^=]*(key|token|secret|password)[^=]*=/i.test(v)) return true;
  if (/^(\/|~\/|\.\.?\/)[^\s]*$/.test(v)) return true;
  return WORD_FRIENDLY.test(name) && !/(PASSWORD|PASSWD|SECRET)/i.test(name) && /^[a-z]+([-_][a-z]+)*$/.test(v) && v.length <= 16;
}

const hasReference = (value: string) => /\$\{[A-Z][A-Z0-9_]*\}/.test(value);
const shaped = (value: string) => CREDENTIAL_SHAPES.some((shape) => shape.test(value));

/** A secret name to suggest for a field: GITHUB_TOKEN for env GITHUB_TOKEN, X_API_KEY for a header X-Api-Key. */
function suggestion(name: string, fallback: string): string {
  const upper = name.toUpperCase().replace(/[^A-Z0-9]+/g, "_").replace(/^[^A-Z]+/, "").replace(/_+$/, "");
  return upper && upper !== "AUTHORIZATION" ? upper : fallback;
}

function refusal(at: string, what: string, suggest: string, scheme?: string): Problem {
  return {
    path: at,
    message:
      `${what} holds a credential written out; a server's row keeps no credential in clear. Store it as a secret ` +
      `(an admin creates one in Settings → Secrets) and write ${scheme ? `${scheme} ` : ""}\${${suggest}} here instead.`,
  };
}

function keyed(entries: Record<string, string>, base: string, kind: string, fallback: string): Problem[] {
  const problems: Problem[] = [];
  for (const [name, value] of Object.entries(entries)) {
    if (hasReference(value) && !shaped(value.replace(/\$\{[A-Z][A-Z0-9_]*\}/g, ""))) continue;
    const at = `${base}.${name}`;
    const literal = SCHEME_LITERAL.test(value) || shaped(value) || (CREDENTIAL_NAME.test(name) && !plainValue(name, value));
    if (!literal) continue;
    problems.push(refusal(at, `The ${kind} ${name}`, suggestion(name, fallback), SCHEME_LITERAL.exec(value)?.[1]));
  }
  return problems;
}

/** `--token xyz` and `--api-key=xyz` in a command's arguments, and any argument with a credential's shape. */
function argProblems(args: string[], fallback: string): Problem[] {
  const problems: Problem[] = [];
  const flag = /^--?([A-Za-z0-9-]*(key|token|secret|password|auth)[A-Za-z0-9-]*)(=(.*))?$/i;
  args.forEach((arg, i) => {
    const at = `transport.args[${i}]`;
    const match = flag.exec(arg);
    const previous = i > 0 ? flag.exec(args[i - 1]!) : null;
    const valueAfterFlag = previous && previous[3] === undefined && !arg.startsWith("-") ? arg : null;
    const inline = match?.[4];
    const candidate = inline ?? valueAfterFlag;
    const flagName = match?.[1] ?? previous?.[1] ?? "";
    const literal =
      shaped(arg.replace(/\$\{[A-Z][A-Z0-9_]*\}/g, "")) ||
      (candidate !== null && candidate !== undefined && !hasReference(candidate) && !plainValue(flagName, candidate));
    if (literal) problems.push(refusal(at, `Argument ${i + 1}`, suggestion(flagName, fallback)));
  });
  return problems;
}

/** Every credential written out in a transport's values, each a sentence at its field. */
export function literalCredentials(transport: McpTransport, serverName: string): Problem[] {
  const fallback = `${suggestion(serverName, "SERVER")}_TOKEN`;
  if (transport.type === "http") {
    const problems = keyed(transport.headers, "transport.headers", "header", fallback);
    let url: URL | null = null;
    try {
      url = new URL(transport.url.replace(/\$\{[A-Z][A-Z0-9_]*\}/g, "x"));
    } catch {
      // the shape check has said so
    }
    const inQuery = url ? [...url.searchParams].some(([name, value]) => CREDENTIAL_NAME.test(name) && value !== "x" && !plainValue(name, value)) : false;
    if ((url && url.password) || inQuery || shaped(transport.url)) problems.unshift(refusal("transport.url", "The URL", fallback));
    return problems;
  }
  return [...argProblems(transport.args, fallback), ...keyed(transport.env, "transport.env", "variable", fallback)];
}
