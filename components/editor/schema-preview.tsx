"use client";
// What the model sees for each operation of the file: name, description and the input schema, as JSON
// and as a table. Only these three things reach the model (R-schema-three-things).
import { Check, Copy } from "lucide-react";
import { memo, useEffect, useState } from "react";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { CatalogFile, CatalogTool } from "@/server/host/protocol";
import type { BusyFlag } from "./busy-flag";

type Property = { type?: unknown; description?: unknown; default?: unknown; enum?: unknown[]; items?: { type?: unknown } };

function typeLabel(schema: Property): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (schema.type === "array") return `array of ${String(schema.items?.type ?? "any")}`;
  return String(schema.type ?? "any");
}

/** The tool exactly as it goes to the model. */
export function modelView(tool: CatalogTool) {
  return { name: tool.name, description: tool.description, input_schema: tool.input_schema };
}

function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      aria-label={label}
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1200);
        });
      }}
      className="rounded p-1 text-zinc-500 dark:text-zinc-400 hover:bg-zinc-100 hover:text-zinc-900 dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
    >
      {copied ? <Check aria-hidden className="h-3.5 w-3.5" /> : <Copy aria-hidden className="h-3.5 w-3.5" />}
    </button>
  );
}

// Out of view a card is neither laid out nor painted, its text still in the page (R-preview-offscreen-cards).
function OperationCard({ tool }: { tool: CatalogTool }) {
  const schema = tool.input_schema as { properties?: Record<string, Property>; required?: string[] };
  const properties = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const json = JSON.stringify(modelView(tool), null, 2);
  return (
    <article aria-label={tool.name} className="rounded-md border border-zinc-200 [contain-intrinsic-size:auto_16rem] [content-visibility:auto] dark:border-zinc-800">
      <header className="border-b border-zinc-200 px-3 py-2 dark:border-zinc-800">
        <h3 className="font-mono text-sm font-semibold">{tool.name}</h3>
        <p className="mt-0.5 text-xs text-zinc-500 dark:text-zinc-400">
          {tool.title} · {tool.risk ?? "read"}
          {tool.scope === "run" ? " · one instance per run" : ""}
          {tool.timeout ? ` · ${tool.timeout} s` : ""}
        </p>
        <p className="mt-1 whitespace-pre-wrap text-sm">{tool.description || <em className="text-amber-700">No description: add a docstring whose first line says what this does.</em>}</p>
      </header>
      {properties.length > 0 ? (
        <div className="px-3">
          <Table density="compact">
            <TableHeader>
              <TableRow>
                <TableHead>Parameter</TableHead>
                <TableHead>Type</TableHead>
                <TableHead>Required</TableHead>
                <TableHead>Default</TableHead>
                <TableHead>Description</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {properties.map(([name, property]) => (
                <TableRow key={name} className="align-top">
                  <TableCell className="font-mono">{name}</TableCell>
                  <TableCell className="font-mono text-zinc-600 dark:text-zinc-400">{typeLabel(property)}</TableCell>
                  <TableCell>{required.has(name) ? "yes" : "no"}</TableCell>
                  <TableCell className="font-mono">{"default" in property ? JSON.stringify(property.default) : ""}</TableCell>
                  <TableCell>{typeof property.description === "string" ? property.description : ""}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      ) : (
        <p className="px-3 py-2 text-xs text-zinc-500 dark:text-zinc-400">Takes no parameters.</p>
      )}
      {/* The copy button sits beside the summary, not in it: a control inside another is out of a keyboard's reach. */}
      <div className="relative border-t border-zinc-200 dark:border-zinc-800">
        <details>
          <summary className="cursor-pointer px-3 py-1.5 pr-10 text-xs text-zinc-500 dark:text-zinc-400">JSON the model receives</summary>
          <pre tabIndex={0} aria-label={`The JSON of ${tool.name}`} className="overflow-auto bg-zinc-50 px-3 py-2 font-mono text-xs dark:bg-zinc-900">
            {json}
          </pre>
        </details>
        <div className="absolute right-2 top-0.5">
          <CopyButton text={json} label={`Copy the JSON of ${tool.name}`} />
        </div>
      </div>
    </article>
  );
}

// Each answer is a new object, even for the operations the keystroke did not touch: comparing what a card shows lets
// only the edited operation's card render again when the answer lands (R-preview-pause).
const SameOperationCard = memo(OperationCard, (before, after) => before.tool === after.tool || JSON.stringify(before.tool) === JSON.stringify(after.tool));

/**
 * The busy mark as this list's own state, subscribed below the memoised panels: a request leaving re-renders this list
 * alone, whose cards stay (R-preview-busy-local). Plain state, not an external store React would render at once: the
 * mark then renders in the same pass as the answer that clears it, and after the request that sets it has left.
 */
function useBusy(busy: BusyFlag): boolean {
  const [pending, setPending] = useState(busy.get);
  useEffect(() => {
    const follow = () => setPending(busy.get());
    follow();
    return busy.subscribe(follow);
  }, [busy]);
  return pending;
}

export function SchemaPreview({ entry, stale, busy }: { entry: CatalogFile | null; stale: boolean; busy: BusyFlag }) {
  const pending = useBusy(busy);
  if (!entry) return <p className="p-4 text-sm text-zinc-500 dark:text-zinc-400">Reading the file…</p>;
  return (
    <div className="flex flex-col gap-3 p-3" aria-busy={pending}>
      {stale ? (
        <p role="status" className="rounded-md bg-amber-50 px-3 py-2 text-xs text-amber-800 dark:bg-amber-950 dark:text-amber-200">
          Stale: the file does not parse right now, so this is the last version that did. Fix the problem below to update it.
        </p>
      ) : null}
      {!entry.offered && entry.unavailable ? (
        <p className="rounded-md bg-amber-50 px-3 py-2 text-xs text-amber-800 dark:bg-amber-950 dark:text-amber-200">
          Not offered: {entry.unavailable}.
        </p>
      ) : !entry.offered ? (
        <p className="rounded-md bg-red-50 px-3 py-2 text-xs text-red-800 dark:bg-red-950 dark:text-red-200">
          Not offered: while the file has problems, a model is offered none of its operations. What could be derived is shown below.
        </p>
      ) : null}
      {entry.kind === "helper" ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">A helper file: the other files import it, and it offers no tools of its own.</p>
      ) : entry.tools.length === 0 ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">
          No operations yet. A public function with type hints and a docstring becomes one.
        </p>
      ) : (
        entry.tools.map((tool) => <SameOperationCard key={tool.name} tool={tool} />)
      )}
    </div>
  );
}
