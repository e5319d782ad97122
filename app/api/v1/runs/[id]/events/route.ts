// GET /api/v1/runs/{id}/events: the run's events as server-sent events, resumable (scope read). The handler is
// server/api/runs.ts's.
import { followRun } from "@/server/api/runs";

export const dynamic = "force-dynamic";
export const GET = followRun;
