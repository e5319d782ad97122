// How a run started, in the words /runs uses for its column and its filter (R-key-via).
import type { RunVia } from "@/db/schema";

export const VIA_LABELS: Record<RunVia, string> = {
  playground: "Playground",
  api: "API key",
  mcp: "MCP",
  webhook: "Webhook",
  schedule: "Scheduled",
  specialist: "Specialist",
};

/** "Playground", "API key ci-bot", "MCP, key ide": the kind, and the key it came through where there was one. */
export function viaWords(run: { via: RunVia; viaKeyName: string | null }): string {
  if (run.via === "api") return run.viaKeyName ? `API key ${run.viaKeyName}` : "API key";
  if (run.viaKeyName) return `${VIA_LABELS[run.via]}, key ${run.viaKeyName}`;
  return VIA_LABELS[run.via];
}
