// The model a new agent starts with (R-template-model): the studio's first model connection, by when it was made,
// with its default model; a studio without one gets a local OpenAI-compatible server (as Ollama serves it), which is
// valid without a key, so the agent exists at once and the builder changes what they need.
import { asc } from "drizzle-orm";
import type { Db } from "@/db/client";
import { modelConnections } from "@/db/schema";

export const LOCAL_MODEL = { provider: "openai-compatible", model: "qwen3", base_url: "http://127.0.0.1:11434/v1" } as const;

export type StartingModel = { connection: string; model?: string } | typeof LOCAL_MODEL;

export async function startingModel(db: Db): Promise<StartingModel> {
  const [first] = await db
    .select({ name: modelConnections.name, defaultModel: modelConnections.defaultModel, models: modelConnections.models })
    .from(modelConnections)
    .orderBy(asc(modelConnections.createdAt), asc(modelConnections.name))
    .limit(1);
  if (!first) return LOCAL_MODEL;
  // Without a default, the first model it offers; with neither, the connection alone, and the agent page asks for one.
  const model = first.defaultModel ?? first.models?.[0];
  return model ? { connection: first.name, model } : { connection: first.name };
}
