// What every route handler in app/api does first: refuse what another site's page sent (R-req-origin) and bodies over
// the limit, each with 403 or 413 and one sentence, in the shape its own client reads. A new route wraps its handler
// here; tests/integration/http/cross-site.test.ts sends every route's state-changing methods a foreign request.
import { env } from "@/server/env";
import { withinBodyLimit } from "./body";
import { crossSiteRefusal } from "./origin";

type Handler = (request: Request) => Promise<Response> | Response;

/** tRPC's clients read an error envelope; everything else (better-auth's client among them) reads `message`. */
export type Shape = "trpc" | "plain";

const rpcCodes = { 403: { code: "FORBIDDEN", rpc: -32003 }, 413: { code: "PAYLOAD_TOO_LARGE", rpc: -32013 } } as const;

export function refusal(shape: Shape, status: 403 | 413, message: string): Response {
  const { code, rpc } = rpcCodes[status];
  const body =
    shape === "trpc"
      ? { error: { message, code: rpc, data: { code, httpStatus: status, path: null, issues: null, domain: null } } }
      : { message, code };
  return Response.json(body, { status });
}

export function guarded(shape: Shape, handler: Handler): Handler {
  return async (request) => {
    const foreign = crossSiteRefusal(request, env().baseUrl);
    if (foreign) return refusal(shape, 403, foreign);
    const bounded = await withinBodyLimit(request);
    if (bounded.refusal !== null) return refusal(shape, 413, bounded.refusal);
    return handler(bounded.request);
  };
}
