// Whether a request came from the studio's own pages (R-req-origin). A browser names the sending page's origin in
// Origin on every state-changing request, and where it says nothing there, Sec-Fetch-Site says whose page it was.
// Anything another site can make a signed-in browser send (a form, a no-cors fetch, a link) is refused here, before
// any procedure or better-auth sees it. Edit when a new kind of credential arrives (see isKeyRequest).
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
// better-auth's session cookie under Quiver's prefix; on https it carries the __Secure- prefix.
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?quiver\.session_token=/;

export const FROM_ANOTHER_SITE =
  "This request came from another site, and the studio takes it only from its own pages: open the studio and do it there.";
export const FROM_NO_PAGE =
  "This request did not say which page sent it (it has no Origin header), and the studio takes changes only from its own pages: send it from the studio, with an Origin naming the studio's address.";

export function carriesSession(headers: Headers): boolean {
  return SESSION_COOKIE.test(headers.get("cookie") ?? "");
}

/**
 * The seam for API keys: a request that authenticates with an Authorization header and carries no session cookie
 * is judged by its key alone, since another site cannot make a browser attach that header.
 */
function isKeyRequest(headers: Headers): boolean {
  return headers.has("authorization") && !carriesSession(headers);
}

/**
 * A webhook's request (R-trigger-webhook-origin): the secret token in its path is its credential, which another site
 * cannot make a browser supply, so one sent without the studio's session cookie is judged by its token alone.
 */
function isHookRequest(request: Request): boolean {
  return new URL(request.url).pathname.startsWith("/api/hooks/") && !carriesSession(request.headers);
}

/** Whether `origin` is the studio's: QUIVER_BASE_URL's origin when set, else the host the request was sent to. */
function isStudioOrigin(origin: string, request: Request, baseUrl: string | undefined): boolean {
  let sent: URL;
  try {
    sent = new URL(origin);
  } catch {
    // "null" (a sandboxed frame, a file: page) and anything unparsable is nobody's page of ours.
    return false;
  }
  if (baseUrl) return sent.origin === new URL(baseUrl).origin;
  const host = request.headers.get("host") ?? new URL(request.url).host;
  return sent.host.toLowerCase() === host.toLowerCase();
}

/** The sentence refusing `request` as sent by another site's page, or null when the studio may take it. */
export function crossSiteRefusal(request: Request, baseUrl: string | undefined): string | null {
  const headers = request.headers;
  if (isKeyRequest(headers) || isHookRequest(request)) return null;
  const origin = headers.get("origin");
  if (origin !== null) return isStudioOrigin(origin, request, baseUrl) ? null : FROM_ANOTHER_SITE;
  // "none" is a person's own navigation (typed, bookmarked); same-site still means another origin's page.
  const site = headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin" || site === "none" ? null : FROM_ANOTHER_SITE;
  return SAFE_METHODS.has(request.method) ? null : FROM_NO_PAGE;
}
