// The studio's Prometheus metrics, for a metrics key or an admin (R-metrics-access). No logic here: server/api/metrics.ts.
import { metricsRoute } from "@/server/api/metrics";

export const dynamic = "force-dynamic";

export const GET = metricsRoute;
