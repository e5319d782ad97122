// The one reader of process.env: every setting the studio takes, validated once.
// Edit when Quiver gains a setting; add it to README's table too.
import net from "node:net";
import path from "node:path";
import { z } from "zod";

/** An IPv4 or IPv6 address, or a range of them written address/prefix. */
function isAddressOrRange(entry: string): boolean {
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = net.isIP(address);
  if (!family || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** The most runs one process may be told to drive at once: each held run costs memory and a share of the lease refresh. */
const MAX_RUNS_LIMIT = 10_000;
const MAX_RUNS_SENTENCE = `QUIVER_MAX_RUNS must be a whole number of runs from 1 to ${MAX_RUNS_LIMIT}`;

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  // An exported but empty DATABASE_URL means "not set", as most tools read it.
  DATABASE_URL: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.string().regex(/^postgres(ql)?:\/\//, "DATABASE_URL must be a postgres:// or postgresql:// URL").optional(),
  ),
  QUIVER_DATA_DIR: z.string().min(1).default(".quiver"),
  QUIVER_TOOLS_DIR: z.string().min(1).default("tools"),
  QUIVER_PYTHON: z.string().min(1).default("python3"),
  // 32 bytes, as 64 hex digits or base64; without it the studio keeps a key file in the data folder.
  QUIVER_SECRET_KEY: z.string().min(1).optional(),
  // Where people reach the studio, e.g. https://quiver.example.com: makes session cookies Secure on https.
  QUIVER_BASE_URL: z.string().url("QUIVER_BASE_URL must be a URL such as https://quiver.example.com").optional(),
  // The reverse proxies whose X-Forwarded-For is believed: addresses or ranges, separated by commas.
  QUIVER_TRUSTED_PROXIES: z
    .string()
    .default("")
    .transform((value) => value.split(",").map((entry) => entry.trim()).filter(Boolean))
    .refine((entries) => entries.every(isAddressOrRange), {
      message: "QUIVER_TRUSTED_PROXIES must list IP addresses or ranges (such as 10.0.0.0/8), separated by commas",
    }),
  QUIVER_ADMIN_EMAIL: z.string().email("QUIVER_ADMIN_EMAIL must be an email address").optional(),
  // What this process does (R-queue-role): serve pages and drive runs (all), only serve and queue (web), only drive (worker).
  QUIVER_ROLE: z.enum(["all", "web", "worker"], { message: "QUIVER_ROLE must be all, web or worker" }).default("all"),
  // The run queue every process of this studio shares; only tests sharing one database name others.
  QUIVER_RUN_QUEUE: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,60}$/, "QUIVER_RUN_QUEUE must be letters, digits, dots, dashes or underscores")
    .default("quiver-runs"),
  // How many runs this process drives at once (R-queue-job); more wait on the queue for room here or elsewhere.
  QUIVER_MAX_RUNS: z.coerce
    .number({ message: MAX_RUNS_SENTENCE })
    .int(MAX_RUNS_SENTENCE)
    .min(1, MAX_RUNS_SENTENCE)
    .max(MAX_RUNS_LIMIT, MAX_RUNS_SENTENCE)
    .default(500),
  QUIVER_ADMIN_PASSWORD: z.string().min(12, "QUIVER_ADMIN_PASSWORD must be at least 12 characters").optional(),
  // Run traces (R-otel-on): sent when an OTLP endpoint is set, as the OpenTelemetry SDK reads these; the rest of OTEL_* the SDK reads itself.
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().optional(),
  OTEL_SDK_DISABLED: z.string().optional(),
  // Tool arguments and results on the traces, masked (R-otel-content): only when set to 1.
  QUIVER_OTEL_CONTENT: z.enum(["0", "1"], { message: "QUIVER_OTEL_CONTENT must be 1 or 0" }).optional(),
});

