"use client";
// One source the agent can use: its title, what it is, its risk; its operations as checkboxes by title; and,
// folded, its Settings form and each chosen operation's Approval. What changed in it since the last save, and
// every problem of the entry, show on the card.
import { ChevronDown, ChevronRight, Shield, TriangleAlert, X } from "lucide-react";
import { useState, type ReactNode } from "react";
import type { Problem } from "@/server/agents/declaration";
import type { DriftChange } from "@/server/agents/drift";
import type { HookInfo } from "@/server/agents/hook";
import { PERMISSION_LABELS, type PermissionLevel } from "@/server/agents/permissions";
import type { Source } from "@/server/catalog/sources";
import { Button } from "@/components/ui/button";
import { ApprovalSelect } from "./approval-select";
import { chosenOperations, fieldId, joinEntry, problemsAt, splitEntry, type DraftTool } from "./draft";
import { fallbackTitle } from "./labels";
import { reachLine } from "./reach-line";
import { RiskBadge } from "./risk-badge";
import { SourceSettings } from "./source-settings";

export function SourceCard({
  index,
  tool,
  source,
  problems,
  drift,
  hook,
  agentDefault,
  notice,
  onChange,
  onRemove,
}: {
  index: number;
  tool: DraftTool;
  source: Source | undefined;
  problems: readonly Problem[];
  drift: DriftChange[];
  hook: HookInfo;
  agentDefault: PermissionLevel;
  /** What the source's server changed that a builder must accept first (an MCP server's tools). */
  notice?: ReactNode;
  onChange: (tool: DraftTool) => void;
  onRemove: () => void;
}) {
  const at = `tools[${index}]`;
  const mine = problems.filter((p) => p.path === at || p.path.startsWith(`${at}.`));
  const inFold = mine.filter((p) => p.path.startsWith(`${at}.settings`) || p.path.startsWith(`${at}.permissions`));
  // Closed until the builder opens it, or until one of its fields has a problem; then it stays open while they fix it.
  const [open, setOpen] = useState(false);
  if (inFold.length > 0 && !open) setOpen(true);
  const expanded = open;
  const { source: name } = splitEntry(tool.entry);
  const title = source?.title ?? fallbackTitle(name || "source");
  const entryProblems = [...problemsAt(problems, at), ...problemsAt(problems, `${at}.entry`)];

  const chosen = source ? chosenOperations(tool.entry, source) : new Set<string>();
  const narrowed = splitEntry(tool.entry).operations !== null;
  const governs = (op: string) => hook.present && (hook.governs === "all" || hook.governs.includes(op));

  function choose(op: string, on: boolean) {
    if (!source) return;
    const next = new Set(chosen);
    if (on) next.add(op);
    else next.delete(op);
    const operations = source.operations.map((o) => o.name).filter((n) => next.has(n));
    const permissions = Object.fromEntries(Object.entries(tool.permissions).filter(([key]) => next.has(key)));
    onChange({ ...tool, entry: joinEntry(source.entry, operations), permissions });
  }

  function widen(on: boolean) {
    if (!source) return;
    onChange({ ...tool, entry: joinEntry(source.entry, on ? null : source.operations.map((o) => o.name)) });
  }

  function setPermission(op: string, level: PermissionLevel | null) {
    const permissions = { ...tool.permissions };
    if (level) permissions[op] = level;
    else delete permissions[op];
    onChange({ ...tool, permissions });
  }

  const chosenOps = source?.operations.filter((op) => chosen.has(op.name)) ?? [];
  const reach = source ? reachLine(source) : null;
  return (
    <section id={fieldId(at)} aria-label={title} className="rounded-lg border border-zinc-200 dark:border-zinc-800">
      <header className="flex items-start gap-3 px-4 pt-3">
        <div className="min-w-0 flex-1">
          <div className="flex items-center gap-2">
            <h3 className="text-sm font-semibold">{title}</h3>
            {source ? <RiskBadge risk={source.risk} /> : null}
          </div>
          <p className="mt-0.5 text-xs text-zinc-600 dark:text-zinc-400">{source?.description || (source ? "" : name)}</p>
          {reach ? <p className="mt-0.5 text-xs text-zinc-500 dark:text-zinc-400">{reach}</p> : null}
        </div>
        <Button size="sm" variant="ghost" aria-label={`Remove ${title}`} title={`Remove ${title} from this agent`} onClick={onRemove}>
          <X aria-hidden className="h-3.5 w-3.5" />
        </Button>
      </header>

      {drift.length > 0 ? (
        <div role="status" className="mx-4 mt-2 rounded-md bg-amber-50 px-3 py-2 text-xs text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          <p className="flex items-center gap-1 font-medium">
            <TriangleAlert aria-hidden className="h-3.5 w-3.5" /> Changed since this agent was saved
          </p>
          <ul className="mt-1 list-disc pl-5">
            {drift.map((change, i) => (
              <li key={i}>{change.message}</li>
            ))}
          </ul>
          <p className="mt-1 text-amber-800 dark:text-amber-200">Saving the agent accepts these changes.</p>
        </div>
      ) : null}

      {notice}

      {entryProblems.length > 0 ? (
        <ul role="alert" className="mx-4 mt-2 flex flex-col gap-0.5 text-xs text-red-600">
          {entryProblems.map((message, i) => (
            <li key={i}>{message}</li>
          ))}
        </ul>
      ) : null}

      {source ? (
        <fieldset className="px-4 pt-2">
          <legend className="sr-only">Operations of {title} this agent may use</legend>
          <ul className="flex flex-col">
            {source.operations.map((op) => {
              const id = `${fieldId(at)}-op-${op.name}`;
              const level = tool.permissions[op.name];
              return (
                <li key={op.name} className="flex items-start gap-2 py-1">
                  <input id={id} type="checkbox" className="mt-1" checked={chosen.has(op.name)} onChange={(e) => choose(op.name, e.target.checked)} />
                  <div className="min-w-0 flex-1">
                    <div className="flex flex-wrap items-center gap-2">
                      <label htmlFor={id} className="text-sm">
                        {op.title}
                      </label>
                      <RiskBadge risk={op.risk} />
                      {chosen.has(op.name) && level && level !== "ALLOW" ? (
                        <span className="text-[11px] font-medium text-indigo-700 dark:text-indigo-300">{PERMISSION_LABELS[level]}</span>
                      ) : null}
                      {governs(op.name) ? (
                        <span title={`${hook.path} decides on each call of this operation`} className="inline-flex items-center gap-0.5 text-[11px] text-zinc-500 dark:text-zinc-400">
                          <Shield aria-hidden className="h-3 w-3" /> call hook
                        </span>
                      ) : null}
                    </div>
                    <p className="text-xs text-zinc-500 dark:text-zinc-400">{op.description}</p>
                  </div>
                </li>
              );
            })}
          </ul>
          <label className="mt-1 flex items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
            <input type="checkbox" checked={!narrowed} onChange={(e) => widen(e.target.checked)} />
            Also operations this source gains later
          </label>
        </fieldset>
      ) : null}

      {source ? (
        <div className="mt-2 border-t border-zinc-100 dark:border-zinc-900">
          <button
            type="button"
            aria-expanded={expanded}
            aria-controls={`${fieldId(at)}-fold`}
            onClick={() => setOpen(!expanded)}
            className="flex w-full items-center gap-1 px-4 py-2 text-left text-xs font-medium text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"
          >
            {expanded ? <ChevronDown aria-hidden className="h-3.5 w-3.5" /> : <ChevronRight aria-hidden className="h-3.5 w-3.5" />}
            Settings and approval
            {inFold.length > 0 ? <span className="ml-2 text-red-600">{inFold.length === 1 ? "1 problem" : `${inFold.length} problems`}</span> : null}
          </button>
          {expanded ? (
            <div id={`${fieldId(at)}-fold`} className="flex flex-col gap-4 px-4 pb-4">
              <div>
                <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400">Settings</h4>
                {source.settings_schema && Object.keys((source.settings_schema.properties ?? {}) as object).length > 0 ? (
                  <>
                    <p className="mb-2 text-xs text-zinc-500 dark:text-zinc-400">Set once for this agent. Never shown to the model.</p>
                    <SourceSettings source={source} index={index} settings={tool.settings} problems={problems} onChange={(settings) => onChange({ ...tool, settings })} />
                  </>
                ) : (
                  <p className="text-xs text-zinc-500 dark:text-zinc-400">{title} has nothing to set.</p>
                )}
              </div>
              <div>
                <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-zinc-500 dark:text-zinc-400">Approval</h4>
                {chosenOps.length === 0 ? (
                  <p className="text-xs text-zinc-500 dark:text-zinc-400">Tick an operation above to choose whether it asks you first.</p>
                ) : (
                  chosenOps.map((op) => (
                    <ApprovalSelect
                      key={op.name}
                      id={fieldId(`${at}.permissions.${op.name}`)}
                      source={source.entry}
                      operation={op.name}
                      title={op.title}
                      permissions={tool.permissions}
                      agentDefault={agentDefault}
                      error={problemsAt(problems, `${at}.permissions.${op.name}`)[0]}
                      onChange={(level) => setPermission(op.name, level)}
                    />
                  ))
                )}
                {Object.keys(tool.permissions)
                  .filter((op) => !chosen.has(op))
                  .map((op) => (
                    <p key={op} id={fieldId(`${at}.permissions.${op}`)} className="text-xs text-red-600">
                      {problemsAt(problems, `${at}.permissions.${op}`)[0] ?? `${op} is not among the operations ticked above.`}{" "}
                      <button type="button" className="underline" onClick={() => setPermission(op, null)}>
                        Remove its approval
                      </button>
                    </p>
                  ))}
              </div>
            </div>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
