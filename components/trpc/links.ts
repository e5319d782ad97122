// The browser's tRPC links, apart from the provider so a test can speak to the studio exactly as a page does.
// Edit when a procedure starts streaming its answer (STREAMED) or the transport changes.
import { httpBatchLink, httpBatchStreamLink, httpLink, httpSubscriptionLink, splitLink, type HTTPHeaders, type TRPCLink } from "@trpc/client";
import type { AppRouter } from "@/server/trpc/router";

/**
 * Mutations whose answer is a stream (an async generator): sent as one POST, their events read as they come. What
 * acts is never a subscription, which travels as a GET that a link on another site could send (R-req-acting-post).
 */
const STREAMED = new Set(["tools.try.run", "mcpServers.try"]);

/**
 * Sent alone, at once: the live preview's request leaves as soon as the pause ends instead of after the batch's
 * timer, and its abort cancels its own fetch, where a batch is cancelled only once every request in it is
 * (R-preview-pause).
 */
const UNBATCHED = new Set(["tools.preview"]);

// Queries too travel as POSTs, their input in the body: some inputs (the whole declaration agents.validate checks)
// are far too large for a URL, which the server refuses with 431 past its header limit. The route allows it
// (allowMethodOverride); a POST must name the studio as its Origin, which a browser does for its pages (R-req-origin).

export function studioLinks(url = "/api/trpc", headers?: () => HTTPHeaders): TRPCLink<AppRouter>[] {
  return [
    splitLink({
      // Following (a run's steps, the runs list) goes over server-sent events; it only reads.
      condition: (op) => op.type === "subscription",
      true: httpSubscriptionLink({ url }),
      false: splitLink({
        condition: (op) => STREAMED.has(op.path),
        true: httpBatchStreamLink({ url, headers }),
        false: splitLink({
          condition: (op) => UNBATCHED.has(op.path),
          true: httpLink({ url, headers }),
          false: httpBatchLink({ url, headers, methodOverride: "POST" }),
        }),
      }),
    }),
  ];
}
