// POST /api/v1/agents/{id}/runs: start a run of the agent (scope run). The handler is server/api/runs.ts's.
import { startRun } from "@/server/api/runs";

export const dynamic = "force-dynamic";
export const POST = startRun;
