// The runs API's word on a call that may have run (R-journal-manual): the call was running when its studio process
// stopped, or timed out, and its replay policy is `manual`, so the run waits for a person to say what happened. Its
// schemas, its route's spec and its handler, as runs-specs.ts and runs.ts hold the other routes'.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { runs } from "@/db/schema";
import { text } from "@/server/input/text";
import { mayUseAgent, recordKeyUse } from "@/server/keys/request";
import { studioRuntime } from "@/server/runtime";
import { noSuchRun } from "@/server/runtime/store";
import { keyRoute, type RouteSpec } from "./edge";
import { runParams } from "./runs-schemas";

/** The API's words for the card's three buttons: Run again, Mark as done, Fail it. */
export const apiRecoveries = ["run_again", "mark_done", "fail"] as const;
const ACTION = { run_again: "again", mark_done: "done", fail: "fail" } as const;

export const recoveryBody = z
  .object({
    callId: text().min(1).max(200).meta({ description: "The call's id, from the run's calls or its events.", example: "call_1" }),
    action: z.enum(apiRecoveries).meta({
      description: "run_again runs the call once more; mark_done answers the model `result` as the call's result without running it; fail answers the model that it failed, with `result` as why.",
    }),
    result: text()
      .max(100_000)
      .optional()
      .meta({ description: "With mark_done: what the call answered, as the model will read it. With fail: why (optional).", example: "The row was written." }),
  })
  .strict()
  .refine((body) => body.action !== "mark_done" || (body.result ?? "").trim() !== "", { message: "Write what the call answered, to mark it as done.", path: ["result"] })
  .meta({ id: "RecoveryRequest" });

export const recoveryAccepted = z.object({ runId: z.string(), callId: z.string(), action: z.enum(apiRecoveries) }).meta({ id: "RecoveryAccepted" });

export const recoverSpec = {
  method: "post",
  path: "/api/v1/runs/{id}/recoveries",
  scope: "decide",
  operationId: "recoverCall",
  tag: "Runs",
  summary: "Say what happened to a call that may have run",
  description:
    "A call whose replay policy is manual, and which was running when the studio stopped or timed out, is never run again by itself: the run waits (its events have recovery_requested) until someone runs it again, marks it as done with its result, or fails it.",
  params: runParams,
  body: recoveryBody,
  ok: { status: 200, description: "Taken; the run goes on.", schema: recoveryAccepted },
  errors: [
    { status: 404, description: "No such run, or a run of an agent this key may not use." },
    { status: 409, description: "The run is not waiting on this call (it was settled already, or has ended)." },
  ],
  example: { path: "/api/v1/runs/0f8fad5b-d9cb-469f-a165-70867728950e/recoveries", body: { callId: "call_1", action: "mark_done", result: "The row was written." } },
} as const satisfies RouteSpec;

export const recoverCall = keyRoute(recoverSpec, async ({ key, db, params, body }) => {
  const [row] = await db.select({ agentId: runs.agentId }).from(runs).where(eq(runs.id, params.id));
  if (!row || !mayUseAgent(key, row.agentId)) throw noSuchRun(params.id);
  await (await studioRuntime()).recover(params.id, body.callId, ACTION[body.action], key.who, body.result);
  await recordKeyUse(db, key, { action: `run.recover.${body.action}`, agentId: row.agentId, runId: params.id });
  return { runId: params.id, callId: body.callId, action: body.action };
});
