// The edge of every route behind an API key (app/api/v1/**): one keyRoute(spec, handler) per route does, in order,
// the body limit, the key (requireKey: live, in its rate limit, holding the route's scope), the route's params, query
// and body through its zod schemas, and turns whatever goes wrong into `{ "error": { "code", "message" } }` with the
// right status (R-api-runs-envelope). A request without the studio's cookie skips the Origin check, since another
// site cannot make a browser attach a key; one carrying the cookie is held to it first (a 403 from another site's
// page, R-req-origin), and is then never taken as a key request. Edit when every key route changes.
import { z } from "zod";
import type { Db } from "@/db/client";
import { getDb } from "@/server/db";
import { reportUnexpected } from "@/server/error-report";
import { DomainError, type ErrorKind } from "@/server/errors";
import { withinBodyLimit } from "@/server/http/body";
import { carriesSession, crossSiteRefusal } from "@/server/http/origin";
import { env } from "@/server/env";
import { inputSentence, issueList, type Issue } from "@/server/input/sentences";
import { KeyRefused, mayUseAgent, requireKey, type ApiKeyPrincipal, type KeyScope } from "@/server/keys/request";

export type ErrorBody = { error: { code: string; message: string; issues?: Issue[]; errorId?: string } };

/** A route as the edge checks it and the OpenAPI document describes it (openapi.ts): one source for both. */
export type RouteSpec = {
  method: "get" | "post";
  /** OpenAPI's form, `{id}` for a segment: `/api/v1/runs/{id}`. */
  path: `/api/v1/${string}`;
  /** Several: a key holding any one of them may. */
  scope: KeyScope | readonly KeyScope[];
  operationId: string;
  /** The document's group for it ("Runs", "Chat"…); "API" when none is given. */
  tag?: string;
  summary: string;
  description: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** Request headers the route reads (Last-Event-ID), by name (read case-insensitively). */
  headers?: z.ZodObject;
  body?: z.ZodType;
  ok: { status: 200 | 201 | 202; description: string; schema: z.ZodType; contentType?: "application/json" | "text/event-stream" };
  /** What else it may answer beyond what every key route may (400, 401, 403, 413, 429, 500). */
  errors?: { status: 404 | 409; description: string }[];
  /** A request a reader can paste, for the reference page: the body as JSON, path parameters filled. */
  example?: { path: string; body?: unknown };
};

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;

export type KeyRequest<S extends RouteSpec> = {
  request: Request;
  key: ApiKeyPrincipal;
  db: Db;
  params: Out<S["params"]>;
  query: Out<S["query"]>;
  headers: Out<S["headers"]>;
  body: Out<S["body"]>;
};

const STATUS: Record<ErrorKind, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
};

const NO_STORE = { "cache-control": "no-store" };

/** The envelope every refusal of a key route is answered in. */
export function apiError(status: number, code: string, message: string, extra: { issues?: Issue[]; errorId?: string; headers?: HeadersInit } = {}): Response {
  const error: ErrorBody["error"] = { code, message, ...(extra.issues ? { issues: extra.issues } : {}), ...(extra.errorId ? { errorId: extra.errorId } : {}) };
  return Response.json({ error } satisfies ErrorBody, { status, headers: { ...NO_STORE, ...Object.fromEntries(new Headers(extra.headers)) } });
}

/**
 * The 403 for a request another site's page sent with the studio's cookie (R-req-origin), else null. Without the
 * cookie a request carries nothing a browser adds by itself, so whatever its origin it is the key's to judge (a 401
 * without one).
 */
function crossSiteAnswer(request: Request): Response | null {
  if (!carriesSession(request.headers)) return null;
  const foreign = crossSiteRefusal(request, env().baseUrl);
  return foreign === null ? null : apiError(403, "CROSS_SITE", foreign);
}

/** Thrown by a handler to answer an input refusal it found itself, in the same words as the schemas'. */
class Invalid extends Error {
  constructor(readonly response: Response) {
    super("invalid input");
  }
}

type Where = "params" | "query" | "headers" | "body";

function invalid(issues: readonly z.core.$ZodIssue[], where: Where): Invalid {
  // A path or query parameter is named as the client wrote it; a body's field by its path in the body.
  return new Invalid(apiError(400, "INVALID_INPUT", inputSentence(issues), { issues: issueList(issues).map((i) => ({ ...i, path: i.path || where })) }));
}

/** The path's `{name}` segments from the request's URL (decoded), or null when the URL is not this route's. */
export function pathParams(pattern: string, pathname: string): Record<string, string> | null {
  const want = pattern.split("/");
  const got = pathname.replace(/\/+$/, "").split("/");
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const name = /^\{(\w+)\}$/.exec(want[i]!)?.[1];
    if (!name) {
      if (want[i] !== got[i]) return null;
      continue;
    }
    try {
      params[name] = decodeURIComponent(got[i]!);
    } catch {
      params[name] = got[i]!;
    }
  }
  return params;
}

