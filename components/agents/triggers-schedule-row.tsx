"use client";
// One schedule: when it runs (its cron, its zone, its next five times), what it says, what a missed tick does,
// on or off at one click, whom its runs start as; Change opens the form in its place, Remove asks first.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorText } from "@/components/trpc/error-text";
import { errorSentence } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Time } from "@/components/ui/time";
import { CATCH_UP_LABELS, TriggersScheduleForm } from "./triggers-schedule-form";
import { TriggersNextTimes } from "./triggers-next-times";
import type { ScheduleRow } from "./triggers-types";

export function TriggersScheduleRow({ schedule }: { schedule: ScheduleRow }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.triggers.schedules.queryKey({ agentId: schedule.agentId }) });
  const toggle = useMutation(trpc.triggers.updateSchedule.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.triggers.removeSchedule.mutationOptions({ onSuccess: async () => (setRemoving(false), await refresh()) }));
  const name = `${schedule.cron} (${schedule.timeZone})`;

  if (editing) return <TriggersScheduleForm agentId={schedule.agentId} schedule={schedule} onDone={() => setEditing(false)} />;
  return (
    <li aria-label={`Schedule ${name}`} className="flex flex-col gap-1.5 rounded-md border border-zinc-200 p-3 text-sm dark:border-zinc-800">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p>
            <code className="font-mono">{schedule.cron}</code> <span className="text-zinc-500 dark:text-zinc-400">in {schedule.timeZone}</span>
          </p>
          <p className="line-clamp-2 text-zinc-700 dark:text-zinc-300">{schedule.message}</p>
        </div>
        <div className="flex shrink-0 items-center gap-2">
          <label className="flex items-center gap-1.5 text-xs">
            <input
              type="checkbox"
              checked={schedule.enabled}
              disabled={toggle.isPending}
              onChange={(e) => toggle.mutate({ id: schedule.id, enabled: e.target.checked })}
              aria-label={`On: ${name}`}
            />
            On
          </label>
          <Button size="sm" onClick={() => setEditing(true)} aria-label={`Change the schedule ${name}`}>
            Change
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setRemoving(true)} aria-label={`Remove the schedule ${name}`}>
            Remove
          </Button>
        </div>
      </div>
      {schedule.enabled ? (
        <TriggersNextTimes times={schedule.next} label={`Next five times of ${name}`} />
      ) : (
        <p className="text-xs text-zinc-500 dark:text-zinc-400">Off: it starts nothing until it is turned on, and then counts from that moment.</p>
      )}
      <p className="text-xs text-zinc-500 dark:text-zinc-400">
        {CATCH_UP_LABELS[schedule.catchUp]}. Runs start as {schedule.runAs.name ?? "an account since removed"}
        {schedule.lastTickAt ? (
          <>
            ; last tick <Time at={schedule.lastTickAt} />
          </>
        ) : null}
        .
      </p>
      {!schedule.runAs.active ? (
        <p role="status" className="text-xs text-amber-700 dark:text-amber-400">
          {schedule.runAs.name ?? "That account"} can no longer sign in, so its ticks are skipped: Change and save it to make its runs yours.
        </p>
      ) : null}
      <ErrorText error={toggle.error} className="text-xs text-red-600" />
      <ConfirmDialog
        open={removing}
        onCancel={() => (setRemoving(false), remove.reset())}
        title="Remove this schedule?"
        description={`${name} starts no more runs. The runs it started stay in Runs.`}
        error={errorSentence(remove.error)}
        pending={remove.isPending}
        confirmLabel="Remove schedule"
        busyLabel="Removing…"
        onConfirm={() => remove.mutate({ id: schedule.id })}
      />
    </li>
  );
}
