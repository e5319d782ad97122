// GET /api/metrics: this process's metrics in Prometheus's text format (R-metrics-names), for a key holding the
// `metrics` scope (a scraper's) or an admin's session, and nobody else (R-metrics-access). Refusals are the public
// API's envelope, one sentence each; no answer may be cached. Edit when another credential may read the metrics.
import { sessionUser } from "@/server/auth/session";
import { getDb } from "@/server/db";
import { hasRole } from "@/server/auth/roles";
import { env } from "@/server/env";
import { carriesSession, crossSiteRefusal } from "@/server/http/origin";
import { recordKeyUse } from "@/server/keys/request";
import { readStudioMetrics } from "@/server/metrics/studio";
import { apiError, openKeyRequest, thrownAnswer } from "./edge";

/** What the route needs, as every route declares it: a key with this scope, or a session of this role. */
export const METRICS_ACCESS = { scope: "metrics", role: "admin" } as const;

const NO_CREDENTIAL =
  "This request has no credential: send a key with the metrics scope as \"Authorization: Bearer qk_…\" (an admin makes one in Settings → API keys), or sign in as an admin.";
const ENDED = "This request's session has ended or is not the studio's; sign in again as an admin, or send a key with the metrics scope.";
const NOT_ADMIN = "Only an admin may read the studio's metrics; ask an admin for a key with the metrics scope in Settings → API keys.";

const UNAUTHENTICATED = { "www-authenticate": 'Bearer realm="quiver"' };

/** The refusal to send, or null when the request may read the metrics. */
async function refusal(request: Request): Promise<Response | null> {
  // A bearer key decides alone; one sent with the cookie is refused there as every key request is (R-key-cookie).
  if (request.headers.has("authorization")) {
    const opened = await openKeyRequest(request, METRICS_ACCESS.scope);
    if (opened instanceof Response) return opened;
    await recordKeyUse(opened.db, opened.key, { action: "metrics.read" });
    return null;
  }
  if (!carriesSession(request.headers)) return apiError(401, "NO_CREDENTIAL", NO_CREDENTIAL, { headers: UNAUTHENTICATED });
  const foreign = crossSiteRefusal(request, env().baseUrl);
  if (foreign) return apiError(403, "CROSS_SITE", foreign);
  const user = await sessionUser(request.headers);
  if (!user) return apiError(401, "SESSION_ENDED", ENDED, { headers: UNAUTHENTICATED });
  if (!hasRole(user, METRICS_ACCESS.role)) return apiError(403, "NOT_ADMIN", NOT_ADMIN);
  return null;
}

export async function metricsRoute(request: Request): Promise<Response> {
  try {
    const refused = await refusal(request);
    if (refused) return refused;
    const { text, contentType } = await readStudioMetrics(await getDb());
    return new Response(text, { status: 200, headers: { "content-type": contentType, "cache-control": "no-store" } });
  } catch (error) {
    return thrownAnswer(error, "GET /api/metrics");
  }
}
