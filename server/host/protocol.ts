// The shapes of Quiver's own tool-host methods (quiver/catalog, quiver/preview, quiver/check_secret) and of a
// call's result, as zod schemas: the host's answers are checked here before the studio trusts them.
import { z } from "zod";
import { parseIoRequest, type IoRequest } from "./io-protocol";

export const catalogToolSchema = z.object({
  name: z.string(),
  title: z.string(),
  description: z.string(),
  input_schema: z.record(z.string(), z.unknown()),
  scope: z.string().nullable(),
  risk: z.string().nullable(),
  read_only: z.boolean(),
  destructive: z.boolean(),
  timeout: z.number().nullable(),
  replay: z.string().nullable(),
  /** With `detail`: concurrent, capabilities, interactive, arg_timeout, max_timeout, voice, expressions. */
  behaviour: z.record(z.string(), z.unknown()).optional(),
});

export const fileErrorSchema = z.object({ line: z.number().int().nullable(), message: z.string() });

export const catalogFileSchema = z.object({
  path: z.string(),
  kind: z.enum(["functions", "class", "module", "helper", "tool_class"]),
  title: z.string().nullable(),
  description: z.string().nullable(),
  offered: z.boolean(),
  /** Why a file without errors offers nothing right now: its module's check() held its tool back (R-module-check). */
  unavailable: z.string().nullable().optional(),
  tools: z.array(catalogToolSchema),
  settings_schema: z.record(z.string(), z.unknown()).nullable(),
  errors: z.array(fileErrorSchema),
  /** With `detail`: what only the editor needs (the module's name, its scope, its secret check and help). */
  detail: z
    .object({
      module: z.string().nullable(),
      scope: z.string().nullable(),
      check_secret: z.boolean(),
      credential_help: z.string().nullable(),
    })
    .optional(),
});

export const catalogSchema = z.object({ files: z.array(catalogFileSchema) });

export const secretCheckSchema = z.object({ ok: z.boolean(), message: z.string().nullable() });

/** quiver/offered: per named tool its check() holds back now, why (R-check-turn); the others are offered. */
export const heldSchema = z.object({ held: z.record(z.string(), z.string()) });

/** One call as the call hook (hooks/tools.py) is shown it. */
export type HookCall = { name: string; arguments: Record<string, unknown>; source: string; agent: string | null; run: string | null };

/** What the hook decided: `none` leaves it to the agent's permissions; `error` marks a hook that could not decide. */
export const hookDecisionSchema = z.object({
  decision: z.enum(["allow", "ask", "refuse", "none"]),
  reason: z.string().nullable(),
  error: z.boolean().optional(),
});
export type HookDecision = z.infer<typeof hookDecisionSchema>;

const systemRequestSchema = z.object({
  source: z.string().min(1).max(100),
  operation: z.string().min(1).max(200),
  arguments: z.record(z.string(), z.unknown()),
});
const askRequestSchema = z.object({ question: z.string().min(1).max(10_000), choices: z.array(z.string().max(1_000)).max(50) });

/** A request from a running call (ctx.system, ctx.ask, ctx.io) checked before the studio acts on it; a sentence when malformed. */
export function parseStudioRequest(
  method: "quiver/system" | "quiver/ask" | "quiver/io",
  params: Record<string, unknown>,
):
  | { method: "quiver/system"; params: z.infer<typeof systemRequestSchema> }
  | { method: "quiver/ask"; params: z.infer<typeof askRequestSchema> }
  | { method: "quiver/io"; params: IoRequest }
  | string {
  if (method === "quiver/io") {
    const parsed = parseIoRequest(params);
    return typeof parsed === "string" ? parsed : { method, params: parsed };
  }
  if (method === "quiver/system") {
    const parsed = systemRequestSchema.safeParse(params);
    return parsed.success ? { method, params: parsed.data } : `quiver/system needs source, operation and arguments (an object): ${parsed.error.issues[0]?.message}`;
  }
  const parsed = askRequestSchema.safeParse(params);
  return parsed.success ? { method, params: parsed.data } : `quiver/ask needs a question and its choices: ${parsed.error.issues[0]?.message}`;
}

export type CatalogTool = z.infer<typeof catalogToolSchema>;
export type CatalogFile = z.infer<typeof catalogFileSchema>;
export type Catalog = z.infer<typeof catalogSchema>;
export type SecretCheck = z.infer<typeof secretCheckSchema>;

/**
 * How a call ended, whatever answered it (a tree file, a built-in, an MCP server): refused (nothing happened) is
 * told apart from failed, a transient failure may be retried, a timeout may have partly run (R-result-outcome).
 * Defined here, the lowest layer that reads it, and imported by every other.
 */
export const outcomeSchema = z.enum(["ok", "refused", "failed", "transient", "timeout"]);
export type Outcome = z.infer<typeof outcomeSchema>;

/** A picture for a vision model, base64 (R-result-image). */
export type Image = { data: string; mimeType: string };

/** What a tools/call answer carries in `_meta` beyond MCP's own fields. */
export const callMetaSchema = z.object({
  "quiver/outcome": outcomeSchema.optional(),
  "quiver/duration_ms": z.number().optional(),
  "quiver/truncated": z.unknown().optional(),
});

export type Content = { type: "text"; text: string } | ({ type: "image" } & Image);

/** One call's answer, as the studio uses it, from any kind of source (server/calls/ makes a built-in's so too). */
export type CallResult = {
  content: Content[];
  isError: boolean;
  outcome: Outcome;
  durationMs: number | null;
  /** Where the host kept a cut result whole (R-result-cut), when it cut one. */
  truncated: string | null;
};

export type Progress = { progress: number; total?: number; message?: string };

/** An error answer made on the studio's side (the host stopped, or did not answer). */
export function errorResult(text: string, outcome: Outcome = "failed"): CallResult {
  return { content: [{ type: "text", text }], isError: true, outcome, durationMs: null, truncated: null };
}

/** The result as the model reads it: the text parts, and a one-line placeholder per image. */
export function resultText(result: Pick<CallResult, "content">): string {
  return result.content
    .map((part) => (part.type === "text" ? part.text : `[image: ${part.mimeType}, ${Math.round((part.data.length * 3) / 4)} bytes]`))
    .join("\n");
}
