// GET /api/v1/runs/{id}: the run as it stands (scope read). The handler is server/api/runs.ts's.
import { getRun } from "@/server/api/runs";

export const dynamic = "force-dynamic";
export const GET = getRun;
