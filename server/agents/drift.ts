// Drift: what changed in an agent's sources since it was saved. At save time each entry keeps a fingerprint of
// what the model was offered (per operation: its name and hashes of its description and input schema); reading
// the agent compares that with the catalog now and reports, per entry, what was renamed, removed or changed.
import { createHash } from "node:crypto";
import type { Operation } from "@/server/operations/operation";
import type { Source } from "@/server/catalog/sources";
import type { AgentDeclaration } from "./declaration";
import { parseEntry } from "./entries";

export type OperationPrint = { name: string; description: string; input_schema: string };
export type EntryPrint = { entry: string; operations: OperationPrint[] };

export type DriftChange = {
  kind: "unavailable" | "removed" | "renamed" | "changed" | "added";
  operation?: string;
  /** The new name, for a rename. */
  to?: string;
  message: string;
};
export type EntryDrift = { index: number; entry: string; changes: DriftChange[] };

/** JSON with sorted keys, so equal values hash equally whatever order their keys were written in. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

const hash = (value: unknown) => createHash("sha256").update(stableJson(value)).digest("hex").slice(0, 16);

export function fingerprint(operations: readonly Operation[]): OperationPrint[] {
  return operations.map((op) => ({ name: op.name, description: hash(op.description), input_schema: hash(op.input_schema) }));
}

function entryDrift(text: string, saved: OperationPrint[], sources: readonly Source[], treeError: string | null): DriftChange[] {
  const parsed = parseEntry(text);
  if (!parsed.ok) return [];
  const { source: name, operations: narrowed } = parsed.entry;
  const source = sources.find((s) => s.entry === name);
  if (!source) {
    if (parsed.entry.kind === "tree" && treeError) return [{ kind: "unavailable", message: `${name} cannot be checked: ${treeError}` }];
    return [{ kind: "unavailable", message: `${name} no longer exists, so this entry gives the agent nothing.` }];
  }
  if (!source.offered && source.unavailable) return [{ kind: "unavailable", message: `${name} offers nothing right now: ${source.unavailable}.` }];
  if (!source.offered) return [{ kind: "unavailable", message: `${name} has errors now, so it offers nothing until they are fixed.` }];
  const now = fingerprint(source.operations);
  const byName = new Map(now.map((op) => [op.name, op]));
  const savedNames = new Set(saved.map((op) => op.name));
  const renamedTo = new Set<string>();
  const changes: DriftChange[] = [];
  for (const before of saved) {
    const after = byName.get(before.name);
    if (after) {
      const what = [after.description !== before.description && "description", after.input_schema !== before.input_schema && "inputs"].filter(Boolean);
      if (what.length > 0) changes.push({ kind: "changed", operation: before.name, message: `${before.name} changed its ${what.join(" and ")}.` });
      continue;
    }
    const twin = now.find(
      (op) => !savedNames.has(op.name) && !renamedTo.has(op.name) && op.description === before.description && op.input_schema === before.input_schema,
    );
    if (twin) {
      renamedTo.add(twin.name);
      changes.push({
        kind: "renamed",
        operation: before.name,
        to: twin.name,
        message: `${before.name} is now called ${twin.name}${narrowed ? "; update the entry to keep using it" : ""}.`,
      });
    } else {
      changes.push({ kind: "removed", operation: before.name, message: `${before.name} is no longer in ${name}.` });
    }
  }
  if (narrowed === null) {
    for (const op of now.filter((op) => !savedNames.has(op.name) && !renamedTo.has(op.name))) {
      changes.push({ kind: "added", operation: op.name, message: `${op.name} is new in ${name}, and the agent is offered it (the entry is not narrowed).` });
    }
  }
  return changes;
}

/** Per entry, what changed in its source since the agent was saved; entries without changes are left out. */
export function detectDrift(declaration: AgentDeclaration, prints: readonly EntryPrint[], sources: readonly Source[], treeError: string | null = null): EntryDrift[] {
  return declaration.tools.flatMap((tool, index) => {
    const print = prints[index]?.entry === tool.entry ? prints[index] : prints.find((p) => p.entry === tool.entry);
    if (!print) return [];
    const changes = entryDrift(tool.entry, print.operations, sources, treeError);
    return changes.length > 0 ? [{ index, entry: tool.entry, changes }] : [];
  });
}
