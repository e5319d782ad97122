// POST /api/hooks/{agent}/{token}: a webhook starts a run of the agent. The handler is server/triggers/webhook-route.ts's.
import { hookRoute } from "@/server/triggers/webhook-route";

export const dynamic = "force-dynamic";
export const POST = hookRoute;
