"use client";
// Prices: the connection's currency and, per model, what a million input and output tokens cost (R-cost-price). The
// rows are saved whole; a run already made keeps the price it was made with (R-cost-fixed). Each refusal shows at
// the field it names.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Plus, X } from "lucide-react";
import { useState, type FormEvent } from "react";
import { errorSentence, refusalOf } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import type { Connection } from "./types";

type Row = { model: string; input: string; output: string };

const cellClass = "w-full rounded-md border border-zinc-300 bg-transparent px-2 py-1 text-sm outline-none focus:border-accent aria-[invalid=true]:border-red-500 dark:border-zinc-700";

/** The rows to start from: the saved prices, or one empty row for the default model (or the first on offer). */
function rowsOf(connection: Connection): Row[] {
  if (connection.prices.length > 0) return connection.prices.map((p) => ({ ...p }));
  return [{ model: connection.defaultModel ?? connection.models?.[0] ?? "", input: "", output: "" }];
}

function PricesForm({ connection, onClose }: { connection: Connection; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [currency, setCurrency] = useState(connection.currency);
  const [rows, setRows] = useState<Row[]>(() => rowsOf(connection));
  const save = useMutation(trpc.models.prices.mutationOptions());
  const refusal = refusalOf(save.error);
  const issues = refusal.issues.map((i) => ({ field: i.path.split(".")[0] ?? "", message: i.message }));
  const field = typeof refusal.details?.field === "string" ? refusal.details.field : null;
  if (save.error && issues.length === 0) issues.push({ field: field ?? "", message: errorSentence(save.error) });
  const at = (name: string) => [...new Set(issues.filter((i) => i.field === name).map((i) => i.message))].join(" ") || null;
  const elsewhere = issues.filter((i) => i.field !== "currency" && i.field !== "prices").map((i) => i.message);
  const offered = [...new Set([connection.defaultModel, ...(connection.models ?? [])].filter((m): m is string => !!m))];
  const change = (index: number, patch: Partial<Row>) => setRows((old) => old.map((row, i) => (i === index ? { ...row, ...patch } : row)));

  function submit(event: FormEvent) {
    event.preventDefault();
    save.reset();
    // A row left wholly blank is no price, not a mistake.
    const prices = rows.filter((r) => r.model.trim() || r.input.trim() || r.output.trim());
    save.mutate(
      { name: connection.name, currency, prices },
      {
        onSuccess: async () => {
          await queryClient.invalidateQueries({ queryKey: trpc.models.list.queryKey() });
          onClose();
        },
      },
    );
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-3" autoComplete="off" noValidate>
      <Field
        id="prices-currency"
        label="Currency"
        spellCheck={false}
        maxLength={3}
        value={currency}
        onChange={(e) => setCurrency(e.target.value.toUpperCase())}
        error={at("currency")}
        hint="Three capital letters, such as USD or EUR; costs are shown in it as given, never converted."
      />
      <table className="w-full text-sm">
        <caption className="mb-1 text-left font-medium">Price per million tokens</caption>
        <thead>
          <tr className="text-left text-xs text-zinc-500 dark:text-zinc-400">
            <th className="pb-1 font-normal">Model</th>
            <th className="pb-1 pl-2 font-normal">Input</th>
            <th className="pb-1 pl-2 font-normal">Output</th>
            <th>
              <span className="sr-only">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>
              <td className="py-0.5">
                <input aria-label={`Model of price ${i + 1}`} list="prices-models" spellCheck={false} className={`${cellClass} font-mono`} value={row.model} onChange={(e) => change(i, { model: e.target.value })} placeholder="gpt-4o-mini" />
              </td>
              <td className="py-0.5 pl-2">
                <input aria-label={`Input price of ${row.model || `price ${i + 1}`}`} inputMode="decimal" aria-invalid={!!at("prices")} className={`${cellClass} w-24 tabular-nums`} value={row.input} onChange={(e) => change(i, { input: e.target.value })} placeholder="0.15" />
              </td>
              <td className="py-0.5 pl-2">
                <input aria-label={`Output price of ${row.model || `price ${i + 1}`}`} inputMode="decimal" aria-invalid={!!at("prices")} className={`${cellClass} w-24 tabular-nums`} value={row.output} onChange={(e) => change(i, { output: e.target.value })} placeholder="0.60" />
              </td>
              <td className="py-0.5 pl-1 text-right">
                <Button type="button" size="sm" variant="ghost" aria-label={`Remove the price of ${row.model || `price ${i + 1}`}`} onClick={() => setRows((old) => old.filter((_, j) => j !== i))}>
                  <X aria-hidden className="h-3.5 w-3.5" />
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <datalist id="prices-models">
        {offered.map((m) => (
          <option key={m} value={m} />
        ))}
      </datalist>
      {rows.length === 0 ? <p className="text-xs text-zinc-500 dark:text-zinc-400">No model has a price: runs on this connection show their tokens and “no price set”.</p> : null}
      <p className={`text-xs ${at("prices") ? "text-red-600" : "text-zinc-500 dark:text-zinc-400"}`} role={at("prices") ? "alert" : undefined}>
        {at("prices") ?? "A model without a price shows its tokens and “no price set”. A run keeps the price it started with."}
      </p>
      <div>
        <Button type="button" size="sm" onClick={() => setRows((old) => [...old, { model: "", input: "", output: "" }])}>
          <Plus aria-hidden className="h-3.5 w-3.5" /> Add a model
        </Button>
      </div>
      {elsewhere.length > 0 ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {elsewhere.join(" ")}
        </p>
      ) : null}
      <DialogActions onCancel={onClose} label="Save prices" busyLabel="Saving…" busy={save.isPending} className="mt-1" />
    </form>
  );
}

export function PricesDialog({ connection, onClose }: { connection: Connection | null; onClose: () => void }) {
  return (
    <Dialog open={connection !== null} onOpenChange={(open) => !open && onClose()} title={`Prices of ${connection?.name ?? ""}`} description="What the provider charges, so each run shows its cost and /runs sums it per agent.">
      {/* Keyed by the connection, so each opening starts from its saved prices. */}
      {connection ? <PricesForm key={connection.name} connection={connection} onClose={onClose} /> : null}
    </Dialog>
  );
}
