"use client";
// The agent's schedules: each with its next five times, and Add a schedule, whose form shows them as you type.
import { useQuery } from "@tanstack/react-query";
import { CalendarClock } from "lucide-react";
import { useState } from "react";
import { ErrorText } from "@/components/trpc/error-text";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { TriggersScheduleForm } from "./triggers-schedule-form";
import { TriggersScheduleRow } from "./triggers-schedule-row";

export function TriggersSchedules({ agentId }: { agentId: string }) {
  const trpc = useTRPC();
  const schedules = useQuery(trpc.triggers.schedules.queryOptions({ agentId }));
  const [adding, setAdding] = useState(false);
  const list = schedules.data ?? [];
  return (
    <div aria-labelledby="schedules-heading">
      <div className="mb-2 flex items-center justify-between">
        <h3 id="schedules-heading" className="flex items-center gap-1.5 text-sm font-medium">
          <CalendarClock aria-hidden className="h-4 w-4 text-zinc-500 dark:text-zinc-400" /> Schedules
        </h3>
        {!adding ? (
          <Button size="sm" onClick={() => setAdding(true)}>
            Add a schedule
          </Button>
        ) : null}
      </div>
      <ErrorText error={schedules.error} />
      {schedules.isSuccess && list.length === 0 && !adding ? (
        <p className="rounded-md border border-dashed border-zinc-300 p-4 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
          No schedules yet — Add a schedule runs this agent at the times you choose, like every weekday at 9:00, each run starting with your message.
        </p>
      ) : null}
      {list.length > 0 ? (
        <ul aria-label="Schedules" className="mb-3 flex flex-col gap-2">
          {list.map((schedule) => (
            <TriggersScheduleRow key={schedule.id} schedule={schedule} />
          ))}
        </ul>
      ) : null}
      {adding ? <TriggersScheduleForm agentId={agentId} onDone={() => setAdding(false)} /> : null}
    </div>
  );
}
