// Run traces without QUIVER_OTEL_CONTENT (R-otel-content): the spans are all there, named and linked as ever, and
// carry no tool arguments, no results and no model output; no secret value is anywhere in what was sent.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Studio } from "@/tests/integration/runtime/setup";
import { call, text } from "@/tests/support/loopback-model";
import { startReceiver, TOKEN, tracedStudio, type Receiver } from "./receiver";

let receiver: Receiver;
let s: Studio;
let agent: string;
let flush: () => Promise<void>;

beforeAll(async () => {
  receiver = await startReceiver();
  ({ s, agent, flush } = await tracedStudio("traces-plain", { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }));
}, 120_000);

afterAll(async () => {
  await s?.close();
  await receiver?.close();
});

it("R-otel-content: without QUIVER_OTEL_CONTENT=1 no arguments, results or output are sent, and no secret either", async () => {
  s.model.reply(call("box__echo", { words: "private words" }, "call-echo"), call("service__whoami", {}, "call-who"), text("all private"));
  const runId = await s.run(agent);
  await flush();
  const spans = receiver.spans();
  const root = spans.find((sp) => sp.attributes["gen_ai.conversation.id"] === runId)!;
  expect(root.resource["service.name"]).toBe("quiver");
  const mine = spans.filter((sp) => sp.traceId === root.traceId);
  expect(mine.map((sp) => sp.attributes["gen_ai.operation.name"]).sort()).toEqual(["chat", "chat", "chat", "execute_tool", "execute_tool", "invoke_agent"]);
  for (const sp of mine) {
    expect(Object.keys(sp.attributes).filter((k) => /arguments|result|messages/.test(k))).toEqual([]);
  }
  const everything = receiver.bodies.join("\n");
  expect(everything).not.toContain("private words");
  expect(everything).not.toContain("all private");
  expect(everything).not.toContain(TOKEN);
  expect(everything).not.toContain(Buffer.from(TOKEN).toString("base64"));
});
