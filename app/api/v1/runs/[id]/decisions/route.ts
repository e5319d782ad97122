// POST /api/v1/runs/{id}/decisions: approve or deny a call the run waits on (scope decide). The handler is
// server/api/runs.ts's.
import { decideCall } from "@/server/api/runs";

export const dynamic = "force-dynamic";
export const POST = decideCall;
