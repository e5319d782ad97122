// What the chaos test prints about a run whose effect was applied more than once, so a failure says what happened
// and when: the run's events, its journal rows, and the kills of the processes that drove it. Edit with the test.
import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { runEvents, runSteps } from "@/db/schema";

export type Kill = { at: number; pid: number; live: string[] };

export async function describeRun(db: Db, runId: string, since: number, kills: Kill[], drivenBy: Set<number> | undefined): Promise<string> {
  const ms = (at: Date | number) => `${((typeof at === "number" ? at : at.getTime()) - since) / 1000}s`;
  const events = await db.select().from(runEvents).where(eq(runEvents.runId, runId)).orderBy(asc(runEvents.id));
  const steps = await db.select().from(runSteps).where(eq(runSteps.runId, runId)).orderBy(asc(runSteps.step), asc(runSteps.callIndex));
  const brief = (data: Record<string, unknown>) => JSON.stringify({ callId: data.callId, outcome: data.outcome, why: data.why, action: data.action, status: data.status, text: data.text }).slice(0, 160);
  return [
    `run ${runId}, driven by ${[...(drivenBy ?? [])].join(", ")}`,
    ...kills.filter((k) => drivenBy?.has(k.pid)).map((k) => `  kill of ${k.pid} at ${ms(k.at)}${k.live.includes(runId) ? " (holding it)" : ""}`),
    ...events.map((e) => `  event ${e.id} ${ms(e.at)} ${e.type} ${brief(e.data)}`),
    ...steps.map((s) => `  step ${s.step}.${s.callIndex} ${s.operation ?? "model"} attempts ${s.attempts} started ${ms(s.startedAt)} ended ${s.endedAt ? ms(s.endedAt) : "-"}`),
  ].join("\n");
}
