// The public API's OpenAPI 3.1 document, generated from the very zod schemas its routes check requests with
// (R-api-runs-openapi): each route's spec with its key scope, the bearer scheme, and the error envelope every
// refusal is answered in. Served at /api/v1/openapi.json and drawn by the /api-docs page. Edit when the document's
// frame changes; a route's own words live in its spec.
import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import type { SchemaObject } from "openapi3-ts/oas31";
import { z } from "zod";
import { env } from "@/server/env";
import { reportUnexpected } from "@/server/error-report";
import { apiError, type ErrorBody, type RouteSpec } from "./edge";
import { API_ROUTES } from "./openapi-routes";

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31["generateDocument"]>;

export const OPENAPI_PATH = "/api/v1/openapi.json";

const errorEnvelope = z
  .object({
    error: z.object({
      code: z.string().meta({ description: "What went wrong, for code to branch on: INVALID_INPUT, NO_SUCH_RUN, RUN_BUSY…", example: "INVALID_INPUT" }),
      message: z.string().meta({ description: "One sentence saying what went wrong and what to send instead.", example: "message is empty; send at least one character." }),
      issues: z.array(z.object({ path: z.string(), message: z.string() })).optional().meta({ description: "Refused input: each field at fault with its sentence." }),
      errorId: z.string().optional().meta({ description: "An unexpected error's id: the studio's log has the details under it." }),
    }),
  })
  .meta({ id: "Error", description: "Every refusal and failure is answered in this envelope, never with SQL, a stack or a driver's words." }) satisfies z.ZodType<ErrorBody>;

const SHARED_ERRORS: Record<number, string> = {
  400: "The input was refused; the message names the field and what to send.",
  401: "No key, or a key that is unknown, revoked or expired (a request carrying the studio's session cookie is never taken as a key request).",
  403: "The key lacks this route's scope, or may not use this agent.",
  413: "The body is over the studio's limit (8 MB).",
  429: "The key is over its rate limit; wait as Retry-After says.",
  500: "Something went wrong on the server; the message carries an error id.",
};

const TAGS: Record<string, string> = {
  Agents: "Starting runs of an agent.",
  Runs: "Reading, following and steering a run.",
  Reference: "This document.",
};

const retryAfter = z.object({ "Retry-After": z.string().meta({ description: "Seconds to wait before trying again.", example: "12" }) });

function errorResponses(route: RouteSpec) {
  const out: Record<string, { description: string; headers?: typeof retryAfter; content: { "application/json": { schema: typeof errorEnvelope } } }> = {};
  const all: [number, string][] = [...Object.entries(SHARED_ERRORS).map(([s, d]): [number, string] => [Number(s), d]), ...(route.errors ?? []).map((e): [number, string] => [e.status, e.description])];
  for (const [status, description] of all.sort((a, b) => a[0] - b[0])) {
    // A route with no body or input of its own has nothing to refuse as input, save the body limit.
    if (status === 400 && !route.body && !route.query && !route.headers && !route.params) continue;
    out[String(status)] = { description, ...(status === 429 ? { headers: retryAfter } : {}), content: { "application/json": { schema: errorEnvelope } } };
  }
  return out;
}

/** The route's example body, which the reference page's curl line sends. */
const example = (route: RouteSpec) => (route.example?.body !== undefined ? { example: route.example.body } : {});

function register(registry: OpenAPIRegistry, route: RouteSpec, bearer: string): void {
  const ok = route.ok;
  const scopes: readonly string[] = [route.scope].flat();
  const okContent =
    ok.contentType === "text/event-stream"
      ? {
          "text/event-stream": {
            schema: {
              type: "string" as const,
              description: "Server-sent events; each `data:` line is a RunEvent (#/components/schemas/RunEvent) as JSON.",
            },
          },
        }
      : { "application/json": { schema: ok.schema } };
  registry.registerPath({
    method: route.method,
    path: route.path,
    operationId: route.operationId,
    summary: route.summary,
    description: `${route.description}\n\nKey scope: ${scopes.map((scope) => `\`${scope}\``).join(" or ")}${scopes.length > 1 ? " (any one)" : ""}.`,
    tags: [route.tag ?? "API"],
    security: [{ [bearer]: [] }],
    "x-quiver-scopes": scopes,
    request: {
      ...(route.params ? { params: route.params } : {}),
      ...(route.query ? { query: route.query } : {}),
      ...(route.headers ? { headers: route.headers } : {}),
      ...(route.body ? { body: { required: true, content: { "application/json": { schema: route.body, ...example(route) } } } } : {}),
    },
    responses: { [String(ok.status)]: { description: ok.description, content: okContent }, ...errorResponses(route) },
  });
  // The stream's event is named only in prose above: registered so the document carries its schema.
  if (ok.contentType === "text/event-stream") {
    const { $schema, ...schema } = z.toJSONSchema(ok.schema, { target: "draft-2020-12", io: "output" });
    void $schema;
    registry.registerComponent("schemas", "RunEvent", schema as SchemaObject);
  }
}

/** The document; `server` is the studio's address as the client reached it. */
export function openApiDocument(server?: string, routes: readonly RouteSpec[] = API_ROUTES): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  const bearer = registry.registerComponent("securitySchemes", "apiKey", {
    type: "http",
    scheme: "bearer",
    description: "An API key from Settings → API keys, as `Authorization: Bearer <key>`. Each key names the agents it may use and its scopes: run, read, decide.",
  });
  for (const route of routes) register(registry, route, bearer.name);
  registry.registerPath({
    method: "get",
    path: OPENAPI_PATH,
    operationId: "openApiDocument",
    summary: "This document",
    description: "The API's OpenAPI 3.1 document. Needs no key.",
    tags: ["Reference"],
    security: [],
    responses: { "200": { description: "The document.", content: { "application/json": { schema: { type: "object" } } } } },
  });
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Quiver API",
      version: "1",
      description:
        "Run a studio's agents from programs: start a run, follow its events, approve or deny its calls, answer its questions, continue or stop it. Every route needs an API key (Settings → API keys) with the scope it names, and keeps the playground's rules: permissions, approvals, the call hook, secrets applied server-side and masked.",
    },
    servers: server ? [{ url: server }] : [],
    tags: [...new Set([...routes.map((r) => r.tag ?? "API"), "Reference"])].map((name) => ({ name, ...(TAGS[name] ? { description: TAGS[name] } : {}) })),
  });
}

let last: { server: string; document: OpenApiDocument } | null = null;

/** The document as /api/v1/openapi.json answers it, naming the studio's address (QUIVER_BASE_URL, else the request's). */
export function openApiAnswer(request: Request): Response {
  try {
    const server = env().baseUrl ?? new URL(request.url).origin;
    // Made once per address (about 10 ms each time otherwise); the last one is kept, whatever Host a client sends.
    if (last?.server !== server) last = { server, document: openApiDocument(server) };
    return Response.json(last.document, { headers: { "cache-control": "no-cache" } });
  } catch (error) {
    const { id, sentence } = reportUnexpected(error, `API GET ${OPENAPI_PATH}`);
    return apiError(500, "INTERNAL", sentence, { errorId: id });
  }
}
