// Runs of agents (the playground and /runs): thin procedures over server/runtime. Any signed-in person runs agents;
// the events subscription yields tracked(id, event), so a browser that reconnects resumes after the last id it saw.
import { tracked } from "@trpc/server";
import { z } from "zod";
import { runStatuses, runVias } from "@/db/schema";
import { getDb } from "@/server/db";
import { studioRuntime } from "@/server/runtime";
import { agentTotals } from "@/server/runtime/queries";
import { runPeriods } from "@/server/runtime/store";
import { builderProcedure, router } from "../init";
import { text } from "../text";

const runId = text().uuid();
const callId = text().min(1).max(200);
const filter = z
  .object({ agentId: text().uuid().optional(), status: z.enum(runStatuses).optional(), via: z.enum(runVias).optional(), period: z.enum(runPeriods).optional() })
  .optional();
const message = text().trim().min(1, "Write a message for the agent.").max(100_000);

export const runsRouter = router({
  start: builderProcedure
    .input(z.object({ agentId: text().uuid(), message }))
    .mutation(async ({ input, ctx }) =>
      (await studioRuntime()).start({
        agentId: input.agentId,
        message: input.message,
        user: ctx.user,
        via: { kind: "playground" },
        // A developer tries what they are editing; a builder runs what was published (R-version-pinned).
        tree: ctx.user.role === "builder" ? "published" : "working",
      }),
    ),

  send: builderProcedure
    .input(z.object({ runId, message }))
    .mutation(async ({ input, ctx }) => (await studioRuntime()).send({ runId: input.runId, message: input.message, user: ctx.user })),

  cancel: builderProcedure.input(z.object({ runId })).mutation(async ({ input, ctx }) => (await studioRuntime()).cancel(input.runId, ctx.user)),

  decide: builderProcedure
    .input(z.object({ runId, callId, decision: z.enum(["once", "always", "deny"]), note: text().trim().max(10_000).optional() }))
    .mutation(async ({ input, ctx }) => (await studioRuntime()).decide(input.runId, input.callId, input.decision, ctx.user, input.note)),

  answer: builderProcedure
    .input(z.object({ runId, callId, answer: text().max(10_000).nullable() }))
    .mutation(async ({ input, ctx }) => (await studioRuntime()).answer(input.runId, input.callId, input.answer, ctx.user)),

  /** A call that may have run (R-journal-manual): run it again, mark it done with its result, or fail it. */
  recover: builderProcedure
    .input(
      z
        .object({ runId, callId, action: z.enum(["again", "done", "fail"]), text: text().max(100_000).optional() })
        .refine((i) => i.action !== "done" || (i.text ?? "").trim() !== "", { message: "Write what the call answered, to mark it as done.", path: ["text"] }),
    )
    .mutation(async ({ input, ctx }) => (await studioRuntime()).recover(input.runId, input.callId, input.action, ctx.user, input.text)),

  events: builderProcedure
    .input(z.object({ runId, lastEventId: text().max(40).nullish() }))
    .subscription(async function* ({ input, signal }) {
      const events = await (await studioRuntime()).subscribe(input.runId, input.lastEventId, signal);
      for await (const event of events) yield tracked(event.id, event);
    }),

  /** Any run started or changing status: a list of runs re-reads itself on each, instead of polling. */
  changes: builderProcedure.subscription(async function* ({ signal }) {
    const runtime = await studioRuntime();
    yield* runtime.log.statusChanges(signal ?? new AbortController().signal);
  }),

  list: builderProcedure.input(filter).query(async ({ input }) => (await studioRuntime()).list(input ?? {})),

  /** Runs, tokens and cost per agent over every run the list's filter keeps (R-cost-totals). */
  totals: builderProcedure.input(filter).query(async ({ input }) => agentTotals(await getDb(), input ?? {})),

  get: builderProcedure.input(z.object({ runId })).query(async ({ input }) => (await studioRuntime()).get(input.runId)),
});
