// The agents an API key may use, as OpenAI's model list. No logic here: server/api/models.ts.
import { listModels } from "@/server/api/models";

export const GET = listModels;
