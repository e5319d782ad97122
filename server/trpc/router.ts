// The studio's API: one sub-router per domain, each loaded on the first call of one of its procedures
// (R-boot-routers-lazy), so a page loads the code of the domains it asks about and no other.
import { lazy } from "@trpc/server";
import { router } from "./init";

export const appRouter = router({
  account: lazy(() => import("./routers/account").then((m) => m.accountRouter)),
  agents: lazy(() => import("./routers/agents").then((m) => m.agentsRouter)),
  apiKeys: lazy(() => import("./routers/api-keys").then((m) => m.apiKeysRouter)),
  audit: lazy(() => import("./routers/audit").then((m) => m.auditRouter)),
  mcpServers: lazy(() => import("./routers/mcp-servers").then((m) => m.mcpServersRouter)),
  models: lazy(() => import("./routers/models").then((m) => m.modelsRouter)),
  runs: lazy(() => import("./routers/runs").then((m) => m.runsRouter)),
  secrets: lazy(() => import("./routers/secrets").then((m) => m.secretsRouter)),
  start: lazy(() => import("./routers/start").then((m) => m.startRouter)),
  tools: lazy(() => import("./routers/tools").then((m) => m.toolsRouter)),
  triggers: lazy(() => import("./routers/triggers").then((m) => m.triggersRouter)),
  useFromCode: lazy(() => import("./routers/use-from-code").then((m) => m.useFromCodeRouter)),
  users: lazy(() => import("./routers/users").then((m) => m.usersRouter)),
});

export type AppRouter = typeof appRouter;
