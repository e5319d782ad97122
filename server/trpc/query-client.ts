// The QueryClient settings shared by the server (prefetch) and the browser (cache).
import { defaultShouldDehydrateQuery, QueryClient } from "@tanstack/react-query";

export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // Data prefetched on the server is fresh for a moment; refetching at once would double the work.
      queries: { staleTime: 30_000 },
      // Hand pending queries to the client too, so a slow prefetch streams instead of blocking.
      dehydrate: {
        shouldDehydrateQuery: (query) =>
          defaultShouldDehydrateQuery(query) || query.state.status === "pending",
      },
    },
  });
}
