// Try it with large arguments, the way the editor sends them: the browser's own links (components/trpc/links.ts)
// against the tRPC route behind a real Node HTTP server, whose header limit is what refused arguments in the URL.
// A call is one POST whose answer streams (R-req-acting-post): a megabyte of arguments works, more is a sentence.
import type http from "node:http";
import type { AddressInfo } from "node:net";
import { createTRPCClient, TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { studioLinks } from "@/components/trpc/links";
import type { AppRouter } from "@/server/trpc/router";
import { addUser, freshStudio, routes, serveOverHttp, sessionCookie } from "./studio";

const SIZE_TOOL = `"""Says how much text it was sent."""


def measure(text: str) -> int:
    """Count the characters.

    Args:
        text: Any text.
    """
    return len(text)
`;

const studio = freshStudio("try-it-size", { "size.py": SIZE_TOOL });
let server: http.Server;
let base: string;
let client: ReturnType<typeof createTRPCClient<AppRouter>>;

beforeAll(async () => {
  const { hostFor } = await import("@/server/host");
  hostFor(studio.tree, { sandbox: false, dataDir: studio.dataDir });
  await addUser("dev@quiver.test", "developer");
  const cookie = await sessionCookie("dev@quiver.test");
  const { trpc } = await routes();
  server = await serveOverHttp(trpc.POST);
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = createTRPCClient<AppRouter>({ links: studioLinks(`${base}/api/trpc`, () => ({ cookie, origin: base })) });
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await studio.close();
});

async function tryMeasure(text: string): Promise<string> {
  const events = await client.tools.try.run.mutate({ name: "size__measure", args: { text }, settings: {} });
  for await (const event of events) {
    if (event.type === "result") return event.result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  }
  throw new Error("the call ended without a result");
}

async function refusal(call: Promise<unknown>): Promise<string> {
  const error = await call.then(
    () => null,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(TRPCClientError);
  return (error as TRPCClientError<AppRouter>).message;
}

describe("Try it's arguments", () => {
  it("streams the result of a call sent with a megabyte of arguments", async () => {
    expect(await tryMeasure("x".repeat(1_000_000))).toBe("1000000");
  });

  it("refuses arguments over its limit with a sentence naming the limit", async () => {
    const message = await refusal(tryMeasure("x".repeat(1_200_000)));
    expect(message).toContain("The arguments are 1.1 MB of JSON, over Try it's limit of 1 MB: send less.");
  });

  it("answers a body over the studio's limit with a sentence the client reads, not a reset connection", async () => {
    const message = await refusal(tryMeasure("x".repeat(9 * 1024 * 1024)));
    expect(message).toBe("This request's body is 9 MB, over the studio's limit of 8 MB: send less.");
  });
});
