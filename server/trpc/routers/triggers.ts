// The agent page's Triggers: its webhook (made, rotated, its template, removed; the address with its token comes back
// from create and rotate only, once: R-trigger-webhook-token) and its schedules with their next times
// (R-trigger-schedule-cron). Whoever may edit an agent manages its triggers: any signed-in builder (R-trigger-roles).
import { z } from "zod";
import { catchUps } from "@/db/schema";
import { getDb } from "@/server/db";
import { pokeScheduler } from "@/server/triggers";
import { MESSAGE_MAX } from "@/server/triggers/body";
import { createSchedule, listSchedules, preview, removeSchedule, updateSchedule } from "@/server/triggers/schedules";
import { TEMPLATE_MAX } from "@/server/triggers/template";
import { createWebhook, getWebhook, removeWebhook, rotateWebhook, setWebhookTemplate } from "@/server/triggers/webhooks";
import { builderProcedure, router } from "../init";
import { text } from "../text";

const agent = z.object({ agentId: text().uuid() });
// Shape only: the store's checks give the sentences at each field, so the form shows the same words either way.
const template = text().max(TEMPLATE_MAX * 2).nullable();
const times = { cron: text().max(200), timeZone: text().max(100) };
const schedule = z.object({ ...times, message: text().max(MESSAGE_MAX * 2), enabled: z.boolean(), catchUp: z.enum(catchUps) });

/** A schedule's change is the clock's business at once. */
async function poked<T>(work: Promise<T>): Promise<T> {
  const done = await work;
  pokeScheduler();
  return done;
}

export const triggersRouter = router({
  webhook: builderProcedure.input(agent).query(async ({ input }) => getWebhook(await getDb(), input.agentId)),

  createWebhook: builderProcedure
    .input(agent.extend({ template: template.optional() }))
    .mutation(async ({ input, ctx }) => createWebhook(await getDb(), ctx.user.id, input.agentId, input.template)),

  rotateWebhook: builderProcedure.input(agent).mutation(async ({ input, ctx }) => rotateWebhook(await getDb(), ctx.user.id, input.agentId)),

  setWebhookTemplate: builderProcedure
    .input(agent.extend({ template }))
    .mutation(async ({ input, ctx }) => setWebhookTemplate(await getDb(), ctx.user.id, input.agentId, input.template)),

  removeWebhook: builderProcedure.input(agent).mutation(async ({ input, ctx }) => removeWebhook(await getDb(), ctx.user.id, input.agentId)),

  schedules: builderProcedure.input(agent).query(async ({ input }) => listSchedules(await getDb(), input.agentId)),

  /** The next five times as the builder types, or a sentence at the cron or time zone field. */
  preview: builderProcedure.input(z.object(times)).query(({ input }) => preview(input.cron, input.timeZone, new Date())),

  createSchedule: builderProcedure
    .input(schedule.extend(agent.shape))
    .mutation(async ({ input, ctx }) => poked(createSchedule(await getDb(), ctx.user.id, input.agentId, input))),

  updateSchedule: builderProcedure
    .input(schedule.partial().extend({ id: text().uuid() }))
    .mutation(async ({ input: { id, ...patch }, ctx }) => poked(updateSchedule(await getDb(), ctx.user.id, id, patch))),

  removeSchedule: builderProcedure.input(z.object({ id: text().uuid() })).mutation(async ({ input, ctx }) => poked(removeSchedule(await getDb(), ctx.user.id, input.id))),
});
