// The decoder read against answers from the studio's own tRPC setup (its error formatter and domain-error
// middleware), sent over HTTP the way the browser receives them.
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DomainError } from "@/server/errors";
import { publicProcedure, router } from "@/server/trpc/init";
import { errorSentence, NO_ANSWER, problemsIn, refusalOf } from "./errors";

const testRouter = router({
  conflict: publicProcedure.mutation(() => {
    throw new DomainError("CONFLICT", "CONFLICT", "Someone saved this file since you opened it.", {
      current: { source: "x = 1\n", hash: "abc" },
    });
  }),
  invalid: publicProcedure.mutation(() => {
    throw new DomainError("BAD_REQUEST", "INVALID_AGENT", "The agent has 2 problems.", {
      problems: [{ path: "name", message: "Give the agent a name." }, "not a problem", { path: "model" }],
    });
  }),
  named: publicProcedure.input(z.object({ name: z.string().regex(/^[A-Z_]+$/, "Use capital letters and underscores.") })).mutation(() => "ok"),
  crash: publicProcedure.mutation(() => {
    throw new Error("The tree could not be read.\n    at readTree (server/tree/read.ts:10:5)\n    at next (init.ts:3:1)");
  }),
  forbidden: publicProcedure.mutation(() => {
    throw new DomainError("FORBIDDEN", "NOT_ADMIN", "Only an admin may do this; ask an admin for the role.");
  }),
});

const client = createTRPCClient<typeof testRouter>({
  links: [
    httpLink({
      url: "http://studio.test/api/trpc",
      fetch: (url, init) =>
        fetchRequestHandler({
          endpoint: "/api/trpc",
          req: new Request(url, init as RequestInit),
          router: testRouter,
          createContext: () => ({ headers: new Headers(), user: null }),
        }),
    }),
  ],
});

async function failure(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error("the call was expected to fail");
}

describe("the tRPC error decoder", () => {
  it("reads a domain refusal's code, reason and details", async () => {
    const error = await failure(() => client.conflict.mutate());
    expect(refusalOf(error)).toEqual({
      code: "CONFLICT",
      reason: "CONFLICT",
      details: { current: { source: "x = 1\n", hash: "abc" } },
      issues: [],
    });
    expect(errorSentence(error)).toBe("Someone saved this file since you opened it.");
  });

  it("says a validation refusal's first problem, not the JSON of all of them", async () => {
    const error = await failure(() => client.named.mutate({ name: "lower" }));
    expect(refusalOf(error).issues).toEqual([{ path: "name", message: "Use capital letters and underscores." }]);
    expect(errorSentence(error)).toBe("Use capital letters and underscores.");
  });

  it("lists only the problems that carry a sentence, and only for the reason asked", async () => {
    const error = await failure(() => client.invalid.mutate());
    expect(problemsIn(error, "problems", "INVALID_AGENT")).toEqual([{ path: "name", message: "Give the agent a name." }]);
    expect(problemsIn(error, "problems", "TREE_HAS_ERRORS")).toEqual([]);
    expect(problemsIn(error, "errors")).toEqual([]);
  });

  it("never shows a stack trace a message carries", async () => {
    // The server itself never sends a stack: an unexpected error arrives as one sentence with its id (R-error-id).
    const error = await failure(() => client.crash.mutate());
    expect(errorSentence(error)).toMatch(/^Something went wrong on the server; error id [0-9a-f]+; the server log has the details\.$/);
    expect(errorSentence(new Error("Bad.\nTraceback (most recent call last):\n  File \"x.py\""))).toBe("Bad.");
  });

  it("lets a page put its own sentence for a code", async () => {
    const error = await failure(() => client.forbidden.mutate());
    expect(errorSentence(error)).toBe("Only an admin may do this; ask an admin for the role.");
    expect(errorSentence(error, { FORBIDDEN: "Managing secrets needs the Admin role." })).toBe("Managing secrets needs the Admin role.");
  });

  it("says the studio did not answer when no tRPC answer came", () => {
    const dropped = TRPCClientError.from(new TypeError("Failed to fetch"));
    expect(refusalOf(dropped)).toEqual({ code: null, reason: null, details: null, issues: [] });
    expect(errorSentence(dropped)).toBe(NO_ANSWER);
  });

  it("says nothing when there is no error", () => {
    expect(errorSentence(null)).toBeNull();
    expect(errorSentence(undefined)).toBeNull();
  });
});
