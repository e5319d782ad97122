// The Triggers section's data as the browser receives it over tRPC (times as ISO strings).
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/router";

type Outputs = inferRouterOutputs<AppRouter>["triggers"];

export type ScheduleRow = Outputs["schedules"][number];
export type Tick = ScheduleRow["next"][number];
