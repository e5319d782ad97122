"use client";
// The webhook's template (R-trigger-webhook-template): {{body.field}} placeholders, saved on its own button, its
// fault as a sentence under the field.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorText } from "@/components/trpc/error-text";
import { problemsIn } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/provider";
import { Button } from "@/components/ui/button";
import { FieldProblems } from "./field-problems";
import { inputClass } from "./styles";

export function TriggersTemplate({ agentId, saved }: { agentId: string; saved: string | null }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [value, setValue] = useState(saved ?? "");
  // A template saved elsewhere (or just now) replaces what the field holds, as React adjusts state during render.
  const [base, setBase] = useState(saved);
  if (saved !== base) {
    setBase(saved);
    setValue(saved ?? "");
  }
  const save = useMutation(
    trpc.triggers.setWebhookTemplate.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.triggers.webhook.queryKey({ agentId }) }),
    }),
  );
  const problems = problemsIn<{ path: string; message: string }>(save.error, "problems", "INVALID_TRIGGER").map((p) => p.message);
  const changed = value !== (saved ?? "");
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor="webhook-template" className="font-medium">
        Message template
      </label>
      <textarea
        id="webhook-template"
        rows={3}
        value={value}
        spellCheck={false}
        onChange={(e) => (setValue(e.target.value), save.reset())}
        placeholder="New issue: {{body.issue.title}} by {{body.issue.user.login}}"
        aria-invalid={problems.length > 0}
        aria-describedby="webhook-template-note"
        className={`${inputClass} font-mono text-xs`}
      />
      <FieldProblems
        id="webhook-template-note"
        messages={problems}
        hint="Empty: the request's whole body is the message (JSON indented). {{body.name}} takes one field, {{body.issue.title}} a nested one; a field the request lacks is left empty and named in the answer."
      />
      {problems.length === 0 ? <ErrorText error={save.error} className="text-xs text-red-600" /> : null}
      <div>
        <Button size="sm" onClick={() => save.mutate({ agentId, template: value.trim() ? value : null })} disabled={!changed || save.isPending}>
          {save.isPending ? "Saving…" : "Save template"}
        </Button>
        {save.isSuccess && !changed ? <span className="ml-2 text-xs text-zinc-500 dark:text-zinc-400" role="status">Saved.</span> : null}
      </div>
    </div>
  );
}
