// POST /api/v1/runs/{id}/messages: continue the run's conversation (scope run). The handler is server/api/runs.ts's.
import { continueRun } from "@/server/api/runs";

export const dynamic = "force-dynamic";
export const POST = continueRun;
