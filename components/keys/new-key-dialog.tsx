"use client";
// "New key": a name, the agents it may use, what it may do, how long a request may wait for an approval, its rate
// and expiry, each with its sentence beside it. Once made, the same dialog shows the value, this once.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ErrorText } from "@/components/trpc/error-text";
import { problemsIn, refusalOf } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/provider";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import type { KeyAgents, KeyScope } from "@/db/schema";
import { AgentPicker } from "./agent-picker";
import { KeyShownOnce } from "./key-shown-once";
import { SCOPES, toggledScopes } from "./words";

type Form = { name: string; agents: KeyAgents; scopes: KeyScope[]; waitMinutes: string; rate: string; expiry: string; expiryDate: string };

const EMPTY: Form = { name: "", agents: "all", scopes: ["run"], waitMinutes: "5", rate: "60", expiry: "never", expiryDate: "" };
const EXPIRIES = [
  { value: "never", label: "Never" },
  { value: "7", label: "In 7 days" },
  { value: "30", label: "In 30 days" },
  { value: "90", label: "In 90 days" },
  { value: "365", label: "In a year" },
  { value: "date", label: "On a date…" },
];

/** The expiry as an ISO time, null for never, or a sentence when the chosen date is not one. */
function expiryOf(form: Form): string | null | { problem: string } {
  if (form.expiry === "never") return null;
  if (form.expiry !== "date") return new Date(Date.now() + Number(form.expiry) * 86_400_000).toISOString();
  if (!form.expiryDate) return { problem: "Pick the day the key stops working, or choose Never." };
  // The end of the chosen day where the person is, so "today" still works until midnight.
  return new Date(`${form.expiryDate}T23:59:59`).toISOString();
}

/** Faults the form can see before asking the server, at the server's own paths. */
function localProblems(form: Form): Map<string, string> {
  const found = new Map<string, string>();
  const wait = Number(form.waitMinutes);
  if (!Number.isInteger(wait) || wait < 1 || wait > 60) found.set("waitLimitS", "Give a whole number of minutes from 1 to 60; 5 is the usual.");
  const rate = Number(form.rate);
  if (!Number.isInteger(rate) || rate < 1 || rate > 100_000) found.set("ratePerMinute", "Give a whole number of requests from 1 to 100,000.");
  const expiry = expiryOf(form);
  if (expiry && typeof expiry === "object") found.set("expiresAt", expiry.problem);
  return found;
}

