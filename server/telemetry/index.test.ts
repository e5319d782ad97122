// R-otel-free: with no OTLP endpoint the hooks call the loop's own functions straight through and never import the SDK.
import { afterAll, expect, it, vi } from "vitest";
import type { Masker } from "@/server/secrets/mask";

const seen = vi.hoisted(() => ({ sdk: false }));
vi.mock("./spans", () => {
  seen.sdk = true;
  return { openTracing: () => ({}) };
});

vi.stubEnv("OTEL_EXPORTER_OTLP_ENDPOINT", "");
vi.stubEnv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "");
afterAll(() => vi.unstubAllEnvs());

const mask = Object.assign((text: string) => text, { deep: <T>(value: T) => value, active: false }) as Masker;
const run = { id: "run-1", agent: { id: "a", name: "A", version: 1 }, model: null, tokens: { input: 0, output: 0 }, status: "running", abandoned: false, mask };

it("R-otel-free: untraced, every hook passes the loop's own answer through and the SDK stays unloaded", async () => {
  const { flushTraces, runEnded, runFailed, traceChat, traceTool, tracingOn } = await import("./index");
  expect(tracingOn()).toBe(false);
  const reply = { text: "hi", calls: [], usage: { input: 1, output: 2 } };
  await expect(traceChat(run, async () => reply)).resolves.toBe(reply);
  const result = { outcome: "ok", text: "done", attempts: 1 };
  await expect(traceTool(run, { callId: "c", name: "t", args: {} }, async () => result)).resolves.toBe(result);
  await expect(traceTool(run, { callId: "c", name: "t", args: {} }, () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
  runFailed(run, new Error("x"));
  runEnded(run);
  await flushTraces();
  expect(seen.sdk).toBe(false);
});
