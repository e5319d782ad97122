// POST /api/v1/runs/{id}/cancel: stop the run where it stands (scope run). The handler is server/api/runs.ts's.
import { cancelRun } from "@/server/api/runs";

export const dynamic = "force-dynamic";
export const POST = cancelRun;