export function NewKeyDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<Form>(EMPTY);
  const [local, setLocal] = useState<Map<string, string>>(new Map());
  const [made, setMade] = useState<{ name: string; value: string } | null>(null);
  const create = useMutation(trpc.apiKeys.create.mutationOptions());
  const change = (patch: Partial<Form>) => setForm((old) => ({ ...old, ...patch }));

  const refused = [...problemsIn<{ path: string; message: string }>(create.error, "problems", "INVALID_API_KEY"), ...refusalOf(create.error).issues];
  const at = (path: string) => local.get(path) ?? refused.find((p) => p.path === path || p.path.startsWith(`${path}.`))?.message ?? null;
  const placed = new Set(["name", "agents", "scopes", "waitLimitS", "ratePerMinute", "expiresAt"]);
  const unplaced = create.error && !refused.some((p) => placed.has(p.path.split(".")[0]!)) ? create.error : null;

  function close() {
    setForm(EMPTY);
    setLocal(new Map());
    // The value goes with the dialog: nothing keeps it once closed.
    setMade(null);
    create.reset();
    onOpenChange(false);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    create.reset();
    const found = localProblems(form);
    setLocal(found);
    if (found.size > 0) return;
    const expiresAt = expiryOf(form) as string | null;
    create.mutate(
      { name: form.name, agents: form.agents, scopes: form.scopes, waitLimitS: Number(form.waitMinutes) * 60, ratePerMinute: Number(form.rate), expiresAt },
      {
        onSuccess: async ({ key, value }) => {
          setMade({ name: key.name, value });
          await queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
        },
      },
    );
  }

  const scopeError = at("scopes");
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title={made ? `Copy the key ${made.name}` : "New key"}
      description={made ? undefined : "A key lets a program outside the studio use agents: a chat front end, a script, a CI job or an IDE."}
      size="wide"
    >
      {made ? (
        <KeyShownOnce name={made.name} value={made.value} onDone={close} />
      ) : (
        <form onSubmit={submit} className="flex flex-col gap-3" autoComplete="off">
          <Field
            id="key-name"
            label="Name"
            autoFocus
            spellCheck={false}
            value={form.name}
            onChange={(e) => change({ name: e.target.value })}
            placeholder="ci-bot"
            error={at("name")}
            hint="Who uses it, so you know which key to revoke: the audit log and Runs show this name."
          />
          {form.scopes.includes("metrics") ? (
            <p className="text-sm text-zinc-500 dark:text-zinc-400">A metrics key reaches no agent: it reads /api/metrics and nothing else.</p>
          ) : (
            <AgentPicker value={form.agents} onChange={(agents) => change({ agents })} error={at("agents")} />
          )}
          <fieldset className="flex flex-col gap-1 text-sm" aria-describedby="key-scopes-note">
            <legend className="mb-1 font-medium">What it may do</legend>
            {SCOPES.map(({ scope, label, hint }) => (
              <label key={scope} className="flex items-start gap-2">
                <input
                  type="checkbox"
                  className="mt-1"
                  checked={form.scopes.includes(scope)}
                  onChange={(e) => change({ scopes: toggledScopes(form.scopes, scope, e.target.checked) })}
                />
                <span>
                  {label}
                  <span className="block text-xs text-zinc-500 dark:text-zinc-400">{hint}</span>
                </span>
              </label>
            ))}
            <span id="key-scopes-note" className={`text-xs ${scopeError ? "text-red-600" : "text-zinc-500 dark:text-zinc-400"}`}>
              {scopeError ?? "Tick only what the program needs: a key that only reads runs cannot approve a call."}
            </span>
          </fieldset>
          <div className="grid grid-cols-2 gap-3">
            <Field
              id="key-wait"
              label="Wait for an approval (minutes)"
              type="number"
              min={1}
              max={60}
              value={form.waitMinutes}
              onChange={(e) => change({ waitMinutes: e.target.value })}
              error={at("waitLimitS")}
              hint="How long a request stays open while its run waits for someone to approve; the run waits on after."
            />
            <Field
              id="key-rate"
              label="Requests a minute"
              type="number"
              min={1}
              max={100000}
              value={form.rate}
              onChange={(e) => change({ rate: e.target.value })}
              error={at("ratePerMinute")}
              hint="Past this the program is told to wait (429 with Retry-After)."
            />
          </div>
          <div className="flex flex-col gap-1 text-sm">
            <label htmlFor="key-expiry" className="font-medium">
              Expires
            </label>
            <div className="flex gap-2">
              <select
                id="key-expiry"
                aria-describedby="key-expiry-note"
                value={form.expiry}
                onChange={(e) => change({ expiry: e.target.value })}
                className="rounded-md border border-zinc-300 bg-transparent px-2 py-1.5 text-sm outline-none focus:border-accent dark:border-zinc-700"
              >
                {EXPIRIES.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
              {form.expiry === "date" ? (
                <input
                  type="date"
                  aria-label="Expiry date"
                  value={form.expiryDate}
                  onChange={(e) => change({ expiryDate: e.target.value })}
                  className="rounded-md border border-zinc-300 bg-transparent px-2 py-1 text-sm outline-none focus:border-accent dark:border-zinc-700"
                />
              ) : null}
            </div>
            <span id="key-expiry-note" className={`text-xs ${at("expiresAt") ? "text-red-600" : "text-zinc-500 dark:text-zinc-400"}`}>
              {at("expiresAt") ?? "After this the key stops working by itself; you can revoke it earlier at any time."}
            </span>
          </div>
          <ErrorText error={unplaced} />
          <DialogActions onCancel={close} label="Create key" busyLabel="Creating…" busy={create.isPending} className="mt-1" />
        </form>
      )}
    </Dialog>
  );
}
