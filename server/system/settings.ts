// A built-in entry's settings as its handlers read them: every default filled, and a root turned into the absolute
// folder it names inside the workspace. The runtime calls this once per run; the values were checked when saved.
import path from "node:path";
import type { SystemSource } from "./types";

type Property = { default?: unknown; "x-quiver-kind"?: string };

export function systemSettings(source: SystemSource, values: Record<string, unknown>, workspace: string): Record<string, unknown> {
  const properties = (source.settings_schema?.properties ?? {}) as Record<string, Property>;
  const resolved: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(properties)) {
    const value = values[key] ?? property.default;
    if (value === undefined) continue;
    resolved[key] = property["x-quiver-kind"] === "root" && typeof value === "string" ? path.resolve(workspace, value) : value;
  }
  return resolved;
}
