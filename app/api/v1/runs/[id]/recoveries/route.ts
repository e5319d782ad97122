// POST /api/v1/runs/{id}/recoveries: say what happened to a call that may have run (scope decide). The handler is
// server/api/runs-recovery.ts's.
import { recoverCall } from "@/server/api/runs-recovery";

export const dynamic = "force-dynamic";
export const POST = recoverCall;
