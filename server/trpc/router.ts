// The studio's API: one sub-router per domain.
import { router } from "./init";
import { accountRouter } from "./routers/account";
import { agentsRouter } from "./routers/agents";
import { apiKeysRouter } from "./routers/api-keys";
import { auditRouter } from "./routers/audit";
import { mcpServersRouter } from "./routers/mcp-servers";
import { modelsRouter } from "./routers/models";
import { runsRouter } from "./routers/runs";
import { secretsRouter } from "./routers/secrets";
import { startRouter } from "./routers/start";
import { toolsRouter } from "./routers/tools";
import { triggersRouter } from "./routers/triggers";
import { useFromCodeRouter } from "./routers/use-from-code";
import { usersRouter } from "./routers/users";

export const appRouter = router({
  account: accountRouter,
  agents: agentsRouter,
  apiKeys: apiKeysRouter,
  audit: auditRouter,
  mcpServers: mcpServersRouter,
  models: modelsRouter,
  runs: runsRouter,
  secrets: secretsRouter,
  start: startRouter,
  tools: toolsRouter,
  triggers: triggersRouter,
  useFromCode: useFromCodeRouter,
  users: usersRouter,
});

export type AppRouter = typeof appRouter;
