// GET /api/v1/models: the agents a key may use, as OpenAI's model list, so a chat front end (Open WebUI,
// LibreChat) offers them by name (R-api-chat-model). A key that may run agents or read their runs may list them.
import { agentsOfKey } from "./chat-agents";
import { modelsSpec } from "./chat-specs";
import { keyRoute } from "./edge";

export const listModels = keyRoute(modelsSpec, async ({ key, db }) => {
  const agents = await agentsOfKey(db, key);
  return {
    object: "list",
    data: agents.map((a) => ({ id: a.id, object: "model", created: Math.floor(a.createdAt.getTime() / 1000), owned_by: "quiver", name: a.name })),
  };
});