function parse<T extends z.ZodType>(schema: T, value: unknown, where: Where): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw invalid(result.error.issues, where);
  return result.data;
}

/** Only the headers the schema names: the rest (a cookie, the key itself) never meet a schema or its sentences. */
function headersOf(schema: z.ZodObject, headers: Headers): Record<string, string> {
  const named: Record<string, string> = {};
  for (const name of Object.keys(schema.shape)) {
    const value = headers.get(name);
    if (value !== null) named[name] = value;
  }
  return named;
}

async function bodyOf(spec: RouteSpec, request: Request): Promise<unknown> {
  if (!spec.body) return undefined;
  const raw = await request.text();
  if (raw.trim() === "") throw new Invalid(apiError(400, "INVALID_BODY", "This request's body is empty; send a JSON object, as the API reference shows for this route."));
  try {
    return JSON.parse(raw);
  } catch {
    throw new Invalid(apiError(400, "INVALID_JSON", "This request's body is not JSON (it is cut off or garbled); send one JSON object."));
  }
}

/**
 * Refuses a key that may not use the agent, as requireKey does with an agent id: for a route that learns the agent
 * only from its checked input, after the key itself was checked (so a request without a key hears 401 first).
 */
export function requireAgent(key: ApiKeyPrincipal, agentId: string): void {
  if (!mayUseAgent(key, agentId)) {
    throw new KeyRefused(403, "KEY_AGENT", "This API key may not use this agent; ask an admin for a key in Settings → API keys that names it.");
  }
}

function refusedKey(error: KeyRefused): Response {
  const headers: Record<string, string> = error.retryAfterSeconds !== undefined ? { "retry-after": String(Math.max(1, Math.ceil(error.retryAfterSeconds))) } : {};
  if (error.status === 401) headers["www-authenticate"] = 'Bearer realm="quiver"';
  return apiError(error.status, error.code, error.message, { headers });
}

/**
 * The opening every request behind a key shares: the Origin check for one carrying the studio's cookie, the body
 * limit, then the key holding `scope`. A Response is the refusal to send as it is.
 */
export async function openKeyRequest(
  incoming: Request,
  scope: KeyScope | readonly KeyScope[],
): Promise<Response | { request: Request; db: Db; key: ApiKeyPrincipal }> {
  const foreign = crossSiteAnswer(incoming);
  if (foreign) return foreign;
  const bounded = await withinBodyLimit(incoming);
  if (bounded.refusal !== null) return apiError(413, "BODY_TOO_LARGE", bounded.refusal);
  const db = await getDb();
  return { request: bounded.request, db, key: await requireKey(db, bounded.request, scope) };
}

/** The answer to what a key route threw: a refusal in its own words, or an unexpected error by its id only. */
export function thrownAnswer(error: unknown, where: string): Response {
  if (error instanceof Invalid) return error.response;
  if (error instanceof KeyRefused) return refusedKey(error);
  if (error instanceof DomainError) return apiError(STATUS[error.kind], error.reason, error.message);
  const { id, sentence } = reportUnexpected(error, where);
  return apiError(500, "INTERNAL", sentence, { errorId: id });
}

/**
 * The route handler for `spec`: `handler` gets the key and the checked input and returns a Response, or a value
 * answered as JSON with the spec's success status.
 */
export function keyRoute<S extends RouteSpec>(spec: S, handler: (input: KeyRequest<S>) => Promise<Response | object>): (request: Request) => Promise<Response> {
  return async (incoming) => {
    let key: ApiKeyPrincipal | null = null;
    try {
      const opened = await openKeyRequest(incoming, spec.scope);
      if (opened instanceof Response) return opened;
      const { request, db } = opened;
      key = opened.key;
      const url = new URL(request.url);
      const params = spec.params ? parse(spec.params, pathParams(spec.path, url.pathname) ?? {}, "params") : undefined;
      const query = spec.query ? parse(spec.query, Object.fromEntries(url.searchParams), "query") : undefined;
      const headers = spec.headers ? parse(spec.headers, headersOf(spec.headers, request.headers), "headers") : undefined;
      const body = spec.body ? parse(spec.body, await bodyOf(spec, request), "body") : undefined;
      const answer = await handler({ request, key, db, params, query, headers, body } as KeyRequest<S>);
      if (answer instanceof Response) return answer;
      return Response.json(answer, { status: spec.ok.status, headers: NO_STORE });
    } catch (error) {
      return thrownAnswer(error, `API ${spec.method.toUpperCase()} ${spec.path}${key ? ` for key ${key.id}` : ""}`);
    }
  };
}
