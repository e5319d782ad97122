// The run's model, opened at the start of each segment of the run (R-conn-resolve): the agent's model resolved (a
// connection read now), its key decrypted for this segment, the provider's model opened. Edit when what a run
// needs of its model changes; the providers themselves are server/models/open.ts.
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { isConnectionModel, type Provider } from "@/server/agents/declaration";
import { modelKey, openModel, type ModelSpec } from "@/server/models/open";
import { resolveModel } from "@/server/models/resolve";
import type { Run } from "./run";

/** `key` is kept only to strip it from a provider's error text (R-conn-key-masked). */
export async function openRunModel(run: Run): Promise<{ spec: ModelSpec; model: LanguageModelV4; key: string | null }> {
  const spec = await resolveModel(run.deps.db, run.declaration.model);
  run.model = spec;
  const key = await modelKey(spec, run.secrets);
  return { spec, model: openModel(spec, key), key };
}

/** The provider the run's requests are shaped for: its resolved model's, or the declaration's own before that. */
export function runProvider(run: Pick<Run, "model" | "declaration">): Provider {
  if (run.model) return run.model.provider;
  return isConnectionModel(run.declaration.model) ? "openai-compatible" : run.declaration.model.provider;
}