export type Env = {
  nodeEnv: "development" | "production" | "test";
  port: number;
  databaseUrl: string | undefined;
  /** Absolute folder of the embedded database, the key file and the tool host's work folders. */
  dataDir: string;
  /** Absolute folder of the tool tree. */
  toolsDir: string;
  python: string;
  /** The studio key as given, or undefined to use (or create) the key file in the data folder. */
  secretKey: string | undefined;
  /** The studio's public address, when it is known; sessions then use Secure cookies on https. */
  baseUrl: string | undefined;
  /** Proxies (addresses or address/prefix ranges) whose X-Forwarded-For names the client; empty trusts none. */
  trustedProxies: string[];
  /** The owner account to create at start-up when there is none (deployments and tests). */
  admin: { email: string; password: string } | undefined;
  /** Whether this process serves pages, drives runs, or both (R-queue-role). */
  role: "all" | "web" | "worker";
  /** The run queue's name (R-queue-job). */
  runQueue: string;
  /** How many runs this process drives at once (R-queue-job). */
  maxRuns: number;
  /** Whether runs are traced over OTLP (R-otel-on), and whether the traces carry tool arguments and results (R-otel-content). */
  otel: { traces: boolean; content: boolean };
};

/** A configuration the studio cannot start with; its message is a sentence saying which variable to fix. */
export class ConfigError extends Error {}

export function parseEnv(source: Record<string, string | undefined>, cwd = process.cwd()): Env {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Quiver's configuration is invalid: ${problems.join("; ")}`);
  }
  const v = parsed.data;
  if (!!v.QUIVER_ADMIN_EMAIL !== !!v.QUIVER_ADMIN_PASSWORD) {
    throw new ConfigError("Quiver's configuration is invalid: set QUIVER_ADMIN_EMAIL and QUIVER_ADMIN_PASSWORD together, or neither.");
  }
  if (v.QUIVER_ROLE !== "all" && !v.DATABASE_URL) {
    throw new ConfigError(
      `Quiver's configuration is invalid: QUIVER_ROLE=${v.QUIVER_ROLE} needs DATABASE_URL, since processes of one studio share its database; the embedded one opens in one process only, which must be all.`,
    );
  }
  return {
    nodeEnv: v.NODE_ENV,
    port: v.PORT,
    databaseUrl: v.DATABASE_URL,
    dataDir: path.resolve(cwd, v.QUIVER_DATA_DIR),
    toolsDir: path.resolve(cwd, v.QUIVER_TOOLS_DIR),
    python: v.QUIVER_PYTHON,
    secretKey: v.QUIVER_SECRET_KEY,
    baseUrl: v.QUIVER_BASE_URL?.replace(/\/+$/, ""),
    trustedProxies: v.QUIVER_TRUSTED_PROXIES,
    admin:
      v.QUIVER_ADMIN_EMAIL && v.QUIVER_ADMIN_PASSWORD
        ? { email: v.QUIVER_ADMIN_EMAIL.toLowerCase(), password: v.QUIVER_ADMIN_PASSWORD }
        : undefined,
    role: v.QUIVER_ROLE,
    runQueue: v.QUIVER_RUN_QUEUE,
    maxRuns: v.QUIVER_MAX_RUNS,
    otel: {
      traces: !!(v.OTEL_EXPORTER_OTLP_ENDPOINT || v.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) && v.OTEL_SDK_DISABLED?.trim().toLowerCase() !== "true",
      content: v.QUIVER_OTEL_CONTENT === "1",
    },
  };
}

let cached: Env | undefined;

/** The studio's configuration, read from the process environment on first use. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/**
 * The few variables a child process (the tool host, a shell) may inherit: enough to find programs
 * and speak UTF-8, and nothing of the studio's (no QUIVER_*, no DATABASE_URL, no keys).
 */
export function childBaseEnv(): Record<string, string> {
  const keep = ["PATH", "LANG", "LC_ALL", "TZ"];
  const out: Record<string, string> = {};
  for (const name of keep) {
    const value = process.env[name];
    if (value) out[name] = value;
  }
  out.PATH ??= "/usr/local/bin:/usr/bin:/bin";
  out.LANG ??= "C.UTF-8";
  return out;
}
