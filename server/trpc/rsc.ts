// tRPC for React Server Components: prefetch on the server, hydrate into the client's cache.
import "server-only";
import { headers } from "next/headers";
import { cache } from "react";
import { createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { makeQueryClient } from "./query-client";
import { createContext } from "./init";
import { appRouter } from "./router";

/** One QueryClient per request, shared by every server component that renders in it. */
export const getQueryClient = cache(makeQueryClient);

export const trpc = createTRPCOptionsProxy({
  ctx: async () => createContext({ headers: await headers() }),
  router: appRouter,
  queryClient: getQueryClient,
});
