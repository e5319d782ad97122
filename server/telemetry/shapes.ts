// What run traces read of the runtime's runs, calls and replies, as plain shapes: this layer sits beneath the runtime,
// which passes its own objects, and both sides of the lazy import (index.ts, spans.ts) say them.
import type { Masker } from "@/server/secrets/mask";

/** What a trace reads of a run: who it is, its model once resolved, its tokens so far, how it ended. */
export type TracedRun = {
  id: string;
  agent: { id: string; name: string; version: number };
  model: { provider: string; model: string } | null;
  tokens: { input: number; output: number };
  status: string;
  cancelled?: unknown;
  abandoned: boolean;
  mask: Masker;
};

/** A call of a tool as the model made it; `parent` is the call that made it while running (ctx.system). */
export type TracedCall = { callId: string; name: string; args: Record<string, unknown> | null; parent?: string };

/** A call's answer as the loop keeps it. */
export type TracedResult = { outcome: string; text: string; attempts: number };

/** A model's reply as the loop keeps it. */
export type TracedReply = {
  text: string;
  calls: { callId: string; name: string; input: string }[];
  usage: { input: number; output: number };
};
