"use client";
// Adding or changing a schedule (R-trigger-schedule-cron): cron expression, time zone, message, what a missed tick
// does, on or off; the next five times follow the typing, or a sentence at the cron or time zone field says why not.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ErrorText } from "@/components/trpc/error-text";
import { problemsIn } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import type { CatchUp } from "@/db/schema";
import { FieldProblems } from "./field-problems";
import { inputClass, selectClass } from "./styles";
import { TriggersNextTimes } from "./triggers-next-times";
import type { ScheduleRow } from "./triggers-types";
import { useDebounced } from "./use-debounced";

type Problem = { path: string; message: string };

export const CATCH_UP_LABELS: Record<CatchUp, string> = {
  skip: "Skip ticks missed while the studio was down",
  run_once: "Run once for ticks missed while the studio was down",
};

const zones = (): string[] => (typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : ["UTC"]);
const ownZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

export function TriggersScheduleForm({ agentId, schedule, onDone }: { agentId: string; schedule?: ScheduleRow; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const key = schedule ? `schedule-${schedule.id}` : "schedule-new";
  const [form, setForm] = useState({
    cron: schedule?.cron ?? "0 9 * * 1-5",
    timeZone: schedule?.timeZone ?? ownZone(),
    message: schedule?.message ?? "",
    catchUp: schedule?.catchUp ?? ("skip" as CatchUp),
    enabled: schedule?.enabled ?? true,
  });
  const change = (patch: Partial<typeof form>) => setForm((old) => ({ ...old, ...patch }));
  const typed = useDebounced({ cron: form.cron, timeZone: form.timeZone }, 250);
  const preview = useQuery(trpc.triggers.preview.queryOptions(typed, { placeholderData: keepPreviousData }));
  const done = { onSuccess: async () => (await queryClient.invalidateQueries({ queryKey: trpc.triggers.schedules.queryKey({ agentId }) }), onDone()) };
  const create = useMutation(trpc.triggers.createSchedule.mutationOptions(done));
  const update = useMutation(trpc.triggers.updateSchedule.mutationOptions(done));
  const saving = schedule ? update : create;

  const refused = problemsIn<Problem>(saving.error, "problems", "INVALID_TRIGGER");
  const typedProblems = preview.data?.problems ?? [];
  const at = (path: string) => {
    const found = refused.filter((p) => p.path === path);
    return (found.length > 0 ? found : typedProblems.filter((p) => p.path === path)).map((p) => p.message);
  };
  const unplaced = saving.error && refused.length === 0 ? saving.error : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (schedule) update.mutate({ id: schedule.id, ...form });
    else create.mutate({ agentId, ...form });
  }

  return (
    <form onSubmit={submit} aria-label={schedule ? "Change the schedule" : "New schedule"} className="flex flex-col gap-3 rounded-md border border-zinc-200 p-3 text-sm dark:border-zinc-800">
      <div className="grid grid-cols-2 gap-3">
        <Field
          id={`${key}-cron`}
          label="Cron expression"
          spellCheck={false}
          value={form.cron}
          onChange={(e) => change({ cron: e.target.value })}
          error={at("cron")[0] ?? null}
          hint="minute hour day month weekday: 0 9 * * 1-5 is 9:00 on weekdays, */30 * * * * every half hour, @daily midnight."
        />
        <Field
          id={`${key}-zone`}
          label="Time zone"
          spellCheck={false}
          list={`${key}-zones`}
          value={form.timeZone}
          onChange={(e) => change({ timeZone: e.target.value })}
          error={at("timeZone")[0] ?? null}
          hint="The zone the times are read in, summer time included."
        />
        <datalist id={`${key}-zones`}>
          {zones().map((zone) => (
            <option key={zone} value={zone} />
          ))}
        </datalist>
      </div>
      <div className="flex flex-col gap-1">
        <span className="font-medium">Next five times</span>
        {preview.data && preview.data.times.length > 0 ? (
          <TriggersNextTimes times={preview.data.times} label="Next five times" />
        ) : (
          <span className="text-xs text-zinc-500 dark:text-zinc-400">{preview.isPending ? "Working them out…" : "None until the expression and time zone are right."}</span>
        )}
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${key}-message`} className="font-medium">
          Message
        </label>
        <textarea
          id={`${key}-message`}
          rows={3}
          value={form.message}
          onChange={(e) => change({ message: e.target.value })}
          placeholder="Summarise yesterday's failed runs."
          aria-invalid={at("message").length > 0}
          aria-describedby={`${key}-message-note`}
          className={inputClass}
        />
        <FieldProblems id={`${key}-message-note`} messages={at("message")} hint="What each run starts with, as you would type it in the playground." />
      </div>
      <div className="flex flex-wrap items-center gap-4">
        <label className="flex flex-col gap-1">
          <span className="font-medium">If the studio was down at a tick</span>
          <select value={form.catchUp} onChange={(e) => change({ catchUp: e.target.value as CatchUp })} className={selectClass}>
            {Object.entries(CATCH_UP_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-2 pt-5">
          <input type="checkbox" checked={form.enabled} onChange={(e) => change({ enabled: e.target.checked })} /> On
        </label>
      </div>
      <ErrorText error={unplaced} />
      <div className="flex gap-2">
        <Button type="submit" variant="primary" disabled={saving.isPending}>
          {saving.isPending ? "Saving…" : "Save schedule"}
        </Button>
        <Button type="button" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
