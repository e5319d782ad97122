// The studio's API: one sub-router per domain.
import { router } from "./init";
import { toolsRouter } from "./routers/tools";

export const appRouter = router({
  tools: toolsRouter,
});

export type AppRouter = typeof appRouter;
