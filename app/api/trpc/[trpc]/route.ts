// The tRPC endpoint. No logic here: the routers in server/trpc hold it, and server/http/guard refuses what another
// site's page sent before any procedure sees it (R-req-origin).
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { guarded } from "@/server/http/guard";
import { createContext } from "@/server/trpc/init";
import { appRouter } from "@/server/trpc/router";

const handler = guarded("trpc", (req: Request) =>
  fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: () => createContext({ headers: req.headers }),
    // The pages send queries as POSTs (components/trpc/links.ts), since an input may be too large for a URL. This lets
    // a read come as a POST, never a mutation as a GET (R-req-acting-post); a POST passes the Origin check first.
    allowMethodOverride: true,
    // No onError: the error formatter (server/trpc/init.ts) logs an unexpected error once, masked, under its id.
  }),
);

export { handler as GET, handler as POST };
