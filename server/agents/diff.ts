// The one-line "what changed" of a version, computed from two declarations, in the builder's words
// ("added system:web; narrowed system:filesystem to read_file, list_directory; limits changed"). Pure.
import { isConnectionModel, type AgentDeclaration, type ToolEntry } from "./declaration";
import { parseEntry } from "./entries";
import { stableJson } from "./drift";
import { PERMISSION_LABELS, type PermissionLevel } from "./permissions";

const sourceOf = (entry: string) => {
  const parsed = parseEntry(entry);
  return parsed.ok ? parsed.entry.source : entry.split("#")[0]!.trim();
};
const same = (a: unknown, b: unknown) => stableJson(a) === stableJson(b);

type Model = AgentDeclaration["model"];

/** "local-ollama/qwen3", "local-ollama (its default model)", "openai/gpt-4o-mini". */
const modelName = (m: Model) => (isConnectionModel(m) ? (m.model ? `${m.connection}/${m.model}` : `${m.connection} (its default model)`) : `${m.provider}/${m.model}`);

const OPTIONS = ["temperature", "max_tokens", "reasoning_effort"] as const;

function modelChange(before: Model, after: Model): string[] {
  if (same(before, after)) return [];
  if (modelName(before) !== modelName(after)) return [`model now ${modelName(after)}`];
  const shown = (v: unknown) => (v === undefined ? "default" : String(v));
  const options = OPTIONS.filter((k) => before[k] !== after[k]).map((k) => `${k} ${shown(before[k])} → ${shown(after[k])}`);
  const rest = (m: Model) => Object.fromEntries(Object.entries(m).filter(([k]) => !(OPTIONS as readonly string[]).includes(k)));
  return [...(same(rest(before), rest(after)) ? [] : ["model settings changed"]), ...(options.length > 0 ? [`model options changed (${options.join(", ")})`] : [])];
}

function toolChanges(before: ToolEntry[], after: ToolEntry[]): string[] {
  const out: string[] = [];
  const old = new Map(before.map((t) => [sourceOf(t.entry), t]));
  const now = new Map(after.map((t) => [sourceOf(t.entry), t]));
  for (const [source, tool] of now) {
    const was = old.get(source);
    if (!was) {
      out.push(`added ${tool.entry}`);
      continue;
    }
    if (was.entry !== tool.entry) {
      const parsed = parseEntry(tool.entry);
      const ops = parsed.ok ? parsed.entry.operations : null;
      out.push(ops ? `narrowed ${source} to ${ops.join(", ")}` : `gave ${source} every operation`);
    }
    if (!same(was.settings, tool.settings)) {
      const keys = [...new Set([...Object.keys(was.settings), ...Object.keys(tool.settings)])].filter((k) => !same(was.settings[k], tool.settings[k]));
      out.push(`changed ${keys.join(", ")} of ${source}`);
    }
    const names = [...new Set([...Object.keys(was.permissions), ...Object.keys(tool.permissions)])].filter((k) => was.permissions[k] !== tool.permissions[k]);
    for (const name of names) {
      const level = tool.permissions[name] as PermissionLevel | undefined;
      out.push(level ? `${name}: ${PERMISSION_LABELS[level]}` : `${name}: the agent's default`);
    }
  }
  for (const [source] of old) if (!now.has(source)) out.push(`removed ${source}`);
  const order = (list: ToolEntry[]) => list.map((t) => sourceOf(t.entry)).filter((s) => old.has(s) && now.has(s));
  if (out.length === 0 && !same(order(before), order(after))) out.push("reordered the tools");
  return out;
}

export function summarizeChange(before: AgentDeclaration, after: AgentDeclaration): string {
  const parts: string[] = [];
  if (before.name !== after.name) parts.push(`renamed to ${after.name}`);
  if (before.description !== after.description) parts.push("description changed");
  if (before.instructions !== after.instructions) parts.push("instructions changed");
  parts.push(...modelChange(before.model, after.model));
  parts.push(...toolChanges(before.tools, after.tools));
  if (before.policy.permission !== after.policy.permission) parts.push(`default approval: ${PERMISSION_LABELS[after.policy.permission]}`);
  const limits = (["timeout_s", "output_cap", "retry", "dedupe"] as const).filter((k) => before.policy[k] !== after.policy[k]);
  if (limits.length > 0) parts.push(`limits changed (${limits.map((k) => `${k} ${before.policy[k]} → ${after.policy[k]}`).join(", ")})`);
  if (parts.length === 0) return "no changes";
  const line = parts.join("; ");
  const capitalised = line.charAt(0).toUpperCase() + line.slice(1);
  return capitalised.length > 300 ? `${capitalised.slice(0, 299)}…` : capitalised;
}
