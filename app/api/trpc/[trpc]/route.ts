// The tRPC endpoint. No logic here: the routers in server/trpc hold it, and server/http/guard refuses what another
// site's page sent before any procedure sees it (R-req-origin).
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { recentSessionUser } from "@/server/auth/recent-session";
import { guarded } from "@/server/http/guard";
import { serverTiming, startTiming, timed } from "@/server/http/server-timing";
import { createContext } from "@/server/trpc/init";
import { appRouter } from "@/server/trpc/router";

/** The live preview, sent alone on every pause in typing (components/trpc/links.ts): the one request timed here. */
const PREVIEW = "/api/trpc/tools.preview";

const handler = guarded("trpc", (req: Request) => {
  const preview = new URL(req.url).pathname === PREVIEW;
  if (preview) startTiming(req.headers);
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    // The preview reuses a check of the same session made a moment ago (R-preview-session-reuse).
    createContext: preview
      ? () => timed(req.headers, "session", async () => ({ headers: req.headers, user: await recentSessionUser(req.headers) }))
      : () => createContext({ headers: req.headers }),
    // The preview's answer is a few kB on its way to the page that asked: compressing it costs more than it saves,
    // and no cache may keep it. Its Server-Timing says where its time went (R-preview-server-timing).
    responseMeta: () => {
      if (!preview) return {};
      const timing = serverTiming(req.headers);
      return { headers: { "cache-control": "no-store, no-transform", ...(timing ? { "server-timing": timing } : {}) } };
    },
    // The pages send queries as POSTs (components/trpc/links.ts), since an input may be too large for a URL. This lets
    // a read come as a POST, never a mutation as a GET (R-req-acting-post); a POST passes the Origin check first.
    allowMethodOverride: true,
    // No onError: the error formatter (server/trpc/init.ts) logs an unexpected error once, masked, under its id.
  });
});

export { handler as GET, handler as POST };
